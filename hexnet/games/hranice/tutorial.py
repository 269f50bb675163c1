"""The Hranice tutorial's hints (see :mod:`hexnet.tutorial`): whose turn it is, what an open
reaction prompt is about and what the player might do, worked out from the view alone (the
councils, influence, tokens, the hand, the open window, the legal actions), ending with the
winning influence explained."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hexnet.games.hranice import cards
from hexnet.tutorial import say

Action = dict[str, Any]


def _window(view: Mapping[str, Any], legal: list[Action]) -> dict[str, Any]:
    w = view["window"]
    me = view["seat"]
    reactions = {a.get("card") for a in legal if a.get("type") == "react"}
    event, actor, target = w.get("event"), w.get("actor"), w.get("target")
    if event == "accused" and w.get("owner") == me:
        if "alibi" in reactions:
            return say("alibi", actor=actor, target=target, answer="alibi")
        return say("accused", actor=actor, target=target)
    if event == "roll":
        return say("roll", actor=actor, total=w.get("total"), needed=w.get("needed"),
                   again="uplatek", nudge="svedek")
    if event == "to_pyre":
        return say("to_pyre", target=target, answer="primluva")
    if event == "action":
        return say("protest", actor=actor, card=w.get("card"), answer="protest")
    return say("react")


def _end(view: Mapping[str, Any], outcome: Mapping[str, Any]) -> dict[str, Any]:
    me = view["seat"]
    council = list(view["councils"][me])
    burned = len(view["burned"][me])
    influence = view["influence"][me]
    if me in (outcome.get("winners") or []):
        return say("won", influence=influence, council=council, burned=burned)
    winners = list(outcome.get("winners") or [])
    best = max((view["influence"][s] for s in winners), default=0)
    return say("lost", winners=winners, best=best, influence=influence, council=council,
               burned=burned)


def hint(view: Mapping[str, Any], legal: list[Action]) -> dict[str, Any] | None:
    """The hint for the player's ``view`` and ``legal`` actions."""
    if view.get("outcome"):
        return _end(view, view["outcome"])
    me, target = view["seat"], view["target"]
    influence = view["influence"][me]
    if view.get("window") and legal:
        return _window(view, legal)
    if view.get("turn") != me or not legal:
        if view["tokens"][me]:
            return say("wait_token", player=view.get("turn"), target=target)
        return say("wait", player=view.get("turn"), target=target, influence=influence)
    kinds = {a.get("type") for a in legal}
    left = view.get("actions_left")
    if "discard" in kinds:
        return say("discard", card="vyslech")
    others = [s for s in range(len(view["influence"])) if s != me]
    accusable = {a["target"] for a in legal if a.get("type") == "accuse"}

    def open_to_accusation(seat: int) -> bool:
        return bool(accusable & set(view["councils"][seat]))

    # a rival who wins as their turn begins, and whom an accusation can stop
    racing = [s for s in others if view["tokens"][s] and open_to_accusation(s)]
    if racing:  # before anything of your own: they come first
        rival = max(racing, key=lambda s: view["influence"][s])
        return say("stop_token", player=rival, influence=view["influence"][rival],
                   target=target)
    citizens = [a["card"] for a in legal if a.get("type") == "citizen"]
    reaching = [c for c in citizens if influence + cards.influence(c) >= target]
    if influence >= target:
        return say("hold", left=left, influence=influence)
    if reaching:
        card = min(reaching, key=cards.influence)
        return say("reach", left=left, card=card, now=influence, add=cards.influence(card),
                   after=influence + cards.influence(card), target=target)
    leader = max(others, key=lambda s: view["influence"][s])
    if open_to_accusation(leader) and (view["tokens"][leader]
                                       or view["influence"][leader] >= target - 1):
        return say("accuse_leader", player=leader, influence=view["influence"][leader],
                   target=target)
    if citizens:
        return say("play_citizen", left=left)
    return say("your_turn", left=left)
