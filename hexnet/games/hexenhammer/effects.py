"""What cards do to villagers: suspicion on the stake, modifiers, burning, and its events.

A card in play is a *trigger* record (plain dict) held by the reaction window until it closes::

    {"type": "card", "card": id, "kind": k, "value": signed points, "player": seat,
     "accuser": villager or None, "aimed": first accused, "target": villager hit now,
     "bonus": points added by reactions, "shares": [[villager, extra], ...],
     "cancelled": bool}
"""

from __future__ import annotations

from hexnet.engine import State, emit
from hexnet.games.hexenhammer import data


def owners(state: State, *vids: str | None) -> dict[str, int]:
    """The owner seat of each named villager: events carry it, so a reader sees "Karl (Anna)"
    without the state."""
    return {v: state["villagers"][v]["owner"] for v in vids if v is not None}


def living(state: State) -> list[str]:
    """The living villagers, in table order."""
    return [vid for vid, v in state["villagers"].items() if v["alive"]]


def current_witches(state: State) -> list[str]:
    """The living villagers sharing the highest suspicion (the inquisitor picks among several)."""
    return board(state)[3]


def board(state: State) -> tuple[dict[str, int], dict[str, int], dict[str, int], list[str]]:
    """The living villagers' suspicion, start and owner (in board order), and the current
    witches, in one pass (a search playout's view reads them all at most of its steps)."""
    susp: dict[str, int] = {}
    start: dict[str, int] = {}
    owner: dict[str, int] = {}
    top, witches = -1, []
    for vid, v in state["villagers"].items():
        if v["alive"]:
            s = susp[vid] = v["suspicion"]
            start[vid] = v["start"]
            owner[vid] = v["owner"]
            if s > top:
                top, witches = s, [vid]
            elif s == top:
                witches.append(vid)
    return susp, start, owner, witches


def free_accusers(state: State, seat: int) -> list[str]:
    """``seat``'s living villagers that may still accuse (Berta never; one brown card each)."""
    used = state["accusers_used"]
    return [vid for vid, v in state["villagers"].items()
            if v["owner"] == seat and v["alive"] and vid not in used
            and not data.VILLAGERS[vid].get("never_accuser")]


def default_accuser(state: State, seat: int) -> str | None:
    """The accuser used when a brown card names none: the free one with the highest suspicion."""
    best = None
    for vid in free_accusers(state, seat):
        if best is None or state["villagers"][vid]["suspicion"] > state["villagers"][best][
                "suspicion"]:
            best = vid
    return best


def set_suspicion(state: State, vid: str, value: int) -> tuple[int, int]:
    """Move ``vid`` to ``value``, kept between its stake's start and the top (excess is lost)."""
    v = state["villagers"][vid]
    before = v["suspicion"]
    v["suspicion"] = max(v["start"], min(data.TOP, value))
    return before, v["suspicion"]


def accused_bonus(vid: str, reaction: str) -> int:
    """What ``vid``'s ability adds to ``reaction`` played while it is the accused."""
    return data.VILLAGERS[vid].get("accused_card_bonus", {}).get(reaction, 0)


def points(trigger: dict) -> int:
    """The suspicion the card finally gives its target, with every modifier."""
    total = trigger["value"] + trigger["bonus"]
    accuser = trigger["accuser"]
    if accuser is not None:
        ability = data.VILLAGERS[accuser]
        total += ability.get("accuser_card_bonus", {}).get(trigger["kind"], 0)
        total += ability.get("accuser_bonus", {}).get(trigger["target"], 0)
    return total


def announce_play(state: State, trigger: dict) -> None:
    """The event announcing a brown or yellow card as it is played."""
    args = {"player": trigger["player"], "kind": trigger["kind"], "value": trigger["value"],
            "target": trigger["target"]}
    if trigger["accuser"] is not None:
        emit(state, "play_accuses", accuser=trigger["accuser"],
             owners=owners(state, trigger["accuser"], trigger["target"]), **args)
    else:
        emit(state, "play_on", owners=owners(state, trigger["target"]), **args)


def resolve_card(state: State, trigger: dict) -> None:
    """Carry out a brown or yellow card once its reaction window closed; it goes to the discard."""
    state["discard"].append(trigger["card"])
    target = trigger["target"]
    if trigger["cancelled"]:
        emit(state, "retracted", kind=trigger["kind"], target=target,
             owners=owners(state, target))
        return
    gain = points(trigger)
    before, after = set_suspicion(state, target, state["villagers"][target]["suspicion"] + gain)
    moved = {"kind": trigger["kind"], "gain": gain, "target": target, "before": before,
             "after": after}
    if trigger["accuser"] is not None:
        emit(state, "resolve_accuses", accuser=trigger["accuser"],
             owners=owners(state, trigger["accuser"], target), **moved)
    else:
        emit(state, "resolve_hits", player=trigger["player"], owners=owners(state, target),
             **moved)
    for other, extra in trigger["shares"]:
        if not state["villagers"][other]["alive"]:
            continue
        b, a = set_suspicion(state, other, state["villagers"][other]["suspicion"] + gain + extra)
        emit(state, "shared_sorrow", villager=other, gain=gain + extra, before=b, after=a,
             owners=owners(state, other))


def burn(state: State, burner: int, vid: str, drowned: bool = False) -> None:
    """``vid`` dies at ``burner``'s hands (burnt, or ``drowned`` by a trial): another's
    villager is taken (its matches score for ``burner``); ``burner``'s own villager leaves an
    empty stake in front of ``burner``."""
    v = state["villagers"][vid]
    v["alive"] = False
    if v["owner"] != burner:
        state["taken"][burner].append(vid)
        emit(state, "drowns_taken" if drowned else "burns_taken", villager=vid,
             player=burner, count=data.VILLAGERS[vid]["matches"], owners=owners(state, vid))
    else:
        state["empty_stakes"][burner].append(vid)
        emit(state, "drowns_own" if drowned else "burns_own", villager=vid, player=burner,
             owners=owners(state, vid))
