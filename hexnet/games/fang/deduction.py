"""Fang's ``normal`` bot: the heuristic's play, with the belief deciding who is trusted.

The village (and the fool, who plays along until the vote, judging circles as an innocent cat
in his seat would): the chief proposes the circle most likely clean (no witch, crow or fool:
each of them spoils a ritual); a "yes" goes to a circle nearly as clean as the best one that
could be proposed (any circle once the next "no" fills the curse bar); the seer looks where
her belief is least sure; the banishment vote goes to the likeliest witch when that is worth
more than the risk of banishing the fool (who then wins) or an innocent — on the knights' day
always to the likeliest witch.

The witches and the crow model the village: they read the *public* belief (what anyone can
deduce from the record) and play so that it does not turn on them — a witch chief proposes the
circle an innocent cat in her seat would trust, with herself in it; a "yes" or "no" as that
innocent cat would vote (what the record makes likely, her own seat taken to be the village's:
a witch voting with her own knowledge would vote like a witch, and the behaviour model would
see it), but on the ritual that would win the seals "yes" only with a witch in the circle;
a ritual is spoiled when it costs least (the last seal, a circle of three or more where the blame
is spread, a witch the village does not suspect), by one witch only when two sit in it; they all
vote to banish the cat the village suspects most (never a cat their own knowledge makes a
likely fool: his banishment ends their game too) — a fellow witch only when the village is
sure of her anyway.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from hexnet.games.fang import belief, bots, data
from hexnet.games.fang.belief import Judgement

View = dict[str, Any]
Action = dict[str, Any]

NEAR_BEST = 0.75  # a circle at least this share as clean as the best one gets a "yes"
SURE_ENOUGH = 0.6  # ... as does any circle at least this likely clean
LAST_CHANCE = 0.3  # the proposal before the curse bar fills: "yes" if at least this clean
FOOL_COST = 3.0  # banishing the fool loses the game for everyone else
LIKELY = 0.5  # the village votes only for a cat it finds more likely a witch than not
INNOCENT_COST = 0.3  # banishing an innocent cat costs the village a vote and a collector
CROW_GAIN = 0.3  # banishing the crow removes a saboteur (but wins nothing)
BUS = 0.6  # a witch votes with the village against a fellow witch it suspects this much
FOOL_LIKELY = 0.1  # the witches never vote for a cat at least this likely the fool
CIRCLE_POOL = 3  # the chief's circle is chosen among the size + this many most trusted cats


def cats_of(view: View) -> list[int]:
    """Seats in cat form."""
    return [s for s, f in enumerate(view["forms"]) if f == "cat"]


def known_team(view: View) -> set[int]:
    """The witches this seat knows (a witch's team, the crow's knowledge), itself included if
    it is one."""
    return {s for s, r in enumerate(view["roles"]) if r == data.WITCH}


def best_circle(j: Judgement, cats: list[int], size: int, me: int | None) -> list[int]:
    """The circle of ``size`` cats (with ``me`` in it, if given) most likely clean: chosen among
    the most trusted few, by the exact probability that none of them spoils."""
    others = sorted((s for s in cats if s != me), key=lambda s: (j.spoiler(s), s))
    need = size - (1 if me is not None else 0)
    pool = others[:need + CIRCLE_POOL]
    best: list[int] | None = None
    best_p = -1.0
    for combo in combinations(pool, need):
        members = sorted([*combo] + ([me] if me is not None else []))
        p = j.clean(members)
        if p > best_p + 1e-12:
            best, best_p = members, p
    return best or sorted(cats)[:size]


def propose(view: View, legal: list[Action]) -> Action:
    """The chief's circle (see the module docstring)."""
    me, size = view["seat"], view["proposal_size"]
    cats = cats_of(view)
    if bots.on_witch_side(view) or view["role"] == data.FOOL_ROLE:
        members = best_circle(belief.judge_innocent(view), cats, size, me)
    else:
        mine = belief.judge(view)
        members = best_circle(mine, cats, size, me if me in cats else None)
    action = {"type": "propose", "members": ",".join(str(s) for s in sorted(members))}
    return action if action in legal else legal[0]


def vote_proposal(view: View) -> Action:
    """A "yes" or "no" on the circle (see the module docstring)."""
    members = list(view["members"])
    cats = cats_of(view)
    last = view["curse"] + 1 >= view["curse_bar"]
    if bots.on_witch_side(view):
        team = known_team(view) | ({view["seat"]} if view["role"] == data.CROW else set())
        if view["seals"] + 1 >= view["seals_needed"]:  # this ritual would win the seals
            return {"type": "vote_proposal", "yes": bool(set(members) & team)}
        j = belief.judge_innocent(view)  # else as an innocent cat in this seat would vote
    elif view["role"] == data.FOOL_ROLE:
        j = belief.judge_innocent(view)  # the fool plays along: as an innocent cat would
    else:
        j = belief.judge(view)
    clean = j.clean(members)
    best = j.clean(best_circle(j, cats, len(members), None))
    yes = clean >= min(SURE_ENOUGH, NEAR_BEST * best) or (last and clean >= LAST_CHANCE)
    return {"type": "vote_proposal", "yes": bool(yes)}


def lay(view: View, legal: list[Action]) -> Action:
    """The ritual card: the witch side spoils when it costs least; the others as the
    heuristic (a right card; the fool a wrong one)."""
    if not bots.on_witch_side(view):
        return bots._lay(view, legal)
    me = view["seat"]
    members = list(view["members"])
    team = known_team(view)
    partners = sorted(s for s in members if s in team and s != me)
    right = next(({"type": "lay", "card": c["id"]} for c in view["hand"]
                  if c["ing"] in view["required"]), None)
    spoil = {"type": "lay", "card": data.fluchkraut()}
    if partners and (view["role"] == data.CROW or partners[0] < me):
        return right or spoil  # one spoiler is enough: the first witch in seat order
    last_seal = view["seals"] + 1 >= view["seals_needed"]
    if last_seal or len(members) >= 3 or right is None:
        return spoil
    suspected = belief.judge_public(view).witch[me]
    return spoil if suspected < 1.0 / max(2, len(cats_of(view))) else right


def vote(view: View, legal: list[Action], rng: random.Random) -> Action:
    """The banishment vote (see the module docstring)."""
    targets = [a["target"] for a in legal if a["type"] == "vote"]
    if not targets:
        return {"type": "abstain"}
    final = view["day"] >= view["knights_day"]
    public = belief.judge_public(view)
    if bots.on_witch_side(view):
        target = witch_vote(view, targets, public)
    else:
        target = village_vote(belief.judge(view), public, targets, final)
    return {"type": "vote", "target": target} if target is not None else {"type": "abstain"}


def village_vote(j: Judgement, public: Judgement, targets: list[int],
                 final: bool) -> int | None:
    """The cat a village seat with judgement ``j`` votes to banish (None: it abstains): the
    likeliest witch when that is worth more than the risk of banishing the fool or an
    innocent; on the knights' day always the likeliest witch."""
    def worth(t: int) -> float:
        if final:
            return j.witch[t] - j.fool[t]
        innocent = 1.0 - j.witch[t] - j.crow[t] - j.fool[t]
        return (j.witch[t] + CROW_GAIN * j.crow[t] - FOOL_COST * j.fool[t]
                - INNOCENT_COST * innocent)

    # near-equal choices go to the cat the public record suspects most: the village agrees
    target = max(targets, key=lambda t: (round(worth(t), 1), public.witch[t], -t))
    if final or (worth(target) > 0 and j.witch[target] >= LIKELY):
        return target
    return None


def witch_vote(view: View, targets: list[int], public: Judgement) -> int | None:
    """A witch's (or the crow's) vote: the cat the village suspects most, to make its vote the
    village's — a fellow witch only when the village is sure of her anyway (she falls either
    way; voting for her hides the rest) and never a cat the seat's own knowledge makes a likely
    fool (his banishment ends the game for the witches too)."""
    team = known_team(view)
    mine = belief.judge(view)
    ok = [t for t in targets if (t not in team or public.witch[t] >= BUS)
          and mine.fool[t] < FOOL_LIKELY]
    ranked = sorted(ok, key=lambda t: (-round(public.witch[t] - FOOL_COST * mine.fool[t], 1),
                                       t))
    return ranked[0] if ranked else None


def look(view: View, legal: list[Action]) -> Action:
    """The seer looks at the cat her belief is least sure of (among those not yet seen)."""
    j = belief.judge(view)
    seen = {t for _d, t, _r in view.get("seen") or []}
    looks = [a for a in legal if a["type"] == "see"]
    fresh = [a for a in looks if a["target"] not in seen] or looks
    return max(fresh, key=lambda a: (min(j.witch[a["target"]], 1 - j.witch[a["target"]]),
                                     j.witch[a["target"]], -a["target"]))


def choose_normal(view: View, legal: list[Action], rng: random.Random) -> Action:
    """The heuristic's play with the belief's judgement (see the module docstring)."""
    types = {a["type"] for a in legal}
    if "see" in types:
        return look(view, legal)
    if "steal" in types or bots._repeat(view, legal) is not None or len(legal) == 1:
        return bots.choose_heuristic(view, legal, rng)
    if "propose" in types:
        return propose(view, legal)
    if "vote_proposal" in types:
        return vote_proposal(view)
    if "lay" in types:
        return lay(view, legal)
    if ("vote" in types or "abstain" in types) and view["role"] != data.FOOL_ROLE:
        return vote(view, legal, rng)
    return bots.choose_heuristic(view, legal, rng)
