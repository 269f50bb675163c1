"""The Fang die Hexe engine: the contract's hooks, dispatching to the scene modules."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from hexnet.engine import Action, Deadline, Event, Game, IllegalAction, State, emit
from hexnet.games.fang import data, day, evening, night, setup, view
from hexnet.games.fang.common import (
    BANISHED,
    CHANGEABLE,
    apply_confirm,
    begin,
    finalize,
    may_change,
    power_seats,
    seats_with,
    waiting,
)

CONFIRM_SCENES = frozenset({"announce", "proposal_result", "ritual_result", "vote_result"})
# scenes whose waiting set would reveal roles: only the seat itself learns it is waited on
SECRET_SCENES = frozenset({"pick", "guard", "witches"})
# scenes at which who acts follows hidden roles (pick and guard: one step to everyone else), or
# each seat's choice stays secret until all have made it (votes, which may be changed)
SECRET_STEP_SCENES = frozenset({"pick", "guard", "witches", "proposal_vote", "vote"})

TIMER_OF = {"pick": "pick", "guard": "pick", "witches": "witches", "talk": "talk",
            "proposal": "proposal", "proposal_vote": "proposal_vote", "vote": "vote",
            "pause": "pause"}



def _scene_legal(state: State, seat: int) -> list[Action]:
    name = state["scene"]["name"]
    if name in CONFIRM_SCENES:
        return [{"type": "confirm"}]
    legal = _SCENE_LEGAL.get(name)
    return legal(state, seat) if legal is not None else []


def _end_talk(state: State, seat: int) -> list[Action]:
    return [{"type": "end_talk"}]


_SCENE_LEGAL: dict[str, Callable[[State, int], list[Action]]] = {
    "ready": setup.legal_ready, "talk": _end_talk,
    "pick": day.legal_pick, "guard": day.legal_guard, "witches": day.legal_witch,
    "proposal": night.legal_proposal, "proposal_vote": night.legal_proposal_vote,
    "ritual": night.legal_lay, "vote": night.legal_vote,
}


class FangGame(Game):
    """Fang die Hexe for 4–12 seats: hidden roles, simultaneous choices, timers."""

    def _setup(self, state: State) -> None:
        setup.setup_state(state)

    def waiting_for(self, state: State) -> list[int]:
        """Seats the scene needs, seats that may still change a pick/vote, optional powers."""
        return waiting(state)

    def needed(self, state: State) -> list[int]:
        """The seats the scene needs — none while that is secret (a pick, the guard, the
        witches' window): an idle seat there must not be marked absent for all to see."""
        scene = state["scene"]
        if state.get("outcome") is not None or scene["name"] in SECRET_SCENES:
            return []
        return list(scene["need"])

    def bots_asked(self, state: State) -> list[int]:
        """Seats the scene needs and optional powers; not a seat that only may change its
        pick or vote (a bot asked again re-sent the same one: a log line each time)."""
        if state.get("outcome") is not None:
            return []
        return sorted({*state["scene"]["need"], *power_seats(state)})

    def _legal(self, state: State, seat: int) -> list[Action]:
        scene = state["scene"]
        out: list[Action] = []
        if seat in scene["need"] or may_change(state, seat):
            out = _scene_legal(state, seat)
        if seat in power_seats(state):
            out = out + evening.legal_power(state, seat)
        return out

    def _legal_for(self, state: State, seat: int, action: Mapping[str, Any]) -> list[Action]:
        # a proposal is checked directly: listing every set of members is the costly part
        if action["type"] == "propose" and state["scene"]["name"] == "proposal" and (
                seat in state["scene"]["need"]):
            return [dict(action)] if night.proposal_allowed(state, action) else []
        return self._legal(state, seat)

    def _apply(self, state: State, seat: int, action: Action) -> list[Event]:
        before = len(state["log"])
        kind = action["type"]
        name = state["scene"]["name"]
        if kind == "see":
            evening.apply_see(state, seat, action["target"])
        elif kind == "steal":
            evening.apply_steal(state, seat, action["target"])
        elif kind == "ready":
            setup.apply_ready(state, seat, action)
        elif kind == "confirm":
            apply_confirm(state, seat)
        elif kind == "end_talk":
            evening.apply_end_talk(state, seat)
        elif name == "pick":
            day.apply_pick(state, seat, action)
        elif name == "guard":
            day.apply_guard(state, seat, action)
        elif name == "witches":
            day.apply_witch(state, seat, action)
        elif kind == "propose":
            night.apply_proposal(state, seat, action)
        elif kind == "vote_proposal":
            night.apply_proposal_vote(state, seat, action)
        elif kind == "lay":
            night.apply_lay(state, seat, action)
        else:
            night.apply_vote(state, seat, action)
        return state["log"][before:]

    def deadline(self, state: State) -> Deadline | None:
        """The running timer: witches' window and pause always, the rest with time limits."""
        if state.get("outcome") is not None:
            return None
        scene = state["scene"]
        key = TIMER_OF.get(scene["name"])
        if key is None or not (key in data.ALWAYS_TIMED or state["cfg"]["time_limits"]):
            return None
        seats = () if scene["name"] in SECRET_SCENES else tuple(scene["need"])
        # the guard step shares the pick's key: its timer runs on, unseen by the others
        return Deadline(key=f"d{state['day']}:{scene['serial']}:{key}",
                        seconds=state["cfg"]["timers"][key], seats=seats,
                        on_expiry=key)  # the catalog says what expiry does (context expiry)

    def _on_timeout(self, state: State) -> list[Event]:
        before = len(state["log"])
        name = state["scene"]["name"]
        need = list(state["scene"]["need"])
        if name == "pick":
            day.timeout_pick(state)
        elif name == "guard":
            day.default_guard(state, need[0])
        elif name == "witches":
            day.timeout_witches(state)
        elif name == "talk":
            evening.close_talk(state)
        elif name == "proposal":
            night.default_proposal(state, need[0])
        elif name == "proposal_vote":
            night.timeout_proposal_vote(state)
        elif name == "vote":
            night.timeout_vote(state)
        else:
            begin(state, "vote")
        return state["log"][before:]

    def _on_absent(self, state: State, seat: int) -> list[Event]:
        """The rulebook's meaning of an absent seat in the current scene, then it is let go."""
        before = len(state["log"])
        scene = state["scene"]
        serial = scene["serial"]
        if seat in scene["need"]:
            _absent_default(state, seat)
        if state.get("outcome") is None and state["scene"]["serial"] == serial:
            if scene["name"] in CHANGEABLE:
                finalize(state, seat)
            role = state["roles"][seat]
            if role == data.SEER:
                state["today"]["seen"] = True
            elif role == data.PICKPOCKET:
                state["today"]["stolen"] = True
        return state["log"][before:]

    def _public(self, state: State) -> dict[str, Any]:
        v = view.public(state)
        v["active"] = self._public_active(state, None)
        return v

    def _private(self, state: State, seat: int | None) -> dict[str, Any]:
        v = view.private(state, seat)
        # only a seat waited on may see the waiting set otherwise than everyone
        if seat is not None and seat in self.waiting_for(state):
            active = self._public_active(state, seat)
            if active != self._public_active(state, None):
                v["active"] = active
        return v

    def _on_host(self, state: State, action: Mapping[str, Any]) -> list[Event]:
        """``{"type": "time_limits", "on": bool}``: the host switches the timers on or off."""
        on = action.get("on")
        if action["type"] != "time_limits" or set(action) != {"type", "on"} or not isinstance(
                on, bool):
            raise IllegalAction("host_cannot", type=str(action["type"]))
        state["cfg"]["time_limits"] = on
        return [emit(state, "time_limits_on" if on else "time_limits_off", kind="time_limits",
                     on=on)]

    def describe_action(self, state: State, seat: int, action: Mapping[str, Any]
                        ) -> dict[str, Any]:
        """A label as data (``pick`` Wald, ``vote`` Anna, …)."""
        return view.action_label(dict(action), state["hands"][seat])

    def secret_step(self, state: State) -> str | None:
        """The secret step open now (see :meth:`hexnet.engine.Game.secret_step`): the day's
        picks and the guard (one step: the guard keeps the pick's serial, so nobody else can
        tell whether the protector guards), the witches' window, the evening while the seer's
        look or the pickpocket's theft may come (from the talk to the vote, whatever scenes pass
        meanwhile, and whether or not a seer or pickpocket is still a cat), and the votes."""
        if state.get("outcome") is not None:
            return None
        today = state.get("today") or {}
        if today.get("seer_open") or today.get("thief_open"):
            return f"d{state['day']}:evening"
        scene = state["scene"]
        if scene["name"] in SECRET_STEP_SCENES:
            return f"d{state['day']}:{scene['serial']}"
        return None

    def chat_members(self, state: State, channel: str) -> list[int]:
        """Who hears a private chat channel: ``witches`` is every witch not banished (the crow,
        who knows them but is not known, is left out); there are no other channels."""
        if channel != "witches":
            return []
        return [s for s in seats_with(state, data.WITCH) if state["form"][s] != BANISHED]

    def _public_active(self, state: State, seat: int | None) -> list[int]:
        """Who the game waits on, as ``seat`` may know it (no roles given away)."""
        everyone = self.waiting_for(state)
        mine = [seat] if seat in everyone else []
        if state.get("outcome") is not None or state["scene"]["name"] in SECRET_SCENES:
            return mine
        return sorted(set(state["scene"]["need"]) | set(mine))


def _absent_default(state: State, seat: int) -> None:
    name = state["scene"]["name"]
    if name == "ready":
        setup.apply_ready(state, seat, {"type": "ready"})
    elif name in CONFIRM_SCENES:
        apply_confirm(state, seat)
    elif name == "talk":
        evening.apply_end_talk(state, seat)
    elif name == "pick":
        day.default_pick(state, seat)
        if not state["scene"]["need"]:
            day.close_pick(state)
    elif name == "guard":
        day.default_guard(state, seat)
    elif name == "witches":
        day.default_witch(state, seat)
        if not state["scene"]["need"]:
            day.end_of_day(state)
    elif name == "proposal":
        night.default_proposal(state, seat)
    elif name == "proposal_vote":
        night.default_proposal_vote(state, seat)
        if not state["scene"]["need"]:
            night.close_proposal_vote(state)
    elif name == "ritual":
        night.apply_lay(state, seat, night.legal_lay(state, seat)[0])
    elif name == "vote":
        night.default_vote(state, seat)
        if not state["scene"]["need"]:
            night.close_vote(state)


GAME = FangGame(
    name="fang",
    title="Fang die Hexe",
    min_players=4,
    max_players=12,
    round_field="day",
    options_help={
        "pace": "relaxed | normal | quick: the timed windows' seconds",
        "time_limits": "true/false: run the timers for picks, talk, proposals and votes",
        "pick_seconds": "place pick (and guard) time limit, default 60",
        "witches_seconds": "the witches' window, always timed, default 15",
        "talk_seconds": "evening talk time limit, default 180",
        "proposal_seconds": "the chief's proposal time limit, default 60",
        "proposal_vote_seconds": "proposal vote time limit, default 30",
        "vote_seconds": "banishment vote time limit, default 60",
        "pause_seconds": "the 'who was it?!' pause before the vote, default 4",
        "max_changes": "how often a seat may send a pick or vote in one scene, default 3",
        "deal": "balanced | standard: the role table by player count (balanced: hexnet's balance "
                "study's changes, no fool; standard: the rulebook completion's table), "
                "default balanced",
        "roles": "a role list to deal instead of the table's (padded with Dorfkatzen)",
        "scenario": "a fixed starting position for tests and tutorials (see the rules text)",
    },
)
