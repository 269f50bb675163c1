"""Every action a seat may take now, in a stable order (``pass`` first)."""

from __future__ import annotations

from hexnet.engine import Action, State
from hexnet.games.hexenhammer import data, reactions
from hexnet.games.hexenhammer.effects import free_accusers

PASS: Action = {"type": "pass"}


def legal_actions(state: State, seat: int, only: str | None = None) -> list[Action]:
    """The legal actions of ``seat`` (assumed to be waited on); with ``only``, just the passes,
    calls and plays of that one card (what an action naming it can match)."""
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
    for cid in hand if only is None else [only]:
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


def why_illegal(state: State, seat: int, action: Action) -> str:
    """A sentence saying why ``action`` is refused (it is not among the legal actions)."""
    kind = action.get("type")
    if state["choice"] is not None:
        return "First the inquisitor chooses one of the tied villagers."
    hand = state["hands"][seat]
    cid = action.get("card")
    if kind in ("play", "discard") and cid not in hand:
        return "That card is not in your hand."
    if state["window"] is not None:
        return "Answer the card on the table with a fitting reaction, or pass."
    phase = state["phase"]
    if kind == "discard":
        return "Cards are discarded only in phase 4, on your turn."
    if kind == "call_inquisition":
        if phase != 1:
            return "The Inquisition is called only in phase 1."
        return "You cannot call the Inquisition after playing a card this turn."
    if kind == "choose":
        return "There is no tie to break."
    if kind != "play":
        return f"You cannot {kind} now."
    card = data.CARDS[state["cards"][cid][0]]
    if phase not in data.PHASES[card["id"]]:
        return f"{card['name']} is not played in phase {phase}."
    if card.get("reaction"):
        return f"{card['name']} is a reaction: play it in answer to a card."
    if card["colour"] == "green" and seat == state["inquisitor"]:
        return "The inquisitor may not call for a trial."
    if phase == 3 and seat != state["turn"]:
        return "In phase 3 you play on your own turn."
    accuser = action.get("accuser")
    villagers = state["villagers"]
    if card["colour"] == "brown":
        if accuser not in villagers or villagers[accuser]["owner"] != seat or not villagers[
                accuser]["alive"]:
            return "The accuser must be a living villager of yours."
        if data.VILLAGERS[accuser].get("never_accuser"):
            return f"{data.short(accuser)} can never be the accuser."
        if accuser in state["accusers_used"]:
            return f"{data.short(accuser)} has already accused " + (
                "this turn." if phase == 1 else "in this phase.")
    target = action.get("target")
    if target is not None and (target not in villagers or not villagers[target]["alive"]):
        return "The target must be a living villager."
    prot = state["protected"]
    if prot is not None and target == prot["villager"] and card["colour"] == "brown":
        return f"{data.short(target)} lies under the scales card: no brown card may accuse her."
    return "That play is not allowed: check its accuser, target and sign."
