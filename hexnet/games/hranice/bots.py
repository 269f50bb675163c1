"""Bot policies for Hranice. They see only the view (and the public card table).

The heuristic plays its citizens, accuses the leader's strongest citizen it can likely hit
(above all when that ignites the pyre), cleanses valuable citizens, ignites the pyre for the
permanent points, and keeps its reactions to save its own citizens (Alibi, Přímluva, a nudge or a
bribe against a roll that would hurt it, Protest against cards aimed at it).
"""

from __future__ import annotations

import random
from typing import Any

from hexnet.games.hranice import cards

Action = dict[str, Any]
# what a card in hand is worth keeping, for Výslech's pick (higher = discard it first)
KEEP = {"alibi": 6, "protest": 5, "primluva": 5, "udani": 5, "zapaleni": 5, "muceni": 4,
        "milost": 4, "uplatek": 4, "svedek": 3, "vyslech": 2, "zabaveni": 2}


def _kind(card: str) -> str:
    return cards.kind_of(card)


def _p_at_least(need: int) -> float:
    """P(d6 ≥ need)."""
    p = _AT_LEAST.get(need)
    return p if p is not None else min(1.0, max(0.0, (7 - need) / 6))


_AT_LEAST = {need: min(1.0, max(0.0, (7 - need) / 6)) for need in range(-12, 20)}


def _bonus(view: dict[str, Any], key: str) -> int:
    return sum(map(cards.bonuses(key).__getitem__, view["councils"][view["seat"]]))


def _threats(view: dict[str, Any]) -> list[float]:
    """How much hurting each seat is worth: more for the leader (by the view's seat's measure:
    the most influence of the others) and for an active token (or the target reached)."""
    me, influence, tokens, target = view["seat"], view["influence"], view["tokens"], view["target"]
    top = max(influence[:me] + influence[me + 1:], default=0)
    return [1.0 + (0.5 if i >= top else 0.0) + (2.0 if tokens[s] or i >= target else 0.0)
            for s, i in enumerate(influence)]


def _owners(view: dict[str, Any]) -> dict[str, int]:
    """Each council citizen's seat."""
    return {c: s for s, council in enumerate(view["councils"]) for c in council}


class _Reading:
    """One view of a turn as the heuristic scores its actions: each citizen's owner, each
    seat's threat, the accusation bonus, worked out once per choice (a choice scores every
    legal action, most of them accusations, and search's playouts make one at most steps)."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.view = view
        self.owners = _owners(view)
        self.threats = _threats(view)
        self.accuse_bonus = _bonus(view, "accuse_bonus")
        # what a successful accusation adds now: the pyre's points if it ignites
        self.ignites = len(view["pyre"]) + 1 >= cards.rule("pyre_ignites_at")
        self.fire = cards.rule("ignite_points") if self.ignites else 0


def _accuse_value(read: _Reading, target: str, bonus: int) -> float:
    view = read.view
    owner = read.owners[target]
    p = _p_at_least(view["defence"][target] - bonus)
    if owner == view["seat"]:
        return p * (read.fire - cards.influence(target)) if read.ignites else -5.0
    return p * (cards.influence(target) * read.threats[owner] + read.fire)


def _score(read: _Reading, action: Action) -> float:
    kind = action["type"]
    view = read.view
    if kind == "draw":
        return 1.6 if len(view["hand"]) < 4 else 0.9
    if kind == "citizen":
        row = cards.info(action["card"])
        extra = 0.8 if row.get("enter_draw") or "player" in action else 0.0
        return 2.0 + row["influence"] + extra
    if kind == "accuse":
        return _accuse_value(read, action["target"], read.accuse_bonus)
    if kind == "cleanse":
        need = cards.influence(action["target"]) + 1 - _bonus(view, "cleanse_bonus")
        return _p_at_least(need) * cards.influence(action["target"])
    if kind == "action":
        row = cards.info(action["card"])
        effect = row["effect"]
        if effect == "accuse":
            bonus = read.accuse_bonus + row.get("roll_bonus", 0)
            if row.get("automatic"):
                bonus = 6
            value = _accuse_value(read, action["target"], bonus)
            return value / row["cost"] - 0.5
        if effect == "cleanse":
            return cards.influence(action["target"]) - 0.5
        if effect == "ignite":
            kat = _bonus(view, "ignite_draw")
            return cards.rule("ignite_points") + 0.5 * kat - 0.3
        victim = action["player"]
        return 0.7 + 0.2 * view["hand_sizes"][victim] * read.threats[victim] / 3
    return 0.0


def _react(view: dict[str, Any], legal: list[Action]) -> Action:
    me = view["seat"]
    w = view["window"]
    by_card = {a["card"] + str(a.get("sign", "")): a for a in legal if a["type"] == "react"}
    event = w["event"]
    if event == "accused" and w["owner"] == me and w["actor"] != me and "alibi" in by_card:
        return by_card["alibi"]
    if event == "to_pyre" and w["owner"] == me and w["actor"] != me and "primluva" in by_card:
        return by_card["primluva"]
    if event == "action" and w["actor"] != me and "protest" in by_card:
        owner = _owners(view).get(w["target"]) if w.get("target") else None
        aimed = w.get("player") == me or owner == me
        danger = view["influence"][w["actor"]] + 3 >= view["target"]
        if aimed or (w["card"] == "zapaleni" and danger):
            return by_card["protest"]
    if event == "roll":
        wants = None
        if w["actor"] == me and w.get("owner") != me:
            wants = True
        elif w.get("owner") == me and w["actor"] != me:
            wants = False
        if wants is None:
            return {"type": "pass"}
        need = w["needed"] + (1 if w["strict"] else 0)
        hits = w["total"] >= need
        if hits == wants:
            return {"type": "pass"}
        nudge = "svedek1" if wants else "svedek-1"
        if nudge in by_card and (w["total"] + (1 if wants else -1) >= need) == wants:
            return by_card[nudge]
        if "uplatek" in by_card:
            p = _p_at_least(need - (w["total"] - w["die"]))
            if (p if wants else 1 - p) >= 0.34:
                return by_card["uplatek"]
    return {"type": "pass"}


def choose_heuristic(view: dict[str, Any], legal: list[Action],
                     rng: random.Random) -> Action:
    """A sensible move for the seat whose view this is (see the module docstring)."""
    kinds_ = {a["type"] for a in legal}
    if "flip" in kinds_:
        return {"type": "flip"}
    if "discard" in kinds_:
        return max(legal, key=lambda a: (KEEP.get(a["card"], cards.influence(a["card"]))))
    if view.get("window") is not None and "pass" in kinds_:
        return _react(view, legal)
    read = _Reading(view)
    scored = [(_score(read, a) + rng.random() * 0.05, i) for i, a in enumerate(legal)]
    return legal[max(scored)[1]]
