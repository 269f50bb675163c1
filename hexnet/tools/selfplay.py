"""In-process games between bots: the engines' benchmark and soak test (``hexnet selfplay``)."""

from __future__ import annotations

import argparse
import functools
import json
import random
import sys
import time
from collections import Counter
from typing import Any

from hexnet.engine import Game, IllegalAction
from hexnet.games import get_game
from hexnet.policies import LazyView, load_policy
from hexnet.search import budgeted
from hexnet.tools.progress import Progress
from hexnet.tools.workers import Runner, WorkersError, open_runner

MAX_ACTIONS_PER_GAME = 50_000


class GameFailed(Exception):
    """A game that raised, stalled or did not end within the action cap."""


def play_game(game: Game, policies: list[Any], seed: int,
              options: dict[str, Any] | None = None,
              keep: list[Any] | None = None) -> tuple[dict[str, Any], int]:
    """Play one game to the end; return its outcome and the number of actions taken.

    When several seats are waited on at once, the seat that answers first is drawn at random
    (from the bots' generator, seeded from ``seed``), as a real table would interleave them. A
    policy is shown its seat's view as a :class:`LazyView`: built only if the policy reads it.
    """
    players = [f"bot{i + 1}" for i in range(len(policies))]
    state = game.setup(players, seed, options or {})
    bot_rng = random.Random(seed)
    actions = 0
    # (the loop's calls bound once: a random bot's game is ~1,000 turns of this loop)
    outcome, waiting_for, legal_actions = game.outcome, game.waiting_for, game.legal_actions
    # randrange(n) is _randbelow(n) for n > 0 (the same draw from the same stream), without
    # randrange's checks of its arguments
    apply, randbelow = game.apply, bot_rng._randbelow  # noqa: SLF001
    builders = [functools.partial(game.view, state, seat) for seat in range(len(policies))]
    # a policy that says it never reads its view (``reads_view = False``: the random bot) is
    # handed one view that cannot be read, the same at every turn
    unseen = LazyView(dict)
    unseen.close()
    blind = [getattr(policy, "reads_view", True) is False for policy in policies]
    while outcome(state) is None:
        waiting = waiting_for(state)
        if not waiting:
            timer = game.deadline(state)
            if timer is None:
                raise GameFailed(f"seed {seed}: the game waits for nobody but has not ended")
            # a timed pause nobody acts in (e.g. Fang's "who was it?!"): let it expire
            apply(state, None, {"type": "timeout", "key": timer.key})
            actions += 1
            continue
        seat = waiting[randbelow(len(waiting))]
        legal = legal_actions(state, seat)
        if not legal:
            raise GameFailed(f"seed {seed}: seat {seat} is waited on but has no legal action")
        if blind[seat]:
            action = policies[seat](unseen, legal, bot_rng)
        else:
            view = LazyView(builders[seat])
            action = policies[seat](view, legal, bot_rng)
            view.close()
        try:
            apply(state, seat, action)
        except IllegalAction as exc:
            raise GameFailed(f"seed {seed}: a bot's choice was refused: {exc.reason}") from exc
        actions += 1
        if actions > MAX_ACTIONS_PER_GAME:
            raise GameFailed(f"seed {seed}: no end after {MAX_ACTIONS_PER_GAME} actions")
    if keep is not None:  # the final state, for who wants more than the outcome
        keep.append(state)
    return game.outcome(state), actions


def play_seeded(game_name: str, bots: tuple[str, ...], seed: int,
                options: dict[str, Any] | None = None) -> dict[str, Any]:
    """One game by names (for worker processes): ``{"outcome", "actions"}`` or ``{"error"}``."""
    game = get_game(game_name)
    policies = [load_policy(game_name, b) for b in bots]
    try:
        outcome, n = play_game(game, policies, seed, options)
    except GameFailed as exc:
        return {"error": str(exc)}
    except Exception as exc:  # noqa: BLE001 - a crash is a failed game, reported by the caller
        return {"error": f"seed {seed}: {type(exc).__name__}: {exc}"}
    return {"outcome": outcome, "actions": n}


def _summary(record: dict[str, Any]) -> dict[str, Any]:
    """What selfplay's figures read of a game (small to send back from a worker)."""
    if "error" in record:
        return record
    o = record["outcome"]
    keep = {k: o[k] for k in ("winners", "scores", "result", "turns", "first_player") if k in o}
    return {"outcome": keep, "actions": record["actions"]}


def play_summary(game_name: str, bots: tuple[str, ...], seed: int,
                 options: dict[str, Any] | None = None) -> dict[str, Any]:
    """:func:`play_seeded`, cut to what the figures need."""
    return _summary(play_seeded(game_name, bots, seed, options))


def check_seats(game: Game, players: int, bots: list[str]) -> list[str]:
    """One policy per seat (one name for all seats is repeated); ValueError if they do not fit."""
    if not game.min_players <= players <= game.max_players:
        raise ValueError(f"{game.title} takes {game.min_players}–{game.max_players} players, "
                         f"not {players}")
    if len(bots) == 1:
        bots = bots * players
    if len(bots) != players:
        raise ValueError(f"--bots names {len(bots)} policies for {players} seats")
    return bots


def run_selfplay(game_name: str, players: int, games: int, seed: int, bots: list[str],
                 options: dict[str, Any] | None = None, progress: Progress | None = None,
                 runner: Runner | None = None) -> dict[str, Any]:
    """Play ``games`` games (seeds ``seed``, ``seed + 1``, …) and return the figures
    ``hexnet selfplay`` prints. ``runner`` spreads them over workers; the figures are the same
    whichever runner plays them (they are added up in seed order)."""
    game = get_game(game_name)
    if games < 1:
        raise ValueError(f"--games must be at least 1, not {games}")
    bots = check_seats(game, players, bots)
    for b in set(bots):
        load_policy(game_name, b)
    runner = runner or Runner()
    started = time.perf_counter()
    records = runner.map(play_summary, [(game_name, tuple(bots), seed + i, options)
                                        for i in range(games)],
                         progress.advance if progress else None)
    elapsed = max(time.perf_counter() - started, 1e-9)
    wins_by_seat = [0.0] * players
    score_sum = [0.0] * players
    results: Counter[str] = Counter()
    turns: list[float] = []
    first_wins, first_games = 0.0, 0
    failures: list[str] = []
    total_actions = 0
    for record in records:
        if "error" in record:
            failures.append(record["error"])
            continue
        outcome = record["outcome"]
        total_actions += record["actions"]
        winners = outcome.get("winners", [])
        for w in winners:
            wins_by_seat[w] += 1 / len(winners)
        for s, sc in enumerate(outcome.get("scores", [])):
            score_sum[s] += sc
        if "result" in outcome:
            results[str(outcome["result"])] += 1
        if isinstance(outcome.get("turns"), int):
            turns.append(outcome["turns"])
        if isinstance(outcome.get("first_player"), int):
            first_games += 1
            if outcome["first_player"] in winners:
                first_wins += 1 / len(winners)
    done = games - len(failures)
    by_policy: dict[str, list[float]] = {}
    for s, name in enumerate(bots):
        by_policy.setdefault(name, []).append(wins_by_seat[s] / max(done, 1))
    return {
        "game": game_name, "players": players, "games": games, "completed": done,
        "failures": failures, "seconds": round(elapsed, 3), "workers": runner.workers,
        "games_per_s": round(done / elapsed, 2),
        "actions_per_s": round(total_actions / elapsed, 1),
        "mean_actions_per_game": round(total_actions / max(done, 1), 1),
        "bots": bots,
        "win_rate_by_seat": [round(w / max(done, 1), 4) for w in wins_by_seat],
        "mean_score_by_seat": [round(s / max(done, 1), 2) for s in score_sum],
        "win_rate_by_policy": {k: round(sum(v) / len(v), 4) for k, v in by_policy.items()},
        "results": {k: round(v / max(done, 1), 4) for k, v in sorted(results.items())},
        "mean_turns": round(sum(turns) / len(turns), 2) if turns else None,
        "first_player_win_rate": round(first_wins / first_games, 4) if first_games else None,
    }


def print_report(r: dict[str, Any]) -> None:
    """The figures, for a person."""
    print(f"{r['game']}: {r['completed']}/{r['games']} games with {r['players']} players "
          f"({', '.join(r['bots'])}) in {r['seconds']} s on {r['workers']} "
          f"{'worker' if r['workers'] == 1 else 'workers'}")
    print(f"  {r['games_per_s']} games/s, {r['actions_per_s']} actions/s, "
          f"{r['mean_actions_per_game']} actions per game")
    print("  win rate by seat:   " + "  ".join(f"{w:.3f}" for w in r["win_rate_by_seat"]))
    print("  mean score by seat: " + "  ".join(f"{s:.2f}" for s in r["mean_score_by_seat"]))
    print("  win rate by policy (per seat): " + ", ".join(
        f"{k} {v:.3f}" for k, v in r["win_rate_by_policy"].items()))
    if r["results"]:
        print("  results: " + ", ".join(f"{k} {v:.1%}" for k, v in r["results"].items()))
    if r["mean_turns"] is not None:
        print(f"  mean turns: {r['mean_turns']}")
    if r.get("first_player_win_rate") is not None:
        print(f"  first player win rate: {r['first_player_win_rate']:.3f}")
    for f in r["failures"][:10]:
        print(f"  FAILED {f}")


def run(args: argparse.Namespace) -> int:
    """``hexnet selfplay``."""
    try:
        game = get_game(args.game)
        bots = check_seats(game, args.players, [
            budgeted(b, getattr(args, "think", None), getattr(args, "playouts", None))
            for b in args.bots.split(",")])
        for b in set(bots):
            load_policy(args.game, b)
        progress = Progress(args.games, "games", enabled=True if args.progress else None)
        with open_runner(args.workers, args.scheduler, tasks=args.games) as runner:
            report = run_selfplay(args.game, args.players, args.games, args.seed, bots,
                                  progress=progress, runner=runner)
        progress.close()
    except (KeyError, ValueError, IllegalAction, WorkersError) as exc:
        print(f"hexnet selfplay: {exc.args[0] if exc.args else exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_report(report)
    return 1 if report["failures"] else 0
