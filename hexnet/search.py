"""Search bots: information-set Monte Carlo search over determinizations of a seat's view.

A :class:`SearchPolicy` is a bot policy ``choose(view, legal, rng) -> action`` like the others: it
sees only the seat's view. To decide, it

1. narrows the legal actions to a few *candidates* (the game's own pruning, the heuristic
   policy's choice among them),
2. samples *determinizations* — full engine states built by ``Game.sample_state(view, rng)`` from
   the view alone, hidden information re-dealt at random —
3. plays each candidate out on the same determinization with the heuristic policy in every seat
   (common random numbers: the candidates face the same deal and the same dice), and
4. keeps the better half of the candidates after each round (sequential halving), finally taking
   the candidate with the best mean outcome for its seat (ties go to the heuristic's choice; in
   noisy games the heuristic's choice is kept unless another is better by a standard error).

This is OpenSpiel's ``ismcts.py`` with a one-level tree (the root information set) and a fixed
playout policy. The budget is either a number of playouts (deterministic: same view and same rng
give the same choice, for tests and tournaments) or a think time in seconds. A timed decision
always takes its whole think time — even with one legal action — so how long a bot thinks says
nothing about its hand; it stops at its deadline even mid-playout, and if by then it could not
try every candidate twice (a slow or busy machine) it keeps the heuristic's choice.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from hexnet.engine import Game, State

View = dict[str, Any]
Action = dict[str, Any]
Policy = Callable[[View, list[Action], random.Random], Action]
# (game, view, legal, heuristic choice, rng) -> candidate actions (a sublist of legal)
# (the game's pruning: it decides what search compares, the heuristic's choice included
# unless the game has a reason — e.g. the witches' common vote)
Candidates = Callable[[Game, View, list[Action], Action, random.Random], list[Action]]
# (game, state, seat) -> value in [0, 1] of an unfinished playout for the seat
Evaluate = Callable[[Game, State, int], float]

DEFAULT_THINK = 0.5
MAX_THINK = 10.0
MAX_PLAYOUTS = 20_000
PLAYOUT_ACTION_CAP = 5_000
STOP_EVERY = 8  # playout steps between looks at a timed decision's clock
MIN_EVIDENCE = 2  # playouts each candidate needs before a timed decision may leave the heuristic


def copy_state(state: State, shared: frozenset[str] = frozenset()) -> State:
    """A deep copy of a state tree (dicts, lists, scalars); keys in ``shared`` are taken by
    reference (parts the engine never mutates, e.g. a card table). About as fast as a msgpack
    round trip (``python -m hexnet.tools.searchbench``) and about 1% of a playout's time."""
    return {k: (v if k in shared else copy_tree(v)) for k, v in state.items()}


def trim_log(log: list[Any], keep: int) -> None:
    """A playout's log, cut back to its last ``keep`` events once it has grown past twice that
    (and a few): what the rollout policy reads of it stays, without a cut at every step."""
    if len(log) > 2 * keep + 8:
        del log[:len(log) - keep]


def copy_tree(x: Any) -> Any:
    """A deep copy of a plain tree (dicts, lists, scalars). Scalars are taken as they are,
    without a call each: most of a state's leaves are card ids and numbers in lists."""
    t = type(x)
    if t is dict:
        out = x.copy()
        for k, v in x.items():
            kind = type(v)
            if kind is dict or kind is list:
                out[k] = copy_tree(v)
        return out
    if t is list:
        return [copy_tree(v) if (type(v) is dict or type(v) is list) else v for v in x]
    return x


@dataclass(frozen=True)
class SearchGame:
    """What search needs to know about one game."""

    engine: Game  # the game's engine: the deals are played out on it
    rollout: Policy
    candidates: Candidates | None = None
    evaluate: Evaluate | None = None
    # state keys the engine never changes during play (shared between copies)
    shared: frozenset[str] = frozenset({"players", "options"})
    # the playout stops after this many actions and asks ``evaluate`` (None: play to the end)
    horizon: int | None = None
    # how many recent log events a playout keeps (what the rollout policy reads of the log)
    log_keep: int = 40
    # the rollout policy's view in playouts: the parts of ``Game.view`` it reads, built cheaper
    # (None: the full view). Tests check it agrees with the full view on those parts.
    rollout_view: Callable[[State, int], View] | None = None
    # after sampling: redraw hidden choices the sampler drew blindly (game, state, seat, rng)
    refine: Callable[[Game, State, int, random.Random], None] | None = None
    # a finished game's value for a seat (default: win share, nudged by the score)
    value: Callable[[dict[str, Any], int], float] | None = None
    # if set, the heuristic's choice is the yardstick: it is never dropped, and search leaves it
    # only for a candidate better by this many standard errors (noisy games: dice, hidden roles)
    anchor: float | None = None
    # the policy whose choice at the root is "the heuristic's" (default: ``rollout``; a slower,
    # better one may judge the root while the cheap one plays the playouts)
    root: Policy | None = None
    # plays the steps from here on where every seat waited on has one action (e.g. a round of
    # confirmations) exactly as the playout loop would, drawing the actor from the same
    # generator and trimming the log alike (to ``log_keep``), cheaper; at most ``limit`` steps
    # (state, rng, log_keep, limit); returns how many it played (0: none)
    forced: Callable[[State, random.Random, int, int], int] | None = None
    # the rollout policy's choice for a seat drawn to act, when the game can tell it from the
    # state without a view (e.g. a seat that only re-sends its pick), else None: exactly the
    # policy's choice among the seat's legal actions, drawing nothing from the generator; asked
    # before the legal actions are listed, which a settled step then never needs (state, seat)
    settled: Callable[[State, int], Action | None] | None = None

    @property
    def name(self) -> str:
        return self.engine.name


def outcome_value(outcome: dict[str, Any], seat: int) -> float:
    """A finished game's value for ``seat``, in [0, 1]: mostly its share of the win, a little
    its score against the best other score (so a close loss beats a rout)."""
    winners = outcome.get("winners") or []
    share = 1.0 / len(winners) if seat in winners else 0.0
    scores = outcome.get("scores") or []
    margin = 0.0
    if len(scores) > 1:
        margin = scores[seat] - max(s for i, s in enumerate(scores) if i != seat)
    return 0.9 * share + 0.1 * (0.5 + max(-5.0, min(5.0, margin)) / 10)


class Playout:
    """Plays a state forward with a policy in every seat, trusting the policy's actions (they
    are taken from ``legal_actions``, so the engine's re-validation is skipped)."""

    def __init__(self, game: Game, spec: SearchGame) -> None:
        self.game = game
        self.spec = spec

    def run(self, state: State, seat: int, rng: random.Random,
            stop: Callable[[], bool] | None = None) -> float | None:
        """Play on from ``state`` (mutated) and return its value for ``seat`` — or None if
        ``stop`` (asked every few steps: a timed decision's deadline) says so first."""
        game, policy = self.game, self.spec.rollout
        see = self.spec.rollout_view or game.view
        horizon = self.spec.horizon
        # who is waited on, asked afresh: each step moves the version, so the per-version
        # cache of ``waiting_for`` would only be refilled
        waiting_for = getattr(type(game).waiting_for, "__wrapped__", type(game).waiting_for)
        log = state["log"]
        keep = self.spec.log_keep
        forced = self.spec.forced
        settled = self.spec.settled
        evaluate = self.spec.evaluate if horizon is not None else None
        # the steps it may play: to the horizon (then valued unfinished), else to the cap
        limit = min(horizon, PLAYOUT_ACTION_CAP) if evaluate is not None else PLAYOUT_ACTION_CAP
        outcome, apply, legal_of = game.outcome, game._apply, game._legal
        steps = 0
        while outcome(state) is None:
            if steps >= limit:
                if evaluate is not None and steps >= horizon:  # (a horizon past the cap: 0)
                    return evaluate(game, state, seat)
                return 0.0
            if stop is not None and steps % STOP_EVERY == STOP_EVERY - 1 and stop():
                return None
            if forced is not None:
                played = forced(state, rng, keep, limit - steps)
                if played:
                    steps += played
                    continue
            waiting = waiting_for(game, state)
            if not waiting:
                timer = game.deadline(state)
                if timer is None:
                    return 0.0
                game._on_timeout(state)
            else:
                actor = waiting[rng.randrange(len(waiting))] if len(waiting) > 1 else waiting[0]
                # a settled move needs neither the legal list, nor a view, nor the policy (whose
                # choice it is); a forced one needs no view nor the policy
                if settled is None or (action := settled(state, actor)) is None:
                    legal = legal_of(state, actor)
                    action = legal[0] if len(legal) == 1 else policy(see(state, actor), legal, rng)
                apply(state, actor, dict(action))
            state["version"] += 1
            steps += 1
            trim_log(log, keep)
        return (self.spec.value or outcome_value)(outcome(state), seat)


@dataclass(frozen=True)
class Budget:
    """How long a decision may take: ``playouts`` (deterministic) or ``think`` seconds."""

    think: float = DEFAULT_THINK
    playouts: int | None = None

    def describe(self) -> str:
        return f"{self.playouts} playouts" if self.playouts else f"{self.think:g} s"


def parse_budget(text: str) -> Budget:
    """``"0.5s"`` → 0.5 s think time; ``"200p"`` → 200 playouts. ValueError with a sentence if
    it is neither, or out of range."""
    raw = text.strip().lower()
    if raw.endswith("s"):
        return Budget(think=think_seconds(raw[:-1]))
    if raw.endswith("p"):
        return Budget(playouts=playout_count(raw[:-1]))
    raise ValueError(f"a search budget is seconds (0.5s) or playouts (200p), not {text!r}")


def think_seconds(text: str) -> float:
    """A ``--think`` value: seconds per decision (ValueError with a sentence if out of range)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value <= MAX_THINK:
        raise ValueError(f"think time is seconds between 0 and {MAX_THINK:g}, not {text!r}")
    return value


def playout_count(text: str) -> int:
    """A ``--playouts`` value (ValueError with a sentence if out of range)."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= MAX_PLAYOUTS:
        raise ValueError(f"playouts are a whole number from 1 to {MAX_PLAYOUTS}, not {text!r}")
    return value


def budgeted(policy: str, think: float | None = None, playouts: int | None = None) -> str:
    """``policy`` with the command line's budget if it is a search bot (``search…`` or the
    ``hard`` level) without one of its own: ``budgeted("search", playouts=200) ==
    "search@200p"``; other policies stay as they are."""
    name, _, own = policy.partition("@")
    thinking = name.startswith("search") or name == "hard"
    if not thinking or ":" in name or own or (
            think is None and playouts is None):
        return policy
    return f"{name}@{playouts}p" if playouts is not None else f"{name}@{think:g}s"


class SearchPolicy:
    """The ``search`` bot of one game (see the module docstring).

    ``thinks`` tells callers that a decision takes time (about ``budget.think`` seconds): run it
    off the event loop."""

    thinks = True

    def __init__(self, spec: SearchGame, budget: Budget | None = None,
                 clock: Callable[[], float] = time.perf_counter,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.spec = spec
        self.budget = budget or Budget()
        self.last_playouts = 0  # playouts the last decision ran (figures for benchmarks)
        self._clock = clock
        self._sleep = sleep

    def __repr__(self) -> str:
        return f"SearchPolicy({self.spec.name}, {self.budget.describe()})"

    def configured(self, budget: Budget) -> SearchPolicy:
        """The same bot with another budget."""
        return SearchPolicy(self.spec, budget, self._clock, self._sleep)

    def with_spec(self, **changes: Any) -> SearchPolicy:
        """The same bot with parts of its game description replaced (experiments, tests)."""
        return SearchPolicy(replace(self.spec, **changes), self.budget, self._clock, self._sleep)

    def __call__(self, view: View, legal: list[Action], rng: random.Random) -> Action:
        started = self._clock()
        choice = self.decide(view, legal, rng, started)
        if self.budget.playouts is None:
            left = self.budget.think - (self._clock() - started)
            if left > 0:  # constant time: thinking time must not tell what the seat holds
                self._sleep(left)
        return choice

    # -- the search -----------------------------------------------------------------------
    def decide(self, view: View, legal: list[Action], rng: random.Random,
               started: float | None = None) -> Action:
        """The chosen action (without the constant-time wait)."""
        heuristic = (self.spec.root or self.spec.rollout)(view, legal, rng)
        if len(legal) <= 1:
            return heuristic
        game = self.spec.engine
        candidates = _unique(self.spec.candidates(game, view, legal, heuristic, rng)
                             if self.spec.candidates else list(legal))
        if len(candidates) == 1:
            return candidates[0]
        seat = view["seat"]
        sampler = game.sample_state
        playout = Playout(game, self.spec)
        shared = self.spec.shared
        anchor = candidates.index(heuristic) if (
            self.spec.anchor is not None and heuristic in candidates) else None
        # values[i][d]: candidate i's playout value on deal d (the same deal for every candidate)
        values: list[dict[int, float]] = [{} for _ in candidates]
        alive = list(range(len(candidates)))
        deadline = None if self.budget.playouts else (
            (started if started is not None else self._clock()) + 0.9 * self.budget.think)
        budget = self.budget.playouts or 0
        spent = deals = 0
        rounds = max(1, math.ceil(math.log2(len(candidates))))
        round_no = 0
        clock = self._clock
        # a timed decision stops mid-playout at its deadline (a loaded machine makes one
        # playout long); a counted one always plays its playouts out
        stop = None if deadline is None else (lambda: clock() >= deadline)

        def mean(i: int) -> float:
            return sum(values[i].values()) / max(1, len(values[i]))

        while True:
            # one round: the surviving candidates each get ``per`` playouts on shared deals
            if deadline is None:
                share = (budget - spent) // max(1, rounds - round_no)
                per = max(1, share // len(alive))
            else:
                per = 2 if round_no < rounds - 1 else 1_000_000
            for _ in range(per):
                deal = sampler(view, rng)
                if self.spec.refine is not None:
                    self.spec.refine(game, deal, seat, rng)
                deal["log"] = deal["log"][max(0, len(deal["log"]) - self.spec.log_keep):]
                seed = rng.getrandbits(64)
                for i in alive:
                    state = copy_state(deal, shared)
                    game._apply(state, seat, dict(candidates[i]))
                    state["version"] += 1
                    value = playout.run(state, seat, random.Random(seed), stop)
                    if value is None:
                        break  # out of time mid-playout: it does not count
                    values[i][deals] = value
                    spent += 1
                    if deadline is not None and self._clock() >= deadline:
                        break  # out of time: this deal stays half played (unpaired)
                deals += 1
                if deadline is not None and self._clock() >= deadline:
                    break
                if deadline is None and spent >= budget:
                    break
            round_no += 1
            if len(alive) == 1 or (deadline is None and spent >= budget) or (
                    deadline is not None and self._clock() >= deadline):
                break
            if round_no < rounds:
                alive.sort(key=lambda i: (-mean(i), i))
                kept = alive[:max(1, (len(alive) + 1) // 2)]
                if anchor is not None and anchor not in kept:
                    kept.append(anchor)  # the heuristic's choice stays as the yardstick
                alive = sorted(kept)
        if deadline is not None and heuristic in candidates and any(
                len(v) < MIN_EVIDENCE for v in values):
            # out of time before every candidate was tried enough (a slow or loaded machine):
            # a mean of one playout is noise, so the heuristic's choice stands
            self.last_playouts = spent
            return heuristic
        best = max(alive, key=lambda i: (mean(i), candidates[i] == heuristic, -i))
        if anchor is not None and best != anchor and not _clearly_better(
                values[best], values[anchor], self.spec.anchor or 0.0):
            best = anchor
        self.last_playouts = spent
        return candidates[best]


def _clearly_better(a: dict[int, float], b: dict[int, float], z: float) -> bool:
    """Whether ``a`` beats ``b`` on the deals both were played on by ``z`` standard errors of
    the paired differences (common random numbers make the pairs comparable)."""
    diffs = [a[d] - b[d] for d in a if d in b]
    if len(diffs) < 2:
        return False
    m = sum(diffs) / len(diffs)
    var = sum((x - m) ** 2 for x in diffs) / (len(diffs) - 1)
    return m > 0 and m * m * len(diffs) > z * z * var


def _unique(actions: list[Action]) -> list[Action]:
    """``actions`` without repeats, in order."""
    out: list[Action] = []
    for a in actions:
        if a not in out:
            out.append(a)
    return out
