"""Who might be a witch, as one seat can judge it from its view: suspicion and role deals.

Suspicion is a log-odds score per seat, built from the public record the seat's log shows —
failed and successful rituals (a witch in the circle can always spoil it with Fluchkraut), "no"
votes against a proposal (blocking the village's circle), votes for cats whose role the
banishment then showed — and from the seer's own findings, which are certain.

:func:`deal_roles` deals the roles the seat does not know, consistent with what it does know
(its own role, the witches if it is a witch or the crow, banished roles, the seer's findings, the
game still running), with witches drawn in proportion to ``exp(suspicion)``.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from hexnet.games.fang import data

View = dict[str, Any]

FAILED_RITUAL = 1.5  # each other member of a ritual that failed
GOOD_RITUAL = -2.0  # each other member of a ritual that succeeded
BLOCKED_PROPOSAL = 0.8  # a "no" vote against a proposal
VOTED_WITCH = -0.7  # voted for a cat the banishment showed to be a witch
VOTED_INNOCENT = 0.4  # voted for a cat the banishment showed not to be one
TURNED = -1.0  # attacked by the witches
DEAL_TRIES = 60


def suspicion(view: View) -> list[float]:
    """Log-odds that each seat is a witch, from this seat's log (its own seat: 0)."""
    score = _record(view, view["seat"])
    score[view["seat"]] = 0.0
    return score


def public_suspicion(view: View) -> list[float]:
    """The same from the public record alone, as every seat reading it judges everyone (what
    the witches can agree on without a word)."""
    return _record(view, None)


def _record(view: View, me: int | None) -> list[float]:
    n = len(view["players"])
    score = [0.0] * n
    members: list[int] = []
    votes: list[list[int | None]] = []
    for event in view["log"]:
        kind = event.get("kind")
        if kind == "proposal":
            members = list(event.get("members") or [])
        elif kind == "proposal_result":
            others = [s for s in event.get("no") or [] if s != me]
            for s in others:
                score[s] += BLOCKED_PROPOSAL
        elif kind == "ritual" and members:
            delta = FAILED_RITUAL if not event.get("success") else GOOD_RITUAL
            for s in members:
                if s != me:
                    score[s] += delta
        elif kind == "vote_result":
            votes = [list(v) for v in event.get("votes") or []]
        elif kind == "banished" and event.get("seat") is not None:
            witch = event.get("role") == data.WITCH
            for voter, target in votes:
                if target == event["seat"] and voter != me:
                    score[voter] += VOTED_WITCH if witch else VOTED_INNOCENT
        elif kind == "evening":
            for s in event.get("frogs") or []:
                score[s] += TURNED
    return score


def seer_findings(view: View) -> dict[int, bool]:
    """What the seer (this seat, if it is her) found: seat → is a witch."""
    return {target: result == "witch" for _day, target, result in view.get("seen") or []}


def role_pool(view: View) -> list[str]:
    """The roles dealt at this table (its role table's deal for its size)."""
    return data.deal_for(len(view["players"]), view["deal"])


def deal_roles(view: View, rng: random.Random,
               accept: Callable[[list[str]], bool] | None = None) -> list[str]:
    """Every seat's role: the known ones as the view shows them, the rest dealt at random
    (witches by suspicion) so that the game could still be running and ``accept(roles)`` holds
    (what else the seat's view demands); after many tries, the last deal that is running."""
    n = len(view["players"])
    known: list[str | None] = list(view["roles"])
    hidden = [s for s in range(n) if known[s] is None]
    left = Counter(role_pool(view))
    for role in known:
        if role is not None and left[role] > 0:
            left[role] -= 1
    pool = list(left.elements())
    # the deal may be a host's own list: keep the count of hidden seats right
    pool = (pool + [data.CAT] * len(hidden))[:len(hidden)]
    witches_left = pool.count(data.WITCH)
    rest = [r for r in pool if r != data.WITCH]
    findings = seer_findings(view)
    sees_witches = view["role"] in (data.WITCH, data.CROW)
    weights = suspicion(view)
    best: list[str] | None = None
    for _ in range(DEAL_TRIES):
        roles = list(known)
        free = list(hidden)
        chosen: list[int] = []
        if not sees_witches:
            sure = [s for s in free if findings.get(s) is True]
            chosen = sure[:witches_left]
            candidates = [s for s in free if s not in chosen and findings.get(s) is not True
                          and findings.get(s) is not False]
            while len(chosen) < witches_left and candidates:
                pick = _weighted(candidates, [math.exp(min(weights[s], 30.0))
                                              for s in candidates], rng)
                chosen.append(pick)
                candidates.remove(pick)
        for s in chosen:
            roles[s] = data.WITCH
        free = [s for s in free if s not in chosen]
        others = list(rest) + [data.CAT] * (witches_left - len(chosen))
        others = others[:len(free)]
        rng.shuffle(others)
        for s, role in zip(free, others, strict=True):
            roles[s] = role
        filled = [r if r is not None else data.CAT for r in roles]
        if _running(view, filled):
            if accept is None or accept(filled):
                return filled
            best = filled
        elif best is None:
            best = filled
    return best if best is not None else [r or data.CAT for r in known]


def _weighted(items: list[int], weights: list[float], rng: random.Random) -> int:
    total = sum(weights)
    x = rng.random() * total
    for item, w in zip(items, weights, strict=True):
        x -= w
        if x < 0:
            return item
    return items[-1]


def _running(view: View, roles: list[str]) -> bool:
    """Whether a game with these roles would still be running (the win checks passed)."""
    if view["outcome"] is not None or view["day"] == 0:
        return True
    forms = view["forms"]
    witch_cats = sum(1 for s, r in enumerate(roles) if r == data.WITCH and forms[s] == "cat")
    other_cats = sum(1 for s, r in enumerate(roles) if r != data.WITCH and forms[s] == "cat")
    return witch_cats > 0 and other_cats > witch_cats
