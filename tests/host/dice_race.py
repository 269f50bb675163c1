"""A tiny dice race for the journal tests: the shared machinery without a real game's rules.
Its own name (``dice_race``), never registered: tests hand the engine over directly.

Seats take turns; on your turn ``roll`` (a die from the state's generator, added to your total)
or ``stop`` (end your turn). The first to reach ``target`` (option, default 12) wins.
"""

from __future__ import annotations

from typing import Any

from hexnet import rng
from hexnet.engine import Action, Event, Game, State, emit


class DiceRace(Game):
    """Race to a target with dice."""

    def __init__(self) -> None:
        super().__init__(name="dice_race", title="Dice race", min_players=2, max_players=6)

    def _setup(self, state: State) -> None:
        state["totals"] = [0] * len(state["players"])
        state["turn"] = 0
        state["target"] = int(state["options"].get("target", 12))

    def waiting_for(self, state: State) -> list[int]:
        return [] if state.get("outcome") else [state["turn"]]

    def _legal(self, state: State, seat: int) -> list[Action]:
        return [{"type": "roll"}, {"type": "stop"}]

    def _apply(self, state: State, seat: int, action: Action) -> list[Event]:
        n = len(state["players"])
        if action["type"] == "stop":
            state["turn"] = (seat + 1) % n
            return [emit(state, f"{state['players'][seat]} stops.")]
        die = rng.roll(state)
        state["totals"][seat] += die
        events = [emit(state, f"{state['players'][seat]} rolls {die}.", roll=die)]
        if state["totals"][seat] >= state["target"]:
            state["outcome"] = {"scores": list(state["totals"]), "winners": [seat]}
            events.append(emit(state, f"{state['players'][seat]} wins."))
        return events

    def _view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {"totals": list(state["totals"]), "turn": state["turn"]}
