"""The Fang die Hexe tutorial's hints (see :mod:`hexnet.tutorial`): what the scene is and what
the player might do, worked out from the view alone (the scene, the role and its notes, the
forms, the members, the legal actions), ending with how the game was decided. A witch gets the
witches' side of each scene: her window (where to go, a spell, whom to turn), the circle to get
into and spoil, the vote that turns suspicion away."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hexnet.games.fang import data
from hexnet.tutorial import say

Action = dict[str, Any]
CONFIRM_HINT = frozenset({"proposal_result", "ritual_result", "vote_result"})


def _witches(view: Mapping[str, Any]) -> list[int]:
    """The witches this seat knows of: its own findings as the seer, its fellow witches."""
    found = {target for _day, target, result in view.get("seen") or [] if result == "witch"}
    found |= {s for s, role in enumerate(view.get("roles") or []) if role == data.WITCH
              and s != view.get("seat")}
    return sorted(s for s in found if (view.get("forms") or [])[s] == "cat")


def _end(view: Mapping[str, Any], outcome: Mapping[str, Any]) -> dict[str, Any]:
    won = view.get("seat") in (outcome.get("winners") or [])
    return say("over_won" if won else "over_lost", reason=outcome.get("reason"),
               side=outcome.get("result"), frogs=outcome.get("witch_points", 0))


def _witch(view: Mapping[str, Any]) -> bool:
    return view.get("role") == data.WITCH


def _window(view: Mapping[str, Any], legal: list[Action]) -> dict[str, Any]:
    """The witch's window: her place (where the most cats went), a spell, whom to turn."""
    kinds = {a.get("type") for a in legal}
    counts = view.get("cat_counts") or {}
    if "witch_place" in kinds:
        places = [a["place"] for a in legal if a.get("type") == "witch_place"]
        place = max(places, key=lambda p: counts.get(p, 0))
        return say("witch_place", place=place, cats=counts.get(place, 0))
    if "spell" in kinds:
        return say("witch_spell")
    target = next(a["target"] for a in legal if a.get("type") == "attack")
    return say("witch_attack", target=target, place=(view.get("witch") or {}).get("place"))


def _frogs(view: Mapping[str, Any]) -> list[int]:
    return [s for s, form in enumerate(view.get("forms") or []) if form == "frog"]


def _evening(view: Mapping[str, Any], legal: list[Action]) -> dict[str, Any]:
    kinds = {a.get("type") for a in legal}
    if _witch(view) and legal:
        return say("talk_witch", frogs=_frogs(view))
    today = [(target, result) for day, target, result in view.get("seen") or []
             if day == view.get("day")]
    if "see" in kinds:
        return say("talk_seer")
    if today and legal:
        target, result = today[-1]
        return say("talk_seen" if result == "witch" else "talk_seen_not", target=target)
    if "steal" in kinds:
        return say("talk_thief")
    return say("talk" if legal else "talk_wait")


def _proposal(view: Mapping[str, Any], legal: list[Action], witches: list[int]
              ) -> dict[str, Any]:
    """The chief's proposal and the vote on it (a witch the seat knows of named)."""
    if view.get("scene") == "proposal":
        if "propose" not in {a.get("type") for a in legal}:
            return say("proposal_wait", chief=view.get("chief"))
        size = view.get("proposal_size")
        if _witch(view):
            return say("propose_as_witch", size=size, curse="fluchkraut")
        if witches:
            return say("propose_witch", size=size, witch=witches[0], curse="fluchkraut")
        return say("propose", size=size, curse="fluchkraut")
    if not legal:
        return say("vote_wait")
    members = list(view.get("members") or [])
    if _witch(view) and view.get("seat") in members:
        return say("vote_proposal_in", members=members)
    inside = [w for w in witches if w in members]
    if inside:
        return say("vote_proposal_witch", members=members, witch=inside[0])
    return say("vote_proposal", members=members)


def _witch_vote(view: Mapping[str, Any], legal: list[Action]) -> dict[str, Any]:
    """The witch's vote: turn the village's suspicion on the circle she spoiled (its other
    member), or on any cat."""
    targets = [a["target"] for a in legal if a.get("type") == "vote"]
    circle = [s for s in view.get("members") or [] if s in targets]
    return say("vote_as_witch", target=(circle or targets)[0])


def hint(view: Mapping[str, Any], legal: list[Action]) -> dict[str, Any] | None:
    """The hint for the player's ``view`` and ``legal`` actions."""
    if view.get("outcome"):
        return _end(view, view["outcome"])
    scene = view.get("scene")
    kinds = {a.get("type") for a in legal}
    witches = _witches(view)
    if scene == "ready":
        return say("ready") if legal else None
    if scene in ("pick", "guard", "witches"):
        if "pick" in kinds or "guard" in kinds:
            return say("pick", day=view.get("day"), required=list(view.get("required") or []))
        if _witch(view):
            return _window(view, legal) if legal else say("day_wait_witch")
        return say("day_wait")
    if scene == "announce":
        frogs = [s for s, form in enumerate(view.get("forms") or []) if form == "frog"]
        if not legal:
            return say("confirm_wait")
        return say("announce", frogs=frogs) if frogs else say("announce_safe")
    if scene == "talk":
        return _evening(view, legal)
    if scene in ("proposal", "proposal_vote"):
        return _proposal(view, legal, witches)
    if scene == "ritual":
        if "lay" in kinds and _witch(view):
            return say("lay_witch", required=list(view.get("required") or []),
                       curse="fluchkraut")
        if "lay" in kinds:
            return say("lay", required=list(view.get("required") or []), curse="fluchkraut")
        return say("ritual_wait")
    if scene in CONFIRM_HINT:
        return say("confirm") if legal else say("confirm_wait")
    if scene == "pause":
        return say("pause")
    if scene == "vote":
        if not legal:
            return say("vote_wait")
        knights = view.get("day") == view.get("knights_day")
        if _witch(view):
            return _witch_vote(view, legal)
        if witches:
            return say("vote_knights_witch" if knights else "vote_witch", witch=witches[0])
        return say("vote_knights" if knights else "vote")
    return None
