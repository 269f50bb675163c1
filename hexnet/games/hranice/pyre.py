"""The pyre: accused citizens land on it; it ignites on the third, or by Zapálení.

Whoever caused the ignition takes the last citizen placed as 3 permanent influence; the rest is
discarded; an igniter with Kat in council then draws (2 per Kat).
"""

from __future__ import annotations

from hexnet.engine import State, emit
from hexnet.games.hranice import board, cards


def place(state: State, card: str, by: int) -> None:
    """Put an accused council citizen on the pyre; ignite if it is now full (``by`` caused it)."""
    seat = board.owner_of(state, card)
    if seat is not None:
        state["councils"][seat].remove(card)
    state["pyre"].append(card)
    emit(state, "to_pyre", kind="pyre", card=card, count=len(state["pyre"]))
    if len(state["pyre"]) >= cards.rule("pyre_ignites_at"):
        ignite(state, by)


def ignite(state: State, by: int) -> None:
    """Burn the pyre (never empty: callers check); ``by`` takes the last citizen placed."""
    last = state["pyre"].pop()
    rest = state["pyre"]
    state["pyre"] = []
    state["burned"][by].append(last)
    state["discard"].extend(rest)
    burning = {"discarded": ",".join(rest)} if rest else {}  # no empty id list
    emit(state, "ignites_burning" if rest else "ignites", kind="ignite", seat=by, card=last,
         points=cards.rule("ignite_points"), **burning)
    extra = board.count_ability(state, by, "ignite_draw")
    if extra:
        emit(state, "executioner_draws", seat=by, count=extra)
        board.draw(state, by, extra)
