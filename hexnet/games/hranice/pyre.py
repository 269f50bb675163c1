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
    emit(state, f"{cards.name(card)} goes to the pyre ({len(state['pyre'])} on it).",
         kind="pyre", card=card)
    if len(state["pyre"]) >= cards.rule("pyre_ignites_at"):
        ignite(state, by)


def ignite(state: State, by: int) -> None:
    """Burn the pyre (never empty: callers check); ``by`` takes the last citizen placed."""
    last = state["pyre"].pop()
    rest = state["pyre"]
    state["pyre"] = []
    state["burned"][by].append(last)
    state["discard"].extend(rest)
    burned = f"; {', '.join(cards.name(c) for c in rest)} burn" if rest else ""
    emit(state, f"The pyre ignites! {board.who(state, by)} takes {cards.name(last)} "
         f"for {cards.rule('ignite_points')} permanent influence{burned}.",
         kind="ignite", seat=by, card=last, discarded=",".join(rest))
    extra = board.count_ability(state, by, "ignite_draw")
    if extra:
        emit(state, f"{board.who(state, by)}'s Kat: draw {extra}.")
        board.draw(state, by, extra)
