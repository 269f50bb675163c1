"""Fang's balance study: who wins at every table size, with Wilson intervals.

``python -m hexnet.games.fang.balance --tables 200 --bots hard@64p --counts 4-12`` plays
``--tables`` games at each count with the same bot on every seat (``hexnet selfplay``'s
machinery: same seeds, same games, over ``--workers``) and prints the village's, the witches' and
the fool's share of the wins, each with its 95% Wilson interval, and whether it meets the
target (village and witches 40–60%, fool at most 15%). ``--option deal=…`` studies another role
table; ``--json F`` writes the figures.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Any

from hexnet.options import OptionError, parse_flags
from hexnet.selfplay import run_selfplay
from hexnet.workers import open_runner

Z95 = 1.959964
SIDES = ("village", "witches", "fool")


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win share (95% by default)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def fair(counts: dict[str, int], games: int) -> bool:
    """The target: village and witches each 40–60% of the games, the fool at most 15%."""
    share = {s: counts.get(s, 0) / max(games, 1) for s in SIDES}
    return (0.4 <= share["village"] <= 0.6 and 0.4 <= share["witches"] <= 0.6
            and share["fool"] <= 0.15)


def study(counts: list[int], tables: int, bots: str, seed: int, workers: int | None,
          options: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per table size: wins per side, games, seconds."""
    rows = []
    for n in counts:
        with open_runner(workers, None, tasks=tables) as runner:
            r = run_selfplay("fang", n, tables, seed + 1000 * n, [bots], options=options,
                             runner=runner)
        done = r["completed"]
        wins = {s: round(r["results"].get(s, 0.0) * done) for s in SIDES}
        rows.append({"players": n, "games": done, "wins": wins, "seconds": r["seconds"],
                     "failures": r["failures"][:3]})
        print(line(rows[-1]), flush=True)
    return rows


def line(row: dict[str, Any]) -> str:
    """A row as text: each side's share [interval]."""
    games = row["games"]
    parts = []
    for side in SIDES:
        k = row["wins"][side]
        lo, hi = wilson(k, games)
        parts.append(f"{side} {k / max(games, 1):5.1%} [{lo:5.1%}–{hi:5.1%}]")
    mark = "ok" if fair(row["wins"], games) else "--"
    return (f"{row['players']:>2} players, {games} games ({row['seconds']:.0f} s): "
            + " · ".join(parts) + f"  {mark}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hexnet.games.fang.balance",
                                     description="Fang's win shares per table size")
    parser.add_argument("--counts", default="4-12", help="table sizes: 4-12 or 5,8,12")
    parser.add_argument("--tables", type=int, default=200, help="games per table size")
    parser.add_argument("--bots", default="normal", help="the policy on every seat")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--option", action="append", metavar="KEY=VALUE")
    parser.add_argument("--json", metavar="FILE")
    args = parser.parse_args(argv)
    if "-" in args.counts:
        low, high = (int(x) for x in args.counts.split("-"))
        counts = list(range(low, high + 1))
    else:
        counts = [int(x) for x in args.counts.split(",")]
    from hexnet.games import get_game

    try:
        options = parse_flags(get_game("fang"), args.option)
    except OptionError as exc:
        print(f"balance: {exc.message}", file=sys.stderr)
        return 2
    print(f"Fang balance: {args.tables} tables a count, {args.bots} on every seat, options "
          f"{options or 'default'}", flush=True)
    rows = study(counts, args.tables, args.bots, args.seed, args.workers, options)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"bots": args.bots, "tables": args.tables, "options": options,
                       "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
