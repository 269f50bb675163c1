"""Where a search bot's time goes: ``python -m hexnet.tools.searchbench [--game G] [--players N]``.

Plays heuristic games, collects the states its playouts pass through, and times on those states
each engine call a playout makes per step — the full ``view`` (what the host sends), the rollout
view search uses instead, ``legal_actions``, ``apply`` (validated, as the host calls it, and
trusted, as playouts call it), the heuristic policy — and what a playout does once: sampling a
determinization, copying it (``copy_state`` against a ``dump``/``load`` round trip). Prints
microseconds per call and the share of one playout's time; a benchmark, not a test.

With ``--decisions`` it times whole timed decisions instead (``search`` at ``--think`` seconds,
default 0.5): how long a decision takes before its constant-time wait, and how many playouts it
ran — whether the bot answers within its think budget on this machine. ``--clock cpu`` runs the
decisions on the thread's CPU clock instead of the wall clock: the playouts one idle core runs in
the think time, whatever else the machine is doing (the budget a ``hard@Np`` study should use).
``--positions normal`` takes the positions from games of the ``normal`` level (what a ``hard``
bot meets among good players) instead of the heuristic's.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from hexnet.games import get_game, get_policy
from hexnet.search import DEFAULT_THINK, Budget, Playout, SearchPolicy, copy_state

DEFAULT_PLAYERS = {"hexenhammer": 4, "fang": 8, "hranice": 4}


def _states(game_name: str, players: int, count: int, seed: int,
            policy: str = "heuristic") -> list[tuple[dict, int]]:
    """(state, seat) pairs a playout passes through: mid-game positions of ``policy``'s
    games (the heuristic's by default)."""
    game = get_game(game_name)
    heuristic = get_policy(game_name, policy)
    r = random.Random(seed)
    out: list[tuple[dict, int]] = []
    g = 0
    while len(out) < count:
        state = game.setup([f"p{i}" for i in range(players)], seed + g)
        g += 1
        while game.outcome(state) is None and len(out) < count:
            waiting = game.waiting_for(state)
            if not waiting:
                game.apply(state, None, {"type": "timeout", "key": game.deadline(state).key})
                continue
            seat = r.choice(waiting)
            if r.random() < 0.15:
                out.append((copy_state(state), seat))
            game.apply(state, seat, heuristic(game.view(state, seat),
                                              game.legal_actions(state, seat), r))
    return out


def _per_call(fn: Callable[[], Any], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return best


def profile(game_name: str, players: int, count: int = 150, seed: int = 1) -> dict[str, Any]:
    """Microseconds per call of each operation, averaged over ``count`` playout states."""
    game = get_game(game_name)
    search = get_policy(game_name, "search")
    spec = search.spec
    heuristic = spec.rollout
    states = _states(game_name, players, count, seed)
    seen = [(s, seat) for s, seat in states]
    lean = spec.rollout_view or game.view
    rng = random.Random(seed)
    views = [game.view(s, seat) for s, seat in seen]
    legals = [game.legal_actions(s, seat) for s, seat in seen]
    actions = [heuristic(v, lg, rng) for v, lg in zip(views, legals, strict=True)]
    # what search copies: a determinization, its log cut to what the rollout policy reads
    copies = [game.sample_state(v, rng) for v in views]
    for c in copies:
        c["log"] = c["log"][max(0, len(c["log"]) - spec.log_keep):]
    copies2 = [copy_state(c) for c in copies]
    n = len(seen)

    def each(fn: Callable[[int], Any]) -> Callable[[], None]:
        def run() -> None:
            for i in range(n):
                fn(i)
        return run

    fresh: list[list[dict]] = []

    def prepare() -> None:
        fresh[:] = [[copy_state(s) for s, _ in seen] for _ in range(4)]

    prepare()
    rounds = iter(range(4))

    def validated() -> None:
        k = next(rounds)
        for i in range(n):
            game.apply(fresh[k][i], seen[i][1], actions[i])

    def trusted() -> None:
        k = next(rounds)
        for i in range(n):
            st = fresh[k][i]
            game._apply(st, seen[i][1], dict(actions[i]))
            st["version"] += 1

    t = {
        "view (full)": _per_call(each(lambda i: game.view(*seen[i]))),
        "rollout view": _per_call(each(lambda i: lean(*seen[i]))),
        "legal_actions": _per_call(each(lambda i: game.legal_actions(*seen[i]))),
        "heuristic policy": _per_call(each(lambda i: heuristic(views[i], legals[i], rng))),
    }
    t["apply (validated)"] = _per_call(validated, repeat=1)
    rounds = iter(range(4))
    prepare()
    rounds = iter(range(4))
    t["apply (trusted)"] = _per_call(trusted, repeat=1)
    t["copy_state"] = _per_call(each(lambda i: copy_state(copies[i], spec.shared)))
    t["dump + load"] = _per_call(each(lambda i: game.load(game.dump(copies2[i]))))
    t["sample_state"] = _per_call(each(lambda i: game.sample_state(views[i], rng)))
    per_call = {k: v / n * 1e6 for k, v in t.items()}
    # one playout: its steps, timed whole
    playout = Playout(game, spec)
    steps = 0
    started = time.process_time()
    runs = 0
    for i in range(0, n, max(1, n // 20)):
        s, seat = seen[i]
        if game.outcome(s) is not None:
            continue
        deal = game.sample_state(views[i], rng)
        before = deal["version"]
        playout.run(deal, seat, random.Random(i))
        steps += deal["version"] - before
        runs += 1
    playout_us = (time.process_time() - started) / max(runs, 1) * 1e6
    return {"game": game_name, "players": players, "states": n, "per_call_us": per_call,
            "playout_us": playout_us, "steps_per_playout": steps / max(runs, 1)}


def playout_rate(game_name: str, players: int, seconds: float = 3.0, count: int = 60,
                 seed: int = 1) -> float:
    """Search playouts per CPU second: from ``count`` mid-game positions, each round samples
    a determinization of a seat's view, copies it as search does and plays it out with the
    rollout policy (:class:`hexnet.search.Playout`), for ``seconds`` of CPU time."""
    game = get_game(game_name)
    spec = get_policy(game_name, "search").spec
    positions = [(s, seat) for s, seat in _states(game_name, players, count, seed)
                 if game.outcome(s) is None]
    views = [game.view(s, seat) for s, seat in positions]
    rng = random.Random(seed)
    playout = Playout(game, spec)
    runs = 0
    started = time.process_time()
    while True:
        i = runs % len(views)
        deal = game.sample_state(views[i], rng)
        deal["log"] = deal["log"][max(0, len(deal["log"]) - spec.log_keep):]
        playout.run(copy_state(deal, spec.shared), positions[i][1], rng)
        runs += 1
        spent = time.process_time() - started
        if spent >= seconds:
            return runs / spent


def decision_times(game_name: str, players: int, think: float = DEFAULT_THINK,
                   count: int = 30, seed: int = 1, policy: str = "search",
                   clock: str = "wall", positions_from: str = "heuristic") -> dict[str, Any]:
    """Timed ``search`` decisions on ``count`` positions with a real choice: wall seconds until
    the choice is made (before the constant-time wait) and playouts run, per decision.
    ``clock="cpu"``: the decision's deadline is on the thread's CPU clock (an idle core)."""
    game = get_game(game_name)
    search = get_policy(game_name, policy)
    if clock == "cpu":
        search = SearchPolicy(search.spec, Budget(think=think), clock=time.thread_time)
    else:
        search = search.configured(Budget(think=think))
    found = _states(game_name, players, 6 * count, seed, positions_from)
    positions = [(s, seat) for s, seat in found if len(game.legal_actions(s, seat)) > 1]
    positions = [positions[i * len(positions) // count] for i in range(count)] if len(
        positions) > count else positions
    walls: list[float] = []
    cpus: list[float] = []
    playouts: list[int] = []
    for i, (s, seat) in enumerate(positions):
        view, legal = game.view(s, seat), game.legal_actions(s, seat)
        rng = random.Random(seed + i)
        search.last_playouts = 0  # a decision with one candidate runs none (and says nothing)
        c0 = time.process_time()
        t0 = time.perf_counter()
        search.decide(view, legal, rng, time.thread_time() if clock == "cpu" else t0)
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
        playouts.append(search.last_playouts)
    return {"game": game_name, "players": players, "think": think, "policy": policy,
            "clock": clock, "decisions": len(walls),
            "wall": sorted(walls), "cpu": sorted(cpus), "playouts": sorted(playouts)}


def decision_report(r: dict[str, Any]) -> str:
    """The decision times as one paragraph."""
    def q(xs: list[Any], f: float) -> Any:
        return xs[min(len(xs) - 1, int(f * len(xs)))] if xs else 0
    late = sum(1 for w in r["wall"] if w > r["think"])
    searched = [p for p in r["playouts"] if p > 0]
    return (f"{r['game']} ({r['players']} players), {r.get('policy', 'search')}, think "
            f"{r['think']:g} s on the {r.get('clock', 'wall')} clock: {r['decisions']} "
            f"decisions; wall s median {q(r['wall'], 0.5):.3f}, 90% {q(r['wall'], 0.9):.3f}, "
            f"max {q(r['wall'], 1.0):.3f} (CPU median {q(r['cpu'], 0.5):.3f}); over the budget "
            f"{late}; playouts median {q(searched, 0.5)}, min {q(searched, 0.0)} (over the "
            f"{len(searched)} decisions that searched)")


def report(r: dict[str, Any]) -> str:
    """The figures as a table; shares are of one playout (its steps × per-step costs)."""
    steps = r["steps_per_playout"]
    pc = r["per_call_us"]
    step_parts = ("rollout view", "legal_actions", "heuristic policy", "apply (trusted)")
    lines = [f"{r['game']} ({r['players']} players): one playout ≈ {r['playout_us'] / 1000:.1f} ms"
             f" CPU, {steps:.0f} steps; per call, over {r['states']} positions:"]
    for key, us in pc.items():
        share = ""
        if key in step_parts:
            share = f"  {us * steps / r['playout_us']:6.1%} of a playout"
        elif key in ("copy_state", "sample_state"):
            share = f"  {us / r['playout_us']:6.1%} of a playout"
        lines.append(f"  {key:<18} {us:9.1f} µs{share}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hexnet.tools.searchbench",
                                     description="where a search bot's time goes, per game")
    parser.add_argument("--game", choices=list(DEFAULT_PLAYERS), action="append",
                        help="a game (repeatable; default all three)")
    parser.add_argument("--players", type=int, help="seats (default: 4, Fang 8)")
    parser.add_argument("--states", type=int, default=150, help="positions to time on")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=3.0,
                        help="CPU seconds of playouts for the playouts/s figure (default 3)")
    parser.add_argument("--decisions", type=int, metavar="N",
                        help="time N whole timed search decisions instead")
    parser.add_argument("--think", type=float, default=DEFAULT_THINK,
                        help="seconds per timed decision (with --decisions; default 0.5)")
    parser.add_argument("--policy", default="search",
                        help="the search bot timed with --decisions: search (default) or hard")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="--decisions: think on the wall clock (default) or the thread's "
                             "CPU clock (an idle core's playouts)")
    parser.add_argument("--positions", default="heuristic",
                        help="--decisions: positions from this policy's games (default heuristic)")
    args = parser.parse_args(argv)
    for name in args.game or list(DEFAULT_PLAYERS):
        if args.decisions:
            print(decision_report(decision_times(
                name, args.players or DEFAULT_PLAYERS[name], args.think, args.decisions,
                args.seed, args.policy, args.clock, args.positions)), flush=True)
            continue
        players = args.players or DEFAULT_PLAYERS[name]
        print(report(profile(name, players, args.states, args.seed)), flush=True)
        print(f"  playouts/s (sample, copy, play out): "
              f"{playout_rate(name, players, args.seconds, seed=args.seed):.0f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
