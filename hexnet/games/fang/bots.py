"""Bot policies for Fang: ``random`` and a ``heuristic`` that plays its side from its view.

Heuristic: a seat keeps a pick or vote it already made (re-sends it); a cat goes where it
collects an ingredient tonight's ritual needs; the seer looks at cats she has not seen and
votes for a witch she found; the pickpocket steals; village cats reject proposals with a known
witch, lay a required ingredient when they have one and vote for a member of a failed ritual;
witches attack where most cats are, use their strongest spell, sabotage rituals they sit in
with Fluchkraut and vote against non-witches; the protector guards the busiest place and the
herbalist restores frogs; the fool spoils rituals to look guilty.
"""

from __future__ import annotations

import functools
import random
from typing import Any

from hexnet.bots import choose_random
from hexnet.games.fang import data

View = dict[str, Any]
Action = dict[str, Any]
SPELL_PREFERENCE = (data.DOPPELSCHLAG, data.FLUCH, data.VERDERBEN)


def known_witches(view: View) -> set[int]:
    """Witches this seat knows of: teammates, the crow's knowledge, the seer's findings."""
    out = {s for s, r in enumerate(view["roles"]) if r == data.WITCH}
    for _day, target, result in view.get("seen", []):
        if result == "witch":
            out.add(target)
    return out


def on_witch_side(view: View) -> bool:
    """Whether this seat plays for the witches."""
    return view["role"] in (data.WITCH, data.CROW)


def repeat_action(scene: str | None, mine: Any, voted: bool) -> Action | None:
    """The action that re-sends a seat's current pick or vote in ``scene``, from what it chose
    (``mine``) and, in the banishment vote, whether it has voted (an abstention chose None)."""
    if scene == "pick" and isinstance(mine, dict):
        if "place" in mine:
            return {"type": "pick", "place": mine["place"]}
        if "restore" in mine:
            return {"type": "restore", "frog": mine["restore"]}
        return None  # a guard is final once sent: the protector is not asked again
    if scene == "proposal_vote" and mine is not None:
        return {"type": "vote_proposal", "yes": mine}
    if scene == "vote" and voted:
        return {"type": "vote", "target": mine} if mine is not None else {"type": "abstain"}
    return None


def _repeat(view: View, legal: list[Action]) -> Action | None:
    """The action that re-sends this seat's current pick or vote, if any."""
    scene = view["scene"]
    voted = scene == "vote" and view["seat"] in view["submitted"]
    wanted = repeat_action(scene, view.get("my_choice"), voted)
    return wanted if wanted is not None and wanted in legal else None


def _failed_circle(view: View) -> list[int]:
    """The circle of today's ritual if it failed, else none — from the public record, whose last
    ritual may be an earlier day's (today's circle never met): that failure is not today's."""
    for entry in reversed(view["record"]):
        if entry["k"] == "ritual":
            failed = entry["day"] == view["day"] and not entry["success"]
            return list(entry["members"]) if failed else []
    return []


def _pick(view: View, legal: list[Action], rng: random.Random) -> Action:
    restores = [a for a in legal if a["type"] == "restore"]
    if restores and rng.random() < 0.7:
        return rng.choice(restores)
    guard = [a for a in legal if a["type"] == "guard"]
    if guard and rng.random() < 0.6:
        return guard[0]
    return _collect(view, [a for a in legal if a["type"] == "pick"], rng)


def _collect(view: View, picks: list[Action], rng: random.Random) -> Action:
    """A place whose ingredient tonight's ritual needs (the duck announced them this morning),
    one this seat holds fewer of than are needed if there is one; any place if none is."""
    required = view.get("required") or []
    held = [c["ing"] for c in view.get("hand") or []]
    wanted, short = [], []
    for a in picks:
        ing = data.ingredient_at(a["place"])
        if ing in required:
            wanted.append(a)
            if held.count(ing) < required.count(ing):
                short.append(a)
    return rng.choice(short or wanted or picks)


def _busiest(view: View, legal: list[Action], rng: random.Random) -> Action:
    counts = view.get("cat_counts") or {}
    top = max((counts.get(a["place"], 0) for a in legal), default=0)
    return rng.choice([a for a in legal if counts.get(a["place"], 0) == top])


def _spell(legal: list[Action]) -> Action:
    for spell in SPELL_PREFERENCE:
        if {"type": "spell", "spell": spell} in legal:
            return {"type": "spell", "spell": spell}
    return legal[0]


def _attack(view: View, legal: list[Action], rng: random.Random) -> Action:
    witches = known_witches(view)
    targets = [a for a in legal if a["type"] == "attack" and a["target"] not in witches]
    return rng.choice(targets) if targets else {"type": "no_attack"}


@functools.lru_cache(maxsize=8192)  # more than every circle of 12 seats (4,096 sets in all)
def _members_mask(members: str) -> int:
    """The seats of a proposal's ``members`` as bits (seat s is bit s), remembered: the same
    few hundred circles come up in every playout."""
    mask = 0
    for x in members.split(","):
        mask |= 1 << int(x)
    return mask


def _propose(view: View, legal: list[Action], rng: random.Random) -> Action:
    me, witches = 1 << view["seat"], 0
    for s in known_witches(view):
        witches |= 1 << s
    sets = [(a, _members_mask(a["members"])) for a in legal]
    if on_witch_side(view):
        good = [a for a, m in sets if m & me]
    else:
        good = [a for a, m in sets if m & me and not m & witches] or [
            a for a, m in sets if not m & witches]
    return rng.choice(good or legal)


def _vote_proposal(view: View) -> Action:
    members, witches = set(view["members"]), known_witches(view)
    if on_witch_side(view):
        yes = bool(members & witches)
    else:
        yes = not members & witches
    return {"type": "vote_proposal", "yes": yes}


def _lay(view: View, legal: list[Action]) -> Action:
    if on_witch_side(view):
        return {"type": "lay", "card": data.fluchkraut()}
    if view["role"] == data.FOOL_ROLE:  # the fool wants to look guilty
        wrong = [c for c in view["hand"] if c["ing"] not in view["required"]]
        return {"type": "lay", "card": wrong[0]["id"]} if wrong else legal[-1]
    for card in view["hand"]:
        if card["ing"] in view["required"]:
            return {"type": "lay", "card": card["id"]}
    return legal[0]


def _vote(view: View, legal: list[Action], rng: random.Random) -> Action:
    targets = {a["target"] for a in legal if a["type"] == "vote"}
    witches = known_witches(view) & targets
    if on_witch_side(view):
        others = sorted(targets - witches)
        return {"type": "vote", "target": rng.choice(others)} if others else {"type": "abstain"}
    if witches:
        return {"type": "vote", "target": min(witches)}
    suspects = sorted(set(_failed_circle(view)) & targets)
    if suspects:
        return {"type": "vote", "target": rng.choice(suspects)}
    return {"type": "abstain"}


def choose_heuristic(view: View, legal: list[Action], rng: random.Random) -> Action:
    """Play the seat's side sensibly, from its view only."""
    types = {a["type"] for a in legal}
    if "see" in types:
        seen = {target for _d, target, _r in view.get("seen", [])}
        fresh = [a for a in legal if a["type"] == "see" and a["target"] not in seen]
        return rng.choice(fresh or [a for a in legal if a["type"] == "see"])
    if "steal" in types:
        return rng.choice([a for a in legal if a["type"] == "steal"])
    again = _repeat(view, legal)
    if again is not None:
        return again
    for simple in ("ready", "confirm", "end_talk", "no_attack"):
        if types == {simple}:
            return legal[0]
    if "pick" in types:
        return _pick(view, legal, rng)
    if "witch_place" in types or (view["scene"] == "guard" and "guard" in types):
        return _busiest(view, legal, rng)
    if "spell" in types:
        return _spell(legal)
    if "attack" in types:
        return _attack(view, legal, rng)
    if "propose" in types:
        return _propose(view, legal, rng)
    if "vote_proposal" in types:
        return _vote_proposal(view)
    if "lay" in types:
        return _lay(view, legal)
    if "vote" in types or "abstain" in types:
        return _vote(view, legal, rng)
    return choose_random(view, legal, rng)


POLICIES = {"random": choose_random, "heuristic": choose_heuristic}
