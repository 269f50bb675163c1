"""``hexnet tournament``: Swiss or round-robin play between bot entrants over many tables.

Each entrant is a bot policy. Tables are played in-process with the same loop as ``selfplay``;
a win scores 1 point (shared on ties); standings rank by points, then total game score. The
standings and a record of every table (entrants by seat, seed, outcome) can be written as JSON.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from hexnet.games import get_game, get_policy
from hexnet.selfplay import GameFailed, play_game


@dataclass
class Entrant:
    """One seat-holder across the tournament."""

    name: str
    policy: str
    points: float = 0.0
    score: float = 0.0
    games: int = 0
    opponents: set[str] = field(default_factory=set)

    def standing(self) -> dict[str, Any]:
        return {"name": self.name, "policy": self.policy, "points": round(self.points, 3),
                "score": round(self.score, 2), "games": self.games}


def entrants_from(spec: str) -> list[Entrant]:
    """``"heuristic,random,random"`` → entrants named by policy and number."""
    policies = [p.strip() for p in spec.split(",") if p.strip()]
    return [Entrant(f"{p}-{i + 1}", p) for i, p in enumerate(policies)]


def swiss_tables(entrants: list[Entrant], size: int) -> list[list[Entrant]]:
    """Tables of ``size`` for one Swiss round: similar standings sit together.

    Entrants are ranked; each table takes the best-ranked free entrant and fills up with the
    next ones it has met least. Entrants beyond a multiple of ``size`` sit out (a bye).
    """
    ranked = sorted(entrants, key=lambda e: (-e.points, -e.score, e.name))
    free = ranked[:len(ranked) - len(ranked) % size]
    tables = []
    while free:
        table = [free.pop(0)]
        while len(table) < size:
            best = min(free, key=lambda e: (sum(e.name in t.opponents for t in table),
                                            free.index(e)))
            free.remove(best)
            table.append(best)
        tables.append(table)
    return tables


def round_robin_tables(entrants: list[Entrant], size: int) -> list[list[Entrant]]:
    """Every group of ``size`` entrants meets once."""
    return [list(group) for group in itertools.combinations(entrants, size)]


def run_tournament(game_name: str, players: int, entrants: list[Entrant], rounds: int,
                   fmt: str, seed: int, log=print) -> dict[str, Any]:
    """Play the whole tournament and return standings and records."""
    game = get_game(game_name)
    if not game.min_players <= players <= game.max_players:
        raise ValueError(f"{game.title} seats {game.min_players}–{game.max_players} per table")
    if len(entrants) < players:
        raise ValueError(f"{len(entrants)} entrants cannot fill a table of {players}")
    records: list[dict[str, Any]] = []
    started = time.perf_counter()
    table_seed = seed
    for rnd in range(1, rounds + 1):
        tables = (swiss_tables(entrants, players) if fmt == "swiss"
                  else round_robin_tables(entrants, players))
        for number, table in enumerate(tables, 1):
            # Rotate seats each round so no entrant keeps the first seat.
            shift = (rnd - 1) % players
            table = table[shift:] + table[:shift]
            policies = [get_policy(game_name, e.policy) for e in table]
            table_seed += 1
            try:
                outcome, actions = play_game(game, policies, table_seed)
            except GameFailed as exc:
                log(f"round {rnd} table {number}: FAILED {exc}")
                records.append({"round": rnd, "table": number, "seed": table_seed,
                                "entrants": [e.name for e in table], "error": str(exc)})
                continue
            winners = outcome.get("winners", [])
            for s, entrant in enumerate(table):
                entrant.games += 1
                entrant.score += outcome.get("scores", [0] * players)[s]
                entrant.opponents.update(e.name for e in table if e is not entrant)
                if s in winners:
                    entrant.points += 1 / len(winners)
            records.append({"round": rnd, "table": number, "seed": table_seed,
                            "entrants": [e.name for e in table], "actions": actions,
                            "outcome": outcome})
            won = ", ".join(table[w].name for w in winners) or "nobody"
            log(f"round {rnd} table {number}: {' · '.join(e.name for e in table)} → {won}")
    standings = sorted(entrants, key=lambda e: (-e.points, -e.score, e.name))
    return {"game": game_name, "format": fmt, "rounds": rounds, "players_per_table": players,
            "seconds": round(time.perf_counter() - started, 2),
            "standings": [e.standing() for e in standings], "records": records}


def run(args: argparse.Namespace) -> int:
    """``hexnet tournament``: plain log lines, standings at the end, JSON with ``--out``."""
    entrants = entrants_from(args.bots)
    try:
        for e in entrants:
            get_policy(args.game, e.policy)
        result = run_tournament(args.game, args.players, entrants, args.rounds, args.format,
                                args.seed, log=lambda line: print(line, flush=True))
    except (KeyError, ValueError) as exc:
        print(f"hexnet tournament: {exc.args[0] if exc.args else exc}", file=sys.stderr)
        return 2
    print(f"\nStandings after {args.rounds} rounds ({result['seconds']} s):")
    for rank, s in enumerate(result["standings"], 1):
        print(f"  {rank:>2}. {s['name']:<16} {s['points']:>6.2f} pts  score {s['score']:>7.1f}"
              f"  in {s['games']} games")
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(result, f, indent=1)
        print(f"Wrote {args.out}")
    failed = [r for r in result["records"] if "error" in r]
    return 1 if failed else 0
