"""Every action a seat may take now, in a stable order (``pass`` first)."""

from __future__ import annotations

from hexnet.engine import Action, State
from hexnet.games.hexenhammer import data, reactions
from hexnet.games.hexenhammer.effects import free_accusers

PASS: Action = {"type": "pass"}


def legal_actions(state: State, seat: int) -> list[Action]:
    """The legal actions of ``seat`` (assumed to be waited on)."""
    choice = state["choice"]
    if choice is not None:
        return [{"type": "choose", "target": vid} for vid in choice["options"]]
    if state["window"] is not None:
        return reactions.options(state, seat)
    phase = state["phase"]
    hand = state["hands"][seat]
    if phase == 4:
        return [{"type": "pass"}] + [{"type": "discard", "card": cid} for cid in hand]
    out: list[Action] = [{"type": "pass"}]
    if phase == 1 and not state["accusers_used"]:
        out.append({"type": "call_inquisition"})
    living = [vid for vid, v in state["villagers"].items() if v["alive"]]
    prot = state["protected"]
    accusable = living
    if prot is not None and phase in (1, 2):
        accusable = [vid for vid in living if vid != prot["villager"]]
    accusers = None
    may_try = seat != state["inquisitor"]
    cards = state["cards"]
    for cid in hand:
        kind = cards[cid][0]
        if phase not in data.PHASES[kind] or kind in data.REACTIONS:
            continue
        if kind in data.BROWN:
            if accusers is None:
                accusers = free_accusers(state, seat)
            out.extend({"type": "play", "card": cid, "accuser": a, "target": t}
                       for a in accusers for t in accusable)
        elif kind in data.TRIALS:
            if not may_try:
                continue
            if data.CARDS[kind]["effect"] == "unmark":
                out.extend({"type": "play", "card": cid, "target": t} for t in living)
            else:
                out.append({"type": "play", "card": cid})
        elif data.CARDS[kind].get("signed"):
            out.extend({"type": "play", "card": cid, "target": t, "sign": s}
                       for t in living for s in (1, -1))
        else:
            out.extend({"type": "play", "card": cid, "target": t} for t in living)
    return out
