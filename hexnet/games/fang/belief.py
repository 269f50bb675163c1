"""What one seat can deduce about who is what: a belief over every role assignment.

A seat knows its own role (a witch and the crow also know the witches), the roles the
banishments showed, its seer's readings, its own ritual cards, and the public record of the
game (``view["record"]``): who sat in each ritual and whether it failed, every proposal with its
"yes" and "no" votes, every banishment vote, the frogs of every evening. The belief is a weight
for every assignment of the hidden *classes* — which seats are witches, which the crow, which the
fool (the village roles are alike to the record) — consistent with what the seat knows and with
the game still running at every check so far, times the likelihood of the record under it:

* a ritual fails unless every member lays a right card: a village member spoils it by chance
  (no right card in hand, a spoiled one), a witch or the crow by choice — except the seat's own
  card, which it knows (a wrong one explains the failure: the ritual then says nothing);
* a proposal vote: each voter's "yes" depends on its class, on whether the circle holds a
  witch or the crow and on whether the voter sits in it (the chief's own vote says nothing);
* a banishment vote: abstained, or for a witch or for a non-witch, by the voter's class (the
  seat's own votes say nothing about the others);
* an evening: each cat turned into a frog or not, by class (witches do not attack witches);

with the per-class rates of :mod:`hexnet.games.fang.behaviour`, fitted from selfplay. The
assignments are enumerated exactly up to ``EXACT_LIMIT`` (12 seats, three witches, crow and fool
are 9,240 for a cat, 15,840 for the public view), else ``EXACT_LIMIT`` random ones are weighed
(a host's own role list). Beliefs are cached per seat and extended entry by entry as the record
grows, so a bot pays only for what is new.

:func:`deal_roles` deals every seat a role from the belief (the search bot's determinizations).
"""

from __future__ import annotations

import bisect
import functools
import hashlib
import math
import random
from collections import OrderedDict
from collections.abc import Callable
from itertools import combinations
from typing import Any

import numpy as np

from hexnet.games.fang import behaviour, data
from hexnet.games.fang.behaviour import CROW, FOOL, VILLAGE, WITCH, class_of

View = dict[str, Any]

EXACT_LIMIT = 16_000
CACHE = 96  # beliefs kept (per process): a table's seats and the public one, several tables
DEAL_TRIES = 60
DIGITS = 12  # a judgement's odds are rounded to this many decimals
OWN_SPOIL = 0.05  # the seat's own right card may still have been spoiled (it cannot tell)


# --- the space of assignments -------------------------------------------------------------

@functools.lru_cache(maxsize=64)
def assignments(fixed: tuple[int, ...], counts: tuple[int, int, int]) -> np.ndarray:
    """Every way to give the hidden classes (``counts`` witches, crows, fools; the rest
    village) to the seats whose ``fixed`` class is -1 — at most ``EXACT_LIMIT`` of them, else
    that many drawn at random (seeded by the arguments). Rows are seats' classes."""
    free = [s for s, c in enumerate(fixed) if c < 0]
    w, c, f = (min(k, len(free)) for k in counts)
    c = min(c, len(free) - w)
    f = min(f, len(free) - w - c)
    size = math.comb(len(free), w) * math.comb(len(free) - w, c) * math.comb(
        len(free) - w - c, f)
    base = np.array([max(x, 0) for x in fixed], dtype=np.int8)
    if size <= EXACT_LIMIT:
        return _every(fixed, base, free, (w, c, f))
    digest = hashlib.sha256(repr((fixed, counts)).encode()).digest()
    gen = np.random.default_rng(int.from_bytes(digest[:8], "big"))
    pool = np.array([WITCH] * w + [CROW] * c + [FOOL] * f
                    + [VILLAGE] * (len(free) - w - c - f), dtype=np.int8)
    out = np.tile(base, (EXACT_LIMIT, 1))
    for i in range(EXACT_LIMIT):
        out[i, free] = gen.permutation(pool)
    return out


def _combos(m: int, k: int) -> np.ndarray:
    """Every ``k`` of ``range(m)``, one a row, in ``itertools.combinations`` order."""
    rows = list(combinations(range(m), k))
    return np.array(rows, dtype=np.intp).reshape(len(rows), k)


def _complements(m: int, chosen: np.ndarray) -> np.ndarray:
    """Per row of ``chosen`` (positions in ``range(m)``), the positions it leaves, ascending."""
    keep = np.ones((len(chosen), m), dtype=bool)
    keep[np.arange(len(chosen))[:, None], chosen] = False
    return np.nonzero(keep)[1].reshape(len(chosen), m - chosen.shape[1])


def _every(fixed: tuple[int, ...], base: np.ndarray, free: list[int],
           counts: tuple[int, int, int]) -> np.ndarray:
    """Every assignment, in the order of nested loops: the witches' seats, then the crow's
    among the rest, then the fool's among the rest of those (built as arrays, not row by
    row: 12 seats are 15,840 rows)."""
    w, c, f = counts
    m = len(free)
    seat = np.array(free, dtype=np.intp)
    wpos = _combos(m, w)  # K1 × w
    wrest = _complements(m, wpos)  # K1 × (m − w)
    cpos = _combos(m - w, c)  # K2 × c, positions among the rest
    crest = _complements(m - w, cpos)  # K2 × (m − w − c)
    fpos = _combos(m - w - c, f)  # K3 × f
    k1, k2, k3 = len(wpos), len(cpos), len(fpos)
    total = k1 * k2 * k3
    witches = np.broadcast_to(seat[wpos][:, None, None, :], (k1, k2, k3, w))
    crows = np.broadcast_to(seat[wrest[:, cpos]][:, :, None, :], (k1, k2, k3, c))
    fools = seat[wrest[:, crest][:, :, fpos]]  # K1 × K2 × K3 × f
    out = np.tile(base, (total, 1))
    rows = np.arange(total)[:, None]
    for cls, chosen in ((WITCH, witches), (CROW, crows), (FOOL, fools)):
        if chosen.shape[-1]:
            out[rows, chosen.reshape(total, chosen.shape[-1])] = cls
    return out


def exact(fixed: tuple[int, ...], counts: tuple[int, int, int]) -> bool:
    """Whether :func:`assignments` enumerates every assignment (else it samples)."""
    free = sum(1 for c in fixed if c < 0)
    w, c, f = counts
    return math.comb(free, w) * math.comb(max(free - w, 0), c) * math.comb(
        max(free - w - c, 0), f) <= EXACT_LIMIT


# --- what the seat knows ---------------------------------------------------------------------

def role_pool(view: View) -> list[str]:
    """The roles dealt at this table (its role table's deal for its size)."""
    return data.deal_for(len(view["players"]), view["deal"])


def seer_findings(view: View) -> dict[int, bool]:
    """What the seer (this seat, if it is her) found: seat → is a witch."""
    return {target: result == "witch" for _day, target, result in view.get("seen") or []}


def knowledge(view: View, public: bool = False) -> tuple[tuple[int, ...], tuple[int, int, int]]:
    """The classes the seat knows (-1 where hidden) and how many witches, crows and fools hide
    among the rest. ``public``: what every seat knows (banished roles only)."""
    n = len(view["players"])
    me = None if public else view.get("seat")
    fixed = [-1] * n
    for s, role in enumerate(view["roles"]):
        if role is None or (public and view["outcome"] is None
                            and view["forms"][s] != "banished"):
            continue  # publicly known: the banished roles (and every role at the end)
        fixed[s] = class_of(role)
    if me is not None and view.get("role") is not None:
        fixed[me] = class_of(view["role"])
    pool = [class_of(r) for r in role_pool(view)]
    counts = []
    for k in (WITCH, CROW, FOOL):
        counts.append(max(0, pool.count(k) - fixed.count(k)))
    return tuple(fixed), (counts[0], counts[1], counts[2])


# --- the belief ---------------------------------------------------------------------------

class Belief:
    """The weights of every assignment (rows of :attr:`classes`) given a seat's knowledge and
    the record so far. :attr:`ok` marks the assignments the record allows at all."""

    def __init__(self, fixed: tuple[int, ...], counts: tuple[int, int, int], me: int | None,
                 lays: list[list[Any]]) -> None:
        self.fixed, self.counts, self.me = fixed, counts, me
        self.classes = assignments(fixed, counts)
        self.exact = exact(fixed, counts)
        k, n = self.classes.shape
        self.logw = np.zeros(k)
        self.ok = np.ones(k, dtype=bool)
        self.forms = ["cat"] * n
        self.seen: list[dict[str, Any]] = []  # the record entries absorbed, in order
        self.lays = lays
        self._witch = self.classes == WITCH
        self._bad = self._witch | (self.classes == CROW)
        # each seat's witch, crow and fool indicator as numbers: a judgement's per-seat odds
        # are one product with the posterior
        self.indicators = np.stack([self._witch, self.classes == CROW,
                                    self.classes == FOOL]).astype(np.float64)
        # each assignment's spoilers (witches, crow, fool) as bits of seats: a circle is clean
        # in the assignments whose bits miss it
        self.spoilers = (self.classes != VILLAGE).astype(np.int64) @ (
            np.int64(1) << np.arange(n, dtype=np.int64))
        self._post: np.ndarray | None = None

    # -- reading the record -------------------------------------------------------------
    def absorb(self, entry: dict[str, Any]) -> None:
        """Weigh every assignment by the likelihood of one record entry."""
        self._post = None
        self.seen.append(entry)
        kind = entry["k"]
        if kind == "proposal":
            self._proposal(entry)
        elif kind == "ritual":
            self._ritual(entry)
        elif kind == "vote":
            self._vote(entry)
        elif kind == "evening":
            self._evening(entry)

    def _add(self, table: list[float], seats: list[int], hit: list[bool]) -> None:
        for seat, h in zip(seats, hit, strict=True):
            p = np.asarray(table)[self.classes[:, seat]]
            self.logw += np.log(p if h else 1.0 - p)

    def _proposal(self, e: dict[str, Any]) -> None:
        dirty = self._bad[:, e["members"]].any(axis=1)
        for v in e["yes"] + e["no"]:
            if v in (e["chief"], self.me):
                continue
            where = "in" if v in e["members"] else "out"
            clean_yes = np.asarray(behaviour.table(f"yes_clean_{where}"))
            dirty_yes = np.asarray(behaviour.table(f"yes_dirty_{where}"))
            cls = self.classes[:, v]
            p = np.where(dirty, dirty_yes[cls], clean_yes[cls])
            self.logw += np.log(p if v in e["yes"] else 1.0 - p)

    def _ritual(self, e: dict[str, Any]) -> None:
        members = [m for m in e["members"] if m != self.me]
        if self.me in e["members"]:
            mine = [ing for day, ing in self.lays if day == e["day"]]
            if not mine or mine[-1] not in e["required"]:
                return  # the seat's own card failed it: the others' cards are unknown
        spoils = np.asarray(behaviour.table("spoils"))
        good = np.prod(1.0 - spoils[self.classes[:, members]], axis=1)
        if self.me in e["members"]:
            good = good * (1.0 - OWN_SPOIL)
        self.logw += np.log(np.clip(good if e["success"] else 1.0 - good, 1e-9, 1.0))

    def _vote(self, e: dict[str, Any]) -> None:
        cats = [s for s, _t in e["votes"]]
        abstains = np.asarray(behaviour.table("abstains"))
        for_witch = np.asarray(behaviour.table("votes_witch"))
        witches_there = self._witch[:, cats].sum(axis=1)
        for voter, target in e["votes"]:
            if voter == self.me:
                continue
            cls = self.classes[:, voter]
            if target is None:
                self.logw += np.log(abstains[cls])
                continue
            others_w = witches_there - self._witch[:, voter]
            others_n = (len(cats) - 1) - others_w
            pw = np.where(others_w > 0, for_witch[cls], 0.0)
            p = np.where(self._witch[:, target], pw / np.maximum(others_w, 1),
                         (1.0 - pw) / np.maximum(others_n, 1))
            self.logw += np.log(np.clip((1.0 - abstains[cls]) * p, 1e-9, 1.0))
        if e["banished"] is not None:
            self.ok &= self.classes[:, e["banished"]] == class_of(e["role"])
            self.forms[e["banished"]] = "banished"
        self._still_running()

    def _evening(self, e: dict[str, Any]) -> None:
        cats = [s for s in range(len(self.forms)) if self.forms[s] == "cat" and s != self.me]
        self._add(behaviour.table("turned"), cats, [s in e["frogs"] for s in cats])
        for s in e["frogs"]:
            self.forms[s] = "frog"
        for s in e["restored"]:
            self.forms[s] = "cat"
        self._still_running()

    def _still_running(self, forms: list[str] | None = None) -> None:
        """The game went on after this check: a witch in cat form, and more other cats."""
        cats = [s for s, f in enumerate(forms or self.forms) if f == "cat"]
        witches = self._witch[:, cats].sum(axis=1)
        self.ok &= (witches > 0) & (len(cats) - witches > witches)

    # -- what follows -----------------------------------------------------------------------
    def posterior(self, findings: dict[int, bool] | None = None,
                  forms: list[str] | None = None, village: int | None = None) -> np.ndarray:
        """The normalised weights; ``findings`` (a seer's) and ``forms`` (the game still
        running now) as further constraints. Uniform over the allowed ones if the record is
        impossible under the model (it never is with clipped rates, but a constraint may be:
        a host's own role list)."""
        ok = self.ok.copy()
        if village is not None:  # a seat taken to be on the village's side
            ok &= self.classes[:, village] == VILLAGE
        for seat, witch in (findings or {}).items():
            ok &= self._witch[:, seat] == witch
        if forms is not None:
            cats = [s for s, f in enumerate(forms) if f == "cat"]
            witches = self._witch[:, cats].sum(axis=1)
            ok &= (witches > 0) & (len(cats) - witches > witches)
        if not ok.any():
            ok = self.ok if self.ok.any() else np.ones_like(ok)
        logw = np.where(ok, self.logw, -np.inf)
        w = np.exp(logw - logw.max())
        return w / w.sum()


class Judgement:
    """A belief read off for one view: the posterior and what follows from it."""

    def __init__(self, belief: Belief, post: np.ndarray) -> None:
        self.classes = belief.classes
        self.spoilers = belief.spoilers
        self.post = post
        self.exact = belief.exact
        # (witch, crow, fool) × seat, rounded so that seats alike to the record tie exactly
        # (the product's rounding noise would break their ties by accident)
        odds = np.round(post @ belief.indicators, DIGITS)
        self.witch: list[float] = odds[0].tolist()
        self.crow: list[float] = odds[1].tolist()
        self.fool: list[float] = odds[2].tolist()
        self._cumulative: list[float] | None = None

    def spoiler(self, seat: int) -> float:
        """How likely ``seat`` spoils a ritual on purpose: a witch, the crow or the fool."""
        return self.witch[seat] + self.crow[seat] + self.fool[seat]

    def clean(self, members: list[int]) -> float:
        """How likely a circle holds no witch, no crow and no fool."""
        circle = sum(1 << s for s in members)
        return round(float(self.post[(self.spoilers & circle) == 0].sum()), DIGITS)

    def draw(self, rng: random.Random) -> np.ndarray:
        """One assignment's classes, drawn by its weight."""
        if self._cumulative is None:
            self._cumulative = np.cumsum(self.post).tolist()
        i = bisect.bisect_left(self._cumulative, rng.random() * self._cumulative[-1])
        return self.classes[min(i, len(self._cumulative) - 1)]


_CACHE: OrderedDict[tuple[Any, ...], Belief] = OrderedDict()


def _belief(view: View, public: bool) -> Belief:
    """The seat's (or the public) belief after the view's whole record, from the cache when
    the record only grew since."""
    fixed, counts = knowledge(view, public)
    me = None if public else view["seat"]
    lays = [] if public else [list(x) for x in view.get("my_lays") or []]
    key = (fixed, counts, me, tuple(view["players"]))
    record = view.get("record") or []
    found = _CACHE.get(key)
    if found is not None:
        size = len(found.seen)
        if size > len(record) or found.seen != record[:size] or (
                not public and found.lays != lays[:len(found.lays)]):
            found = None
    if found is None:
        found = Belief(fixed, counts, me, lays)
    found.lays = lays
    for entry in record[len(found.seen):]:
        found.absorb(entry)
    _CACHE[key] = found
    _CACHE.move_to_end(key)
    while len(_CACHE) > CACHE:
        _CACHE.popitem(last=False)
    return found


def judge(view: View) -> Judgement:
    """What this seat can deduce now (everything it knows: see the module docstring)."""
    b = _belief(view, public=False)
    forms = list(view["forms"]) if view["outcome"] is None and view["day"] > 0 else None
    return Judgement(b, b.posterior(seer_findings(view), forms))


def judge_public(view: View) -> Judgement:
    """What anyone can deduce from the public record alone — how the village sees the table
    (the witches read it to know how they look)."""
    b = _belief(view, public=True)
    forms = list(view["forms"]) if view["outcome"] is None and view["day"] > 0 else None
    return Judgement(b, b.posterior(None, forms))


def judge_innocent(view: View) -> Judgement:
    """What an innocent cat in this seat would deduce from the public record (the seat taken
    to be on the village's side, nothing else of its own): a witch or the crow play as that
    cat would, so that their play tells the village nothing an innocent's would not."""
    b = _belief(view, public=True)
    forms = list(view["forms"]) if view["outcome"] is None and view["day"] > 0 else None
    return Judgement(b, b.posterior(None, forms, village=view["seat"]))


# --- dealing roles from the belief ---------------------------------------------------------

def deal_roles(view: View, rng: random.Random,
               accept: Callable[[list[str]], bool] | None = None) -> list[str]:
    """Every seat's role: the known ones as the view shows them, the hidden classes drawn from
    the seat's belief, the village roles shuffled over the village seats, so that
    ``accept(roles)`` holds (what else the seat's view demands); after many tries, the last
    deal drawn."""
    n = len(view["players"])
    known: list[str | None] = list(view["roles"])
    if view.get("role") is not None:
        known[view["seat"]] = view["role"]
    judgement = judge(view)
    pool = role_pool(view)
    village_left = [r for r in pool if class_of(r) == VILLAGE]
    for role in known:
        if role is not None and role in village_left:
            village_left.remove(role)
    specials = {WITCH: data.WITCH, CROW: data.CROW, FOOL: data.FOOL_ROLE}
    best: list[str] | None = None
    for _ in range(DEAL_TRIES):
        classes = judgement.draw(rng)
        roles = list(known)
        hidden_village = [s for s in range(n) if roles[s] is None and classes[s] == VILLAGE]
        fill = (village_left + [data.CAT] * n)[:len(hidden_village)]
        rng.shuffle(fill)
        for s, role in zip(hidden_village, fill, strict=True):
            roles[s] = role
        for s in range(n):
            if roles[s] is None:
                roles[s] = specials[int(classes[s])]
        filled = [r if r is not None else data.CAT for r in roles]
        best = filled
        if accept is None or accept(filled):
            return filled
    assert best is not None
    return best
