"""Turns and the end of the game: two actions, the hand limit, the dominance token, the win.

The token turns active automatically at the end of its owner's turn when the owner has the
target influence (option ``manual_flip``: the owner must ``flip`` it or ``end`` the turn without
it), and back at once whenever the owner's influence drops below the target. At the start of
a turn an active token (hence enough influence) wins. A turn cap ends an endless game.
"""

from __future__ import annotations

from hexnet import turns
from hexnet.engine import State, emit
from hexnet.games.hranice import board, cards
from hexnet.games.hranice.setup import option


def start_turn(state: State, seat: int) -> None:
    """Begin ``seat``'s turn — or end the game: a win at its start, or the turn cap."""
    state["step"] = None
    if state["tokens"][seat] and board.influence(state, seat) >= state["target"]:
        emit(state, "wins", kind="win", seat=seat, influence=board.influence(state, seat))
        _finish(state, [seat], "win")
        return
    if state["turns"] >= option(state, "turn_cap"):
        scores = board.influences(state)
        best = max(scores)
        winners = [s for s, sc in enumerate(scores) if sc == best]
        emit(state, "turn_cap", kind="turn_cap", count=state["turns"], best=best)
        _finish(state, winners, "turn_cap")
        return
    state["turn"] = seat
    state["turns"] += 1
    state["actions_left"] = cards.rule("actions_per_turn")
    emit(state, "turn", kind="turn", seat=seat, turn=state["turns"])


def end_action(state: State) -> None:
    """After each action: the hand limit, tokens back, and the turn's end after the last one."""
    board.cut_hands(state)
    board.flip_back(state)
    if state["actions_left"] <= 0:
        end_turn(state)


def end_turn(state: State) -> None:
    """Turn the token (or ask for the manual flip), then pass the turn clockwise."""
    seat = state["turn"]
    if board.may_flip(state, seat):
        if option(state, "manual_flip"):
            state["step"] = {"kind": "end", "seat": seat, "stage": "flip"}
            return
        board.flip(state, seat)
    next_turn(state)


def flip_or_end(state: State, flip: bool) -> None:
    """The manual-flip answer: flip the token (or not), then the next turn."""
    seat = state["turn"]
    if flip:
        board.flip(state, seat)
    else:
        emit(state, "token_left", kind="token", seat=seat, active=False)
    next_turn(state)


def next_turn(state: State) -> None:
    """The next seat clockwise starts its turn."""
    start_turn(state, turns.next_seat(state["turn"], len(state["players"])))


def _finish(state: State, winners: list[int], result: str) -> None:
    state["step"] = None
    state["outcome"] = {
        "scores": board.influences(state),
        "winners": winners,
        "result": result,
        "turns": state["turns"],
        "first_player": state["first_player"],
        "target": state["target"],
        "permanent": [cards.rule("ignite_points") * len(b) for b in state["burned"]],
    }
