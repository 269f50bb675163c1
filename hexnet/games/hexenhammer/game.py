"""The Hexenhammer engine: wires setup, legal actions, effects, reactions and views into the
shared :class:`hexnet.engine.Game` contract."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hexnet.engine import (
    Action,
    Deadline,
    Event,
    Game,
    IllegalAction,
    State,
    check_action_shape,
    emit,
)
from hexnet.games.hexenhammer import data, legal, phases, reactions, setup, view
from hexnet.games.hexenhammer.effects import announce_play, default_accuser, owners
from hexnet.games.hexenhammer.trials import carry_out, trial_trigger


class Hexenhammer(Game):
    """Hexenhammer for 3–5 players (see ``hexnet rules hexenhammer``)."""

    # what each card id is never changes after the deal
    frozen = frozenset({"players", "options", "cards"})

    def __init__(self) -> None:
        super().__init__(
            name="hexenhammer", title="Hexenhammer", min_players=3, max_players=5,
            round_field="round",
            options_help={
                "pace": "relaxed | normal | quick: the timed windows' seconds",
                "reaction_seconds": f"length of a reaction window "
                                    f"(default {data.RULES['reaction_seconds']})",
                "panic_seconds": f"length of the panic phase "
                                 f"(default {data.RULES['panic_seconds']})",
                "turn_seconds": "seconds for each other decision, expiry = the absent "
                                "player's move (default 0 = untimed; tournaments time them)",
                "scenario": "a stacked position (see the rules text)",
            })

    # -- contract ---------------------------------------------------------------------------
    def _validated(self, state: State, seat: Any, action: Mapping[str, Any]) -> Action:
        """As :meth:`Game._validated`; a brown card played without ``accuser`` is played by
        the seat's free villager with the highest suspicion (the rulebook's default). A pass
        and a card played on the seat's own initiative are checked directly, not looked up
        among every legal action."""
        if (type(seat) is int and 0 <= seat < len(state["players"])
                and state["outcome"] is None and state["choice"] is None):
            kind = action["type"]
            if kind == "pass":
                if len(action) == 1 and seat in self.waiting_for(state):
                    return {"type": "pass"}
            elif kind == "play" and state["window"] is None:
                cid = action.get("card")
                if isinstance(cid, str) and cid in state["hands"][seat]:
                    if "accuser" not in action and state["cards"][cid][0] in data.BROWN:
                        accuser = default_accuser(state, seat)
                        if accuser is not None:
                            action = {**action, "accuser": accuser}
                            check_action_shape(action)
                    if seat in self.waiting_for(state) and legal.play_allowed(state, seat,
                                                                             action):
                        return dict(action)
        return super()._validated(state, seat, action)

    def waiting_for(self, state: State) -> list[int]:
        """Whose input the game needs: the chooser, the seats a window asks, the panicking
        seats not yet done, or the turn player."""
        if state["outcome"] is not None:
            return []
        if state["choice"] is not None:
            return [state["choice"]["seat"]]
        if state["window"] is not None:
            return sorted(state["window"]["pending"])
        if state["phase"] == 2:
            return [s for s in range(len(state["players"])) if s not in state["done"]]
        return [state["turn"]]

    def bot_pause(self, state: State) -> float:
        """In the panic, between cards (no window, no tie): a card of a bot's may not follow
        the last one at once, or the people at the table never get one in (issue 26). A panic
        shorter than the normal one has a pause shorter alike (the quick pace's 30 s panic:
        2.7 s, as 4 s is of 45 s); a longer one keeps the normal pause."""
        if (state["outcome"] is None and state["phase"] == 2 and state["window"] is None
                and state["choice"] is None):
            panic = float(state["options"].get("panic_seconds", data.RULES["panic_seconds"]))
            share = min(1.0, panic / float(data.RULES["panic_seconds"]))
            return float(data.RULES["panic_bot_pause"]) * share
        return 0.0

    def deadline(self, state: State) -> Deadline | None:
        """A reaction window is timed (pending seats pass), and so is the panic (it ends); with
        option ``turn_seconds`` so is every other decision (expiry = the absent player's move),
        each afresh (the key names the state it waits in)."""
        if state["outcome"] is not None:
            return None
        opts = state["options"]
        window = state["window"]
        if state["choice"] is None and window is not None:  # (who has answered is nobody's)
            return Deadline(f"react-{state['windows']}",
                            float(opts.get("reaction_seconds", data.RULES["reaction_seconds"])),
                            (), "window")
        if state["choice"] is None and state["phase"] == 2:
            return Deadline(f"panic-{state['round']}",
                            float(opts.get("panic_seconds", data.RULES["panic_seconds"])),
                            tuple(self.waiting_for(state)), "panic")
        return self.turn_deadline(state, opts.get("turn_seconds"))

    def secret_step(self, state: State) -> str | None:
        """The secret step open now (see :meth:`hexnet.engine.Game.secret_step`): a reaction
        window (every other seat is asked whether or not it holds a fitting ★ card: only the
        holders can do more than pass) and the panic (every seat may play whatever its hand
        allows, or say done)."""
        if state["outcome"] is not None or state["choice"] is not None:
            return None
        if state["window"] is not None:
            return f"w{state['windows']}"
        if state["phase"] == 2:
            return f"p{state['round']}"
        return None

    def describe_action(self, state: State, seat: int, action: Mapping[str, Any]
                        ) -> dict[str, Any]:
        """A label as data (``play_accuses``: Beweys +2: Karl → Maria; ``pass``; …)."""
        return view.action_label(action, state["cards"])

    # -- hooks ------------------------------------------------------------------------------
    def _setup(self, state: State) -> None:
        setup.new_state(state)
        stakes = [[[vid, v["suspicion"]] for vid, v in state["villagers"].items()
                   if v["owner"] == s] for s in range(len(state["players"]))]
        emit(state, "begins", stakes=stakes)
        emit(state, "round_begins", round=1, phase=state["phase"], player=state["turn"])

    def _legal(self, state: State, seat: int) -> list[Action]:
        return legal.legal_actions(state, seat)

    def _optional(self, state: State, seat: int) -> list[Action]:
        # a trial may be played at any time in its phases, even when the game waits on others
        return legal.trial_plays(state, seat)

    def _legal_for(self, state: State, seat: int, action: Mapping[str, Any]) -> list[Action]:
        # checked against the actions that could equal it, not all of them: a pass is legal
        # for every seat waited on (but a tie's chooser), a play only among that card's plays
        kind = action.get("type")
        if state["choice"] is None:
            if kind == "pass":
                return [legal.PASS]
            if kind == "play" and state["phase"] != 4:
                cid = action.get("card")
                if not isinstance(cid, str) or cid not in state["hands"][seat]:
                    return []
                return legal.legal_actions(state, seat, only=cid)
        return legal.legal_actions(state, seat)

    def _apply(self, state: State, seat: int, action: Action) -> list[Event]:
        start = len(state["log"])
        kind = action["type"]
        window = state["window"]
        if state["choice"] is not None:
            self._choose(state, action["target"])
        elif window is not None and not self._interrupts(state, action):
            reactions.answer(state, seat, action)
        elif kind == "pass":
            self._pass(state, seat)
        elif kind == "call_inquisition":
            emit(state, "call", player=seat)
            reactions.open_window(state, {"type": "call", "player": seat}, seat)
        elif kind == "discard":
            self._discard(state, seat, action["card"])
        else:
            self._play(state, seat, action)
        return state["log"][start:]

    @staticmethod
    def _interrupts(state: State, action: Action) -> bool:
        """Whether ``action`` is a trial played into a card's reaction window (not an answer)."""
        return (action["type"] == "play" and state["window"]["trigger"]["type"] == "card"
                and state["cards"][action["card"]][0] in data.TRIALS)

    def _why_illegal(self, state: State, seat: int, action: Mapping[str, Any]
                     ) -> IllegalAction:
        return legal.why_illegal(state, seat, dict(action), seat in self.waiting_for(state))

    def _public(self, state: State) -> dict[str, Any]:
        return view.public(state)

    def _private(self, state: State, seat: int | None) -> dict[str, Any]:
        return view.private(state, seat)

    def _on_timeout(self, state: State) -> list[Event]:
        start = len(state["log"])
        if state["choice"] is None and state["window"] is not None:
            reactions.expire(state)
        elif state["choice"] is None and state["phase"] == 2:
            emit(state, "time_up_panic")
            phases.begin_phase3(state)
        elif state["options"].get("turn_seconds"):
            return self._turn_timeout(state)
        else:
            raise IllegalAction("nothing_timed")
        return state["log"][start:]

    def _on_absent(self, state: State, seat: int) -> list[Event]:
        if state["choice"] is not None:
            return self._apply(state, seat, {"type": "choose",
                                             "target": state["choice"]["options"][0]})
        return self._apply(state, seat, {"type": "pass"})

    # -- the actions ------------------------------------------------------------------------
    def _choose(self, state: State, vid: str) -> None:
        choice = state["choice"]
        state["choice"] = None
        emit(state, "chooses", player=choice["seat"], villager=vid, owners=owners(state, vid))
        if choice["purpose"] == "burn":
            phases.burn_and_go_on(state, vid, state["inquisitor"])
        else:
            carry_out(state, choice["trial"], vid)

    def _pass(self, state: State, seat: int) -> None:
        phase = state["phase"]
        if phase == 1:
            emit(state, "ends_turn", player=seat)
            phases.end_turn_phase1(state)
        elif phase == 2:
            state["done"].append(seat)
            emit(state, "done", player=seat)
            if len(state["done"]) == len(state["players"]):
                phases.begin_phase3(state)
        elif phase == 3:
            emit(state, "passes", player=seat)
            phases.advance_phase3(state)
        else:
            phases.phase4_pass(state, seat)

    def _discard(self, state: State, seat: int, cid: str) -> None:
        state["hands"][seat].remove(cid)
        state["discard"].append(cid)
        kind, value = state["cards"][cid]
        emit(state, "you_discard", to=[seat], kind=kind, value=value)
        emit(state, "discards", player=seat)

    def _play(self, state: State, seat: int, action: Action) -> None:
        cid = action["card"]
        state["hands"][seat].remove(cid)
        kind, value = state["cards"][cid]
        if state["phase"] == 2:
            state["done"] = []
        if kind in data.TRIALS:
            trigger = trial_trigger(state, seat, cid, action.get("target"))
        else:
            accuser = action.get("accuser")
            if accuser is not None:
                state["accusers_used"].append(accuser)
            trigger = {"type": "card", "card": cid, "kind": kind,
                       "value": value * action.get("sign", 1), "player": seat,
                       "accuser": accuser, "aimed": action["target"],
                       "target": action["target"], "bonus": 0, "shares": [],
                       "cancelled": False}
            announce_play(state, trigger)
        reactions.open_window(state, trigger, seat)


GAME = Hexenhammer()
