"""A tiny throwaway game implementing the engine contract, for the host's tests.

Each seat holds 3 secret cards ("c0".."c11" minus the draw pile); the rest is a secret draw
pile. On its turn the active seat plays a card (public) or passes; after each play every OTHER
seat must "nod" (simultaneous waiting), then the next seat plays. A turn has a 30 s deadline
(timeout: the active seat passes). The game ends after two rounds of turns; score = sum of the
numbers on the cards a seat played.
"""

from __future__ import annotations

from typing import Any

from hexnet import rng
from hexnet.engine import Deadline, Game, emit


class Toy(Game):
    def _setup(self, state: dict[str, Any]) -> None:
        n = len(state["players"])
        deck = [f"c{i}" for i in range(12 + 3 * n)]
        rng.shuffle(state, deck)
        state["hands"] = [deck[3 * i:3 * i + 3] for i in range(n)]
        state["pile"] = deck[3 * n:]
        state["played"] = [[] for _ in range(n)]
        state["turn"], state["turns"], state["nods"] = 0, 0, []
        emit(state, "The toy game begins.")
        for s in range(n):
            emit(state, f"Your hand: {', '.join(state['hands'][s])}", to=[s])

    def waiting_for(self, state: dict[str, Any]) -> list[int]:
        if state.get("outcome"):
            return []
        if state["nods"]:
            return sorted(state["nods"])
        return [state["turn"]]

    def deadline(self, state: dict[str, Any]) -> Deadline | None:
        if state.get("outcome") or state["nods"]:
            return None
        seconds = state["options"].get("turn_seconds", 30)
        return Deadline(f"turn{state['turns']}", seconds, (state["turn"],), "the seat passes")

    def _legal(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        if state["nods"]:
            return [{"type": "nod"}]
        return [{"type": "play", "card": c} for c in state["hands"][seat]] + [{"type": "pass"}]

    def _apply(self, state: dict[str, Any], seat: int, action: dict[str, Any]) -> list:
        if action["type"] == "nod":
            state["nods"].remove(seat)
            if not state["nods"]:
                self._next(state)
            return []
        if action["type"] == "play":
            state["hands"][seat].remove(action["card"])
            state["played"][seat].append(action["card"])
            ev = emit(state, f"{state['players'][seat]} plays {action['card']}.")
            state["nods"] = [s for s in range(len(state["players"])) if s != seat]
            return [ev]
        ev = emit(state, f"{state['players'][seat]} passes.")
        self._next(state)
        return [ev]

    def _next(self, state: dict[str, Any]) -> None:
        n = len(state["players"])
        state["turns"] += 1
        state["turn"] = (state["turn"] + 1) % n
        if state["turns"] >= 2 * n:
            scores = [sum(int(c[1:]) for c in p) for p in state["played"]]
            best = max(scores)
            state["outcome"] = {"scores": scores,
                                "winners": [s for s in range(n) if scores[s] == best]}

    def _on_timeout(self, state: dict[str, Any]) -> list:
        return self._apply(state, state["turn"], {"type": "pass"})

    def _view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        return {"hand": list(state["hands"][seat]) if seat is not None else [],
                "played": [list(p) for p in state["played"]],
                "hand_sizes": [len(h) for h in state["hands"]],
                "pile_size": len(state["pile"]), "turn": state["turn"]}


GAME = Toy(name="toy", title="Toy", min_players=2, max_players=6,
           options_help={"turn_seconds": "seconds per turn (default 30)"})
GAME.options_spec = {"turn_seconds": {"type": "number", "min": 0.1, "max": 600}}


def _first(view, legal, r):
    return legal[0]


def _random(view, legal, r):
    return r.choice(legal)


POLICIES = {"random": _random, "heuristic": _first}


def register(monkeypatch: Any) -> None:
    """Make ``get_game("toy")`` find this module for one test (undone after it by pytest's
    ``monkeypatch``): never in the registry other tests see."""
    from hexnet import games
    monkeypatch.setitem(games._MODULES, "toy", "tests.host.toygame")
