"""The Hranice engine: the contract's hooks, dispatching to the rule modules."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hexnet.engine import Action, Deadline, Event, Game, State
from hexnet.games.hranice import actions, cards, reactions, resolve, setup, turn, view


class Hranice(Game):
    """Hranice (the pyre): 2–6 inquisitors, dice, a pyre and reactions."""

    def __init__(self) -> None:
        super().__init__(
            name="hranice", title="Hranice", min_players=cards.rule("min_players"),
            max_players=cards.rule("max_players"), round_field="turns",
            options_help={
                "pace": "relaxed | normal | quick: the timed windows' seconds",
                "variant": "standard | quick | long | tutorial (target 5)",
                "variant_step": "1 or 2: how far quick/long move the target (default 1)",
                "manual_flip": "true: flip your dominance token yourself at the end of your turn",
                "reaction_seconds": "seconds to answer a reaction prompt, expiry = pass "
                                    "(default 6; 0 = untimed)",
                "turn_seconds": "seconds for each decision of a turn, expiry = the absent "
                                "player's move (default 0 = untimed; tournaments time them)",
                "ask_holders_only": "true: ask only seats holding a fitting reaction (faster, "
                                    "but being asked reveals it)",
                "turn_cap": "turns before the game ends on influence (default 60 rounds)",
                "scenario": "a stacked position (see hexnet rules hranice)",
            })

    def _setup(self, state: State) -> None:
        setup.setup(state)
        turn.start_turn(state, state["first_player"])

    def waiting_for(self, state: State) -> list[int]:
        if state["outcome"] is not None:
            return []
        window = state["window"]
        if window is not None and window["pending"]:  # (reactions.asked, inline: every step)
            return window["pending"][:1]
        step = state["step"]
        if step is not None and step["stage"] in ("choose", "flip"):
            return [step["seat"]]
        return [state["turn"]]

    def _legal(self, state: State, seat: int) -> list[Action]:
        step = state["step"]
        window = state["window"]
        if window is not None and window["pending"]:  # (reactions.asked, inline)
            return reactions.legal(state, seat)
        if step is not None and step["stage"] == "choose":
            held = {cards.kind_of(c) for c in state["hands"][step["player"]]}
            return [{"type": "discard", "card": k} for k in cards.kinds() if k in held]
        if step is not None and step["stage"] == "flip":
            return [{"type": "flip"}, {"type": "end"}]
        return actions.legal(state, seat)

    def _legal_for(self, state: State, seat: int, action: Mapping[str, Any]) -> list[Action]:
        # a seat asked in a reaction window may always pass: no need to list its reactions
        if action["type"] == "pass" and reactions.asked(state):
            return [reactions.PASS]
        return self._legal(state, seat)

    def _apply(self, state: State, seat: int, action: Action) -> list[Event]:
        mark = len(state["log"])
        step = state["step"]
        window = state["window"]
        if window is not None and window["pending"]:  # (reactions.asked, inline)
            reactions.answer(state, seat, action)
        elif step is not None and step["stage"] == "choose":
            resolve.choose_discard(state, action["card"])
        elif step is not None and step["stage"] == "flip":
            turn.flip_or_end(state, action["type"] == "flip")
        else:
            actions.begin(state, seat, action)
        resolve.run(state)
        return state["log"][mark:]

    def deadline(self, state: State) -> Deadline | None:
        """A reaction prompt is timed (``reaction_seconds``, expiry = pass); with
        ``turn_seconds`` so is every other decision (expiry = the absent player's move), each
        afresh (the key names the state it waits in)."""
        if state["outcome"] is not None:
            return None
        asked = reactions.asked(state)
        if asked:
            seconds = setup.option(state, "reaction_seconds")
            if not seconds:
                return None
            return Deadline(f"react-{state['window_serial']}-{asked[0]}", float(seconds),
                            (asked[0],), "react")
        return self.turn_deadline(state, setup.option(state, "turn_seconds"))

    def secret_step(self, state: State) -> str | None:
        """The secret step open now (see :meth:`hexnet.engine.Game.secret_step`): a reaction
        window, at which every seat asked answers whether or not it holds a fitting reaction."""
        if state["outcome"] is not None or not reactions.asked(state):
            return None
        return f"r{state['window_serial']}"

    def _on_timeout(self, state: State) -> list[Event]:
        asked = reactions.asked(state)
        if asked:
            return self._apply(state, asked[0], dict(reactions.PASS))
        return self._turn_timeout(state)

    def _public(self, state: State) -> dict[str, Any]:
        return view.public(state)

    def _private(self, state: State, seat: int | None) -> dict[str, Any]:
        return view.private(state, seat)

    def describe_action(self, state: State, seat: int, action: Mapping[str, Any]
                        ) -> dict[str, Any]:
        return view.describe(state, seat, action)


GAME = Hranice()
