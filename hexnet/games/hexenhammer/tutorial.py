"""The Hexenhammer tutorial's hints (see :mod:`hexnet.tutorial`): what is happening in the
player's view and what they might do, worked out from the view alone (its villagers, the open
reaction window, the phase, the hand and the legal actions), ending with the score explained."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hexnet.tutorial import say

Action = dict[str, Any]


def _kinds(view: Mapping[str, Any], legal: list[Action]) -> set[str]:
    """The kinds of card some legal action plays."""
    hand = {c["id"]: c["kind"] for c in view.get("hand") or []}
    return {hand[a["card"]] for a in legal if a.get("type") == "play" and a.get("card") in hand}


def _top(view: Mapping[str, Any]) -> dict[str, Any] | None:
    """The living villager with the highest suspicion (the first of a tie)."""
    alive = [v for v in view["villagers"] if v["alive"]]
    return max(alive, key=lambda v: v["suspicion"]) if alive else None


def _owners(view: Mapping[str, Any]) -> dict[str, int]:
    return {v["id"]: v["owner"] for v in view["villagers"]}


def _end(view: Mapping[str, Any], outcome: Mapping[str, Any]) -> dict[str, Any]:
    me = view["seat"]
    part = (outcome.get("breakdown") or [{}])[me]
    alive = sum(1 for v in view["villagers"] if v["alive"])
    return say("scored", alive=alive, total=part.get("total", 0),
               pentagrams=part.get("pentagrams", 0), matches=part.get("matches", 0),
               trials=part.get("trials", 0), stakes=part.get("empty_stakes", 0),
               winners=list(outcome.get("winners") or []))


def _window(view: Mapping[str, Any], legal: list[Action]) -> dict[str, Any]:
    """A card or a call waits for answers."""
    trigger = view["window"]["trigger"]
    player = trigger["player"]
    if not legal:
        return say("window_wait", player=player)
    kinds = _kinds(view, legal)
    if trigger["type"] == "call":
        return say("call_answer" if "keyne_inquisition" in kinds else "call_pass",
                   player=player, answer="keyne_inquisition")
    if trigger["type"] == "trial":
        return say("trial_answer" if kinds else "trial_pass", player=player, kind=trigger["kind"])
    owners = _owners(view)
    target, accuser = trigger.get("target"), trigger.get("accuser")
    args = {"player": player, "kind": trigger["kind"], "value": trigger.get("value"),
            "target": target, "accuser": accuser, "owners": owners}
    if owners.get(target) == view["seat"] and (trigger.get("value") or 0) > 0:
        if "gegenanklage" in kinds and accuser is not None:
            return say("counter", answer="gegenanklage", **args)
        if "verwechslung" in kinds:
            return say("redirect", answer="verwechslung", **args)
        return say("hit_no_answer", **args)
    return say("window_other", **args)


def hint(view: Mapping[str, Any], legal: list[Action]) -> dict[str, Any] | None:
    """The hint for the player's ``view`` and ``legal`` actions."""
    if view.get("outcome"):
        return _end(view, view["outcome"])
    if view.get("window"):
        return _window(view, legal)
    me, phase = view["seat"], view["phase"]
    owners = _owners(view)
    top = _top(view)
    witch = top["id"] if top else None
    mine = [v["id"] for v in view["villagers"] if v["alive"] and v["owner"] == me]
    if view.get("choice") and legal:
        return say("choose_witch", villagers=list(view["choice"]["options"]), owners=owners)
    if phase == 1:
        if not legal:
            return say("wait_turn", player=view["turn"], mine=mine)
        if {"type": "call_inquisition"} in legal and witch is not None and (
                owners[witch] != me):
            return say("call_now", villager=witch, owners=owners)
        if witch in mine and "ableugnung" in _kinds(view, legal):
            return say("deny", villager=witch, owners=owners, answer="ableugnung")
        return say("your_turn")
    if phase == 2:
        if not legal:
            return say("panic_wait", villager=witch, owners=owners)
        if "spende" not in _kinds(view, legal):
            return say("panic_done", villager=witch, owners=owners)
        return say("panic_own" if witch in mine else "panic", villager=witch, owners=owners,
                   answer="spende")
    if phase == 3:
        if not legal:
            return say("trial_wait", player=view.get("turn"), villager=witch, owners=owners)
        if view.get("turn") != me:  # asked for a trial card out of turn
            return say("trial_asked", player=view.get("turn"))
        return say("trial_turn", villager=witch, owners=owners)
    if phase == 4:
        return say("draw" if legal else "draw_wait", player=view.get("turn"))
    return None
