"""Win conditions in the rulebook's check order, and the outcome they write."""

from __future__ import annotations

from hexnet.engine import State
from hexnet.games.fang import data
from hexnet.games.fang.common import BANISHED, announce, cats, frogs, is_witch


def finish(state: State, result: str, reason: str) -> None:
    """End the game: ``result`` is village, witches or fool, ``reason`` the key (context
    ``end``) of why; every role is revealed."""
    if result == data.FOOL:
        winners = [s for s in range(state["n"])
                   if state["roles"][s] == data.FOOL_ROLE and state["form"][s] == BANISHED]
    else:
        winners = [s for s in range(state["n"]) if data.side_of(state["roles"][s]) == result]
    state["outcome"] = {
        "scores": [1 if s in winners else 0 for s in range(state["n"])],
        "winners": winners,
        "result": result,
        "reason": reason,
        "witch_points": len(frogs(state)),
        "roles": list(state["roles"]),
        "day": state["day"],
        "turns": state["day"],
        "seals": state["seals"],
    }
    announce(state, "end", result=result, reason=reason, winners=list(winners),
             roles=list(state["roles"]))


def witches_all_frogs(state: State) -> bool:
    """Every witch not banished is a frog (also true when every witch is banished)."""
    return all(state["form"][s] != "cat" for s in range(state["n"]) if is_witch(state, s))


def witch_majority(state: State) -> bool:
    """Witches in cat form ≥ 1 and non-witch cats in cat form ≤ witches in cat form."""
    witch_cats = sum(1 for s in cats(state) if is_witch(state, s))
    return witch_cats > 0 and len(cats(state)) - witch_cats <= witch_cats


def check_end_of_day(state: State) -> bool:
    """After attack and restoration: (1) all remaining witches frogs, (2) witch majority."""
    if witches_all_frogs(state):
        finish(state, data.VILLAGE, "witches_frogs")
    elif witch_majority(state):
        finish(state, data.WITCHES, "witches_outnumber")
    return state["outcome"] is not None


def check_after_ritual(state: State) -> bool:
    """Seals complete: the village wins at once (even on the knights' day)."""
    if state["seals"] >= state["cfg"]["seals"]:
        finish(state, data.VILLAGE, "seals_complete")
    return state["outcome"] is not None


def check_after_vote(state: State, banished: int | None) -> bool:
    """The vote's checks in order: fool, knights' verdict, witches gone, witch majority."""
    if banished is not None and state["roles"][banished] == data.FOOL_ROLE:
        finish(state, data.FOOL, "fool_banished")
    elif state["day"] >= state["cfg"]["knights_day"]:
        if banished is not None and is_witch(state, banished):
            finish(state, data.VILLAGE, "knights_witch")
        else:
            finish(state, data.WITCHES, "knights_no_witch")
    elif witches_all_frogs(state):
        finish(state, data.VILLAGE, "no_witch_cat")
    elif witch_majority(state):
        finish(state, data.WITCHES, "witches_outnumber")
    return state["outcome"] is not None
