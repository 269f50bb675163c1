"""What cards do to villagers: suspicion on the stake, modifiers, burning, and how it reads.

A card in play is a *trigger* record (plain dict) held by the reaction window until it closes::

    {"type": "card", "card": id, "kind": k, "value": signed points, "player": seat,
     "accuser": villager or None, "aimed": first accused, "target": villager hit now,
     "bonus": points added by reactions, "shares": [[villager, extra], ...],
     "cancelled": bool}
"""

from __future__ import annotations

from hexnet.engine import State
from hexnet.games.hexenhammer import data
from hexnet.games.hexenhammer.log import say


def name(state: State, vid: str) -> str:
    """``Karl (Anna)``: a villager with its owner's name."""
    return f"{data.short(vid)} ({state['players'][state['villagers'][vid]['owner']]})"


def living(state: State) -> list[str]:
    """The living villagers, in table order."""
    return [vid for vid, v in state["villagers"].items() if v["alive"]]


def current_witches(state: State) -> list[str]:
    """The living villagers sharing the highest suspicion (the inquisitor picks among several)."""
    top = -1
    out: list[str] = []
    for vid, v in state["villagers"].items():
        if not v["alive"]:
            continue
        if v["suspicion"] > top:
            top, out = v["suspicion"], [vid]
        elif v["suspicion"] == top:
            out.append(vid)
    return out


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


def describe_play(state: State, trigger: dict) -> str:
    """The sentence announcing a card as it is played."""
    label = data.card_label(trigger["kind"], trigger["value"])
    if data.CARDS[trigger["kind"]].get("signed"):
        label = f"{data.CARDS[trigger['kind']]['name']} {trigger['value']:+d}"
    player = state["players"][trigger["player"]]
    if trigger["accuser"] is not None:
        return f"{player} plays {label}: {data.short(trigger['accuser'])} accuses " \
               f"{name(state, trigger['target'])}."
    return f"{player} plays {label} on {name(state, trigger['target'])}."



def resolve_card(state: State, trigger: dict) -> None:
    """Carry out a brown or yellow card once its reaction window closed; it goes to the discard."""
    state["discard"].append(trigger["card"])
    label = data.CARDS[trigger["kind"]]["name"]
    if trigger["cancelled"]:
        say(state, f"{label} on {name(state, trigger['target'])} is retracted: no effect.",
            event="resolve")
        return
    gain = points(trigger)
    target = trigger["target"]
    before, after = set_suspicion(state, target, state["villagers"][target]["suspicion"] + gain)
    card = f"{label} {gain:+d}"
    if trigger["accuser"] is not None:
        head = f"{name(state, trigger['accuser'])} accuses {name(state, target)} with {card}"
    else:
        head = f"{state['players'][trigger['player']]}'s {card} hits {name(state, target)}"
    say(state, f"{head}: {data.short(target)} {before} → {after}.", event="resolve")
    for other, extra in trigger["shares"]:
        if not state["villagers"][other]["alive"]:
            continue
        b, a = set_suspicion(state, other, state["villagers"][other]["suspicion"] + gain + extra)
        say(state, f"Shared sorrow: {name(state, other)} gets {gain + extra:+d}: "
                   f"{data.short(other)} {b} → {a}.",
            event="resolve")


def burn(state: State, burner: int, vid: str, how: str = "burns at the stake") -> None:
    """``vid`` dies at ``burner``'s hands: another's villager is taken (its matches score for
    ``burner``); ``burner``'s own villager leaves an empty stake in front of ``burner``."""
    v = state["villagers"][vid]
    v["alive"] = False
    who = state["players"][burner]
    if v["owner"] != burner:
        state["taken"][burner].append(vid)
        m = data.VILLAGERS[vid]["matches"]
        say(state, f"{name(state, vid)} {how}; {who} takes the card ({m} matches).",
            event="burn")
    else:
        state["empty_stakes"][burner].append(vid)
        say(state, f"{name(state, vid)} {how}; {who} keeps the empty stake "
                   f"(1 VP for every other player).", event="burn")
