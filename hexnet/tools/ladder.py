"""``hexnet tournament``: an in-process ladder of bot entrants over many tables.

The pairing, ranking points and standings are :mod:`hexnet.tournament`'s; this module plays the
tables (in this process, over worker processes or on a Dask cluster: the same results for the
same seed), prints a line per table and the standings, and writes everything as JSON with
``--out``. Table ``k`` of the event (counted over all rounds) plays seed ``seed + k - 1``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import Any

from hexnet import ratings, seeds
from hexnet.games import get_game
from hexnet.options import OptionError, parse_flags
from hexnet.policies import PolicyError, load_policy
from hexnet.search import budgeted
from hexnet.tools.progress import Progress
from hexnet.tools.selfplay import play_seeded
from hexnet.tools.workers import Runner, WorkersError, open_runner
from hexnet.tournament import (
    History,
    Result,
    Round,
    TournamentError,
    bye_points,
    knockout_tables,
    planned_rounds,
    ranking,
    round_robin_schedule,
    swiss_tables,
    table_points,
)


def entrant_names(policies: list[str]) -> list[str]:
    """``["heuristic", "random"]`` → ``["heuristic-1", "random-2"]`` (seed order)."""
    return [f"{p}-{i + 1}" for i, p in enumerate(policies)]


def planned_tables(history: History, rounds: int) -> int:
    """Tables the event will play (for the progress bar)."""
    if history.fmt == "swiss":
        return rounds * len(swiss_tables(len(history.entrants), history.size, history.min_seats))
    if history.fmt == "round-robin":
        schedule = round_robin_schedule(history.entrants, history.size)
        return sum(len(schedule[r % len(schedule)][0]) for r in range(rounds))
    return sum(knockout_tables(history))


def parallel_tables(history: History, rounds: int) -> int:
    """The most tables of the event there is ever work for at once (more workers than this
    would idle): a round-robin draws all its rounds at once (:func:`run_ladder`), so every
    table it plans; Swiss and knockout one round at a time."""
    if history.fmt == "swiss":
        return len(swiss_tables(len(history.entrants), history.size, history.min_seats))
    if history.fmt == "round-robin":
        return planned_tables(history, rounds)
    return max(knockout_tables(history))


def prepare(game_name: str, size: int, policies: list[str], fmt: str, rounds: int | None
            ) -> tuple[History, int]:
    """Check the event and draw nothing yet: its empty history and the rounds it will play.
    Raises :class:`TournamentError` / :class:`PolicyError` with a sentence for the user."""
    game = get_game(game_name)
    if size < 2:
        raise TournamentError(f"--players must be at least 2, not {size}")
    if not game.min_players <= size <= game.max_players:
        raise TournamentError(f"{game.title} seats {game.min_players}–{game.max_players} "
                              f"per table, not {size}")
    if not policies:
        raise TournamentError("--bots names no entrants")
    for spec in set(policies):
        load_policy(game_name, spec)
    names = entrant_names(policies)
    history = History(names, size, fmt, bye_points(game_name, size), game.min_players)
    total = planned_rounds(fmt, len(names), size, rounds, names)
    if fmt == "knockout":
        history.next_round()  # a bracket that cannot be drawn is refused now
    return history, total


def run_ladder(game_name: str, size: int, policies: list[str], fmt: str, rounds: int | None,
               seed: int, runner: Runner | None = None,
               log: Callable[[str], None] = print, progress: Progress | None = None,
               options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Play the whole event (every table with the game's ``options``); return its standings,
    rounds and a record of every table."""
    history, total_rounds = prepare(game_name, size, policies, fmt, rounds)
    policy_of = dict(zip(history.entrants, policies, strict=True))
    if progress is not None:
        progress.total = planned_tables(history, total_rounds)
    runner = runner or Runner()
    records: list[dict[str, Any]] = []
    rated: dict[str, ratings.Rating] = {}
    started = time.perf_counter()
    table_seed = seed
    while len(history.rounds) < total_rounds:
        # A round-robin's rounds do not depend on results: draw them all and play them at once.
        batch: list[Round] = []
        while len(history.rounds) < total_rounds and (fmt == "round-robin" or not batch):
            rnd = history.next_round()
            history.add_round(rnd)
            batch.append(rnd)
        work, where = [], []
        for rnd in batch:
            for number, seats in enumerate(rnd.tables, 1):
                work.append((game_name, tuple(policy_of[e] for e in seats), table_seed,
                             dict(options or {})))
                where.append((rnd.number, number, seats, table_seed))
                table_seed += 1
        played = runner.map(play_seeded, work, progress.advance if progress else None)
        for (rnd_no, number, seats, table_seed_used), rec in zip(where, played, strict=True):
            records.append(_record(game_name, history, rnd_no, number, seats, table_seed_used,
                                   rec, log))
            rated.update(rate_table(game_name, rated, seats, records[-1]))
        for rnd in batch:
            if rnd.byes:
                log(f"round {rnd.number}: bye for {', '.join(rnd.byes)} "
                    f"({history.bye_points:g} points)")
    elapsed = max(time.perf_counter() - started, 1e-9)
    return {"game": game_name, "format": fmt, "rounds": total_rounds,
            "players_per_table": size, "options": dict(options or {}), "seed": seed,
            "workers": runner.workers,
            "seconds": round(elapsed, 2), "tables": len(records),
            "games_per_s": round(len(records) / elapsed, 2),
            "bye_points": history.bye_points,
            "standings": [s.as_dict() for s in history.standings()],
            "ratings": {name: rated.get(name, ratings.newcomer()).as_dict()
                        for name in history.entrants},
            "pairings": [{"round": r.number, "tables": [list(t) for t in r.tables],
                          "byes": list(r.byes)} for r in history.rounds],
            "records": records}


def _record(game_name: str, history: History, rnd: int, number: int, seats: tuple[str, ...],
            seed: int, played: dict[str, Any], log: Callable[[str], None]) -> dict[str, Any]:
    """Score one played table into ``history`` and return its record."""
    record: dict[str, Any] = {"round": rnd, "table": number, "seed": seed,
                              "entrants": list(seats)}
    if "error" in played:
        history.record(Result(rnd, number, seats, (0.0,) * len(seats), (), failed=True))
        log(f"round {rnd} table {number}: FAILED {played['error']}")
        return {**record, "error": played["error"]}
    outcome = played["outcome"]
    points = table_points(game_name, outcome, len(seats))
    first = tuple(sorted(outcome.get("winners", [])))
    history.record(Result(rnd, number, seats, tuple(points), first))
    won = ", ".join(seats[w] for w in first) or "nobody"
    log(f"round {rnd} table {number}: {' · '.join(seats)} → {won}")
    return {**record, "actions": played["actions"], "points": points, "outcome": outcome}


def rate_table(game_name: str, rated: dict[str, ratings.Rating], seats: tuple[str, ...],
                record: dict[str, Any]) -> dict[str, ratings.Rating]:
    """The OpenSkill ratings of a table's entrants after its result (a failed table rates
    nobody): placed by ranking points, or — a side game — as the teams of their sides. Every
    entrant is a bot whose skill does not change from game to game, so nothing drifts
    (``ratings.FIXED``): the longer the ladder, the narrower the error bars."""
    if "error" in record:
        return {}
    outcome = record["outcome"]
    if ranking(game_name) == "side" and outcome.get("roles"):
        roles = seeds.table(game_name)["roles"]
        teams, places = ratings.side_teams([roles[r]["side"] for r in outcome["roles"]],
                                           outcome.get("winners", []))
        return ratings.rate_teams(rated, [[seats[s] for s in t] for t in teams], places,
                                  ratings.FIXED)
    return ratings.rate_places(rated, seats, ratings.places_from_points(record["points"]),
                               ratings.FIXED)


def print_ratings(result: dict[str, Any], out: Callable[[str], None] = print) -> None:
    """Every entrant's OpenSkill rating with its error bar (mu ± 2 sigma), best first."""
    table = {n: ratings.Rating(r["mu"], r["sigma"]) for n, r in result["ratings"].items()}
    out(f"\nOpenSkill ratings (Plackett–Luce; mu ± {ratings.INTERVAL:g} sigma):")
    for name, r in ratings.ordered(table):
        out(f"  {name:<18} {r.mu:7.2f} ± {ratings.INTERVAL * r.sigma:5.2f}   "
            f"[{r.low():6.2f} … {r.high():6.2f}]")


def print_standings(result: dict[str, Any], out: Callable[[str], None] = print) -> None:
    """The final standings, one entrant a line, with the format's tie-breaks."""
    fmt = result["format"]
    rounds, tables = result["rounds"], result["tables"]
    out(f"\nStandings after {rounds} round{'s' * (rounds != 1)} ({tables} "
        f"table{'s' * (tables != 1)} in "
        f"{result['seconds']} s, {result['games_per_s']} games/s on {result['workers']} "
        f"{'worker' if result['workers'] == 1 else 'workers'}):")
    extra = {"swiss": "   med-B  Buchholz", "knockout": "  reached", "round-robin": ""}[fmt]
    out(f"  {'#':>3}  {'entrant':<18} {'points':>7}  wins{extra}  games  byes")
    for s in result["standings"]:
        cols = {"swiss": f"  {s['median_buchholz']:>6.2f}  {s['buchholz']:>8.2f}",
                "knockout": f"  {s['reached']:>7}", "round-robin": ""}[fmt]
        out(f"  {s['rank']:>3}. {s['name']:<18} {s['points']:>7.2f}  {s['wins']:>4}{cols}"
            f"  {s['games']:>5}  {s['byes']:>4}")


def run(args: argparse.Namespace) -> int:
    """``hexnet tournament``: a line per table, standings at the end, JSON with ``--out``."""
    policies = [budgeted(p.strip(), getattr(args, "think", None), getattr(args, "playouts", None))
                for p in args.bots.split(",") if p.strip()]
    progress = Progress(0, "tables", enabled=True if args.progress else None)
    try:
        history, rounds = prepare(args.game, args.players, policies, args.format, args.rounds)
        options = parse_flags(get_game(args.game), getattr(args, "option", None))
        with open_runner(args.workers, args.scheduler,
                         tasks=parallel_tables(history, rounds)) as runner:
            result = run_ladder(args.game, args.players, policies, args.format, args.rounds,
                                args.seed, runner=runner, log=progress.say, progress=progress,
                                options=options)
    except OptionError as exc:
        progress.close()
        print(f"hexnet tournament: {exc.message}", file=sys.stderr)
        return 2
    except (KeyError, PolicyError, TournamentError, WorkersError) as exc:
        progress.close()
        print(f"hexnet tournament: {exc.args[0] if exc.args else exc}", file=sys.stderr)
        return 2
    progress.close()
    print_standings(result)
    print_ratings(result)
    if args.out:
        try:
            with open(args.out, "w", encoding="utf-8") as f:
                json.dump(result, f, indent=1)
        except OSError as exc:
            print(f"hexnet tournament: cannot write {args.out}: {exc.strerror}", file=sys.stderr)
            return 1
        print(f"Wrote {args.out}")
    failed = [r for r in result["records"] if "error" in r]
    return 1 if failed else 0
