"""Fang's balance study: who wins at every table size, with Wilson intervals.

``python -m hexnet.tools.fang_balance --tables 200 --bots hard --counts 4-12 --out runs/b``
plays ``--tables`` games at each count with the same bot on every seat (seeds ``seed + 1000·n``
onwards, over ``--workers``) and prints the village's, the witches' and the fool's share of the
wins, each with its 95% Wilson interval, and whether it meets the target (village and witches
40–60%, fool at most 15%). ``--option deal=…`` studies another role table.

A game is deterministic given its seed, so a study is resumable: with ``--out DIR`` every game
is appended to ``DIR/<count>.jsonl`` as soon as its batch is played, a run skips the seeds its
files already hold, and ``--report`` only reads them. ``DIR/study.json`` names the bots,
options and seed; a run with other ones refuses the directory rather than mix two studies. A
run shows on stderr how many of the games still missing are played, with the time left (on a
terminal; ``--progress`` elsewhere: a line at every tenth of the way).

``--witches P`` seats another policy on the witches' side (witches and crow; the village and the
fool play ``--bots``): what one level is worth against another (``--bots hard --witches
normal`` against ``--bots normal``).

``--bots hard`` on its own means ``hard`` at the playout budget that matches the play-time think
(:data:`PLAY_TIME_PLAYOUTS`: measured with ``python -m hexnet.tools.searchbench --decisions``);
``hard@32p`` names a budget of its own.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hexnet.games import get_game
from hexnet.games.fang import behaviour, data
from hexnet.options import OptionError, parse_flags
from hexnet.policies import load_policy
from hexnet.tools.progress import Progress
from hexnet.tools.selfplay import GameFailed, play_game
from hexnet.tools.workers import open_runner

Z95 = 1.959964
SIDES = ("village", "witches", "fool")
# playouts a ``hard`` decision runs in the play-time think (0.5 s, 0.45 s of it searching) on
# one idle core of the study machine, by table size: the median over the decisions that
# searched among 90 positions of normal play (``python -m hexnet.tools.searchbench --game fang
# --players N --decisions 90 --policy hard --clock cpu --positions normal --seed 2``), measured
# again at c8d2c4b: the faster playouts of stop 35 bought 1.1–2.4× the old budgets
PLAY_TIME_PLAYOUTS = {4: 1232, 5: 543, 6: 350, 7: 299, 8: 158, 9: 158, 10: 137, 11: 133, 12: 82}


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


def data_fingerprint(players: int, options: dict[str, Any]) -> str:
    """The rules and behaviour data a game at ``players`` seats plays by: its role list and
    numbers (by the ``deal`` in ``options``), the rest of ``seeds/fang.toml`` and the behaviour
    model as the belief reads it (clipped: :data:`hexnet.games.fang.behaviour.FLOOR` counts). A
    study's games at one size share one, so it refuses to grow them under changed
    data — and a change at one size leaves the games of the others standing."""
    deal = str(options.get("deal", data.default_deal()))
    rest = {k: v for k, v in data.tab().items() if k not in ("deal", "deals", "bands")}
    rest["game"] = {k: v for k, v in rest["game"].items() if k != "deal"}
    payload = {"rules": rest, "roles": data.deal_for(players, deal),
               "numbers": data.band(players, deal), "behaviour": behaviour.model()}
    text = json.dumps(payload, sort_keys=True, ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def bots_for(bots: str, players: int) -> str:
    """The policy on every seat at ``players``: ``hard`` alone at its play-time budget."""
    return f"hard@{PLAY_TIME_PLAYOUTS[players]}p" if bots == "hard" else bots


class BySide:
    """``village`` for the village and the fool, ``witches`` for the witches and the crow (the
    role is in the seat's own view)."""

    def __init__(self, village: Any, witches: Any) -> None:
        self.village = village
        self.witches = witches

    def __call__(self, view: Any, legal: list[dict[str, Any]], rng: random.Random) -> Any:
        witch_side = data.side_of(view["role"]) == data.WITCHES
        return (self.witches if witch_side else self.village)(view, legal, rng)


def play_one(players: int, bots: str, seed: int, options: dict[str, Any],
             witches: str | None = None) -> dict[str, Any]:
    """One game (for a worker process): its seed, winning side, why, on which day, seconds."""
    started = time.process_time()
    policy = load_policy("fang", bots)
    if witches is not None:
        policy = BySide(policy, load_policy("fang", witches))
    row: dict[str, Any] = {"seed": seed}
    try:
        outcome, actions = play_game(get_game("fang"), [policy] * players, seed, options)
    except GameFailed as exc:
        row["error"] = str(exc)
    except Exception as exc:  # noqa: BLE001 - a crash is a failed game, reported by the caller
        row["error"] = f"seed {seed}: {type(exc).__name__}: {exc}"
    else:
        row.update(result=outcome["result"], reason=outcome["reason"], day=outcome["day"],
                   seals=outcome["seals"], actions=actions)
    row["cpu"] = round(time.process_time() - started, 2)
    return row


def read_rows(path: Path) -> dict[int, dict[str, Any]]:
    """The games a count's file holds, by seed (a half-written last line is ignored)."""
    rows: dict[int, dict[str, Any]] = {}
    if path.exists():
        for text in path.read_text(encoding="utf-8").splitlines():
            try:
                row = json.loads(text)
            except json.JSONDecodeError:
                continue
            rows[row["seed"]] = row
    return rows


def check_study(out: Path, meta: dict[str, Any], fingerprints: dict[str, str]) -> None:
    """Claim ``out`` for this study (ValueError if it holds another one's games, or games of
    one of these sizes played under other data: ``fingerprints`` by size)."""
    out.mkdir(parents=True, exist_ok=True)
    marker = out / "study.json"
    held = json.loads(marker.read_text(encoding="utf-8")) if marker.exists() else dict(meta)
    known = held.pop("data", {})
    if held != meta:
        raise ValueError(f"{out} holds another study ({held}); choose another --out")
    changed = sorted((int(n) for n, fp in fingerprints.items() if known.get(n, fp) != fp))
    if changed:
        sizes = ", ".join(str(n) for n in changed)
        raise ValueError(f"{out} holds games at {sizes} players played under other rules or "
                         "behaviour model (seeds/fang.toml, seeds/fang_behaviour.toml and its "
                         "clip, behaviour.FLOOR); choose another --out")
    known.update(fingerprints)
    text = json.dumps({**meta, "data": dict(sorted(known.items(), key=lambda kv: int(kv[0])))},
                      indent=1)
    # written whole or not at all: a second process growing other sizes of the same study may
    # read the marker at any moment
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=out, prefix=".study-",
                                     suffix=".json", delete=False) as temp:
        temp.write(text)
    os.chmod(temp.name, 0o644)  # (a temporary file is its owner's alone)
    os.replace(temp.name, marker)


def seeds_of(n: int, tables: int, seed: int) -> list[int]:
    """The seeds of the ``tables`` games at ``n`` seats."""
    return [seed + 1000 * n + i for i in range(tables)]


def missing(n: int, tables: int, seed: int, out: Path | None) -> int:
    """How many of the ``tables`` games at ``n`` seats ``out`` does not hold yet."""
    have = read_rows(out / f"{n}.jsonl") if out else {}
    return sum(1 for s in seeds_of(n, tables, seed) if s not in have)


def play_count(n: int, tables: int, bots: str, seed: int, options: dict[str, Any],
               workers: int, out: Path | None, batch: int,
               witches: str | None = None,
               played_some: Callable[[int], None] | None = None) -> list[dict[str, Any]]:
    """The ``tables`` games at ``n`` seats: those ``out`` holds, the rest played and appended
    (``played_some`` told how many after each batch)."""
    path = out / f"{n}.jsonl" if out else None
    have = read_rows(path) if path else {}
    seeds = seeds_of(n, tables, seed)
    todo = [s for s in seeds if s not in have]
    with open_runner(workers, None, tasks=max(1, len(todo))) as runner:
        for start in range(0, len(todo), batch):
            work = [(n, bots_for(bots, n), s, options,
                     None if witches is None else bots_for(witches, n))
                    for s in todo[start:start + batch]]
            played = runner.map(play_one, work)
            for row in played:
                have[row["seed"]] = row
            if path:
                with path.open("a", encoding="utf-8") as f:
                    f.writelines(json.dumps(row) + "\n" for row in played)
            if played_some is not None:
                played_some(len(played))
    return [have[s] for s in seeds]


def summary(n: int, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """A count's figures: wins per side, games, failures, CPU seconds per game."""
    done = [r for r in rows if "error" not in r]
    wins = {s: sum(1 for r in done if r["result"] == s) for s in SIDES}
    cpu = sum(r.get("cpu", 0.0) for r in rows) / max(len(rows), 1)
    return {"players": n, "games": len(done), "wins": wins, "cpu_per_game": round(cpu, 2),
            "failures": [r["error"] for r in rows if "error" in r][:3]}


def line(row: dict[str, Any]) -> str:
    """A row as text: each side's share [interval]."""
    games = row["games"]
    if not games:
        return f"{row['players']:>2} players, no games yet"
    parts = []
    for side in SIDES:
        k = row["wins"][side]
        lo, hi = wilson(k, games)
        parts.append(f"{side} {k / max(games, 1):5.1%} [{lo:5.1%}–{hi:5.1%}]")
    mark = "ok" if fair(row["wins"], games) else "--"
    played = f"{games} game" if games == 1 else f"{games} games"
    return (f"{row['players']:>2} players, {played} ({row['cpu_per_game']:.1f} s CPU a game): "
            + " · ".join(parts) + f"  {mark}")


def counts_of(text: str) -> list[int]:
    """``4-12`` or ``5,8,12``."""
    if "-" in text:
        low, high = (int(x) for x in text.split("-"))
        return list(range(low, high + 1))
    return [int(x) for x in text.split(",")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hexnet.tools.fang_balance",
                                     description="Fang's win shares per table size")
    parser.add_argument("--counts", default="4-12", help="table sizes: 4-12 or 5,8,12")
    parser.add_argument("--tables", type=int, default=200, help="games per table size")
    parser.add_argument("--bots", default="normal",
                        help="the policy on every seat (hard: at its play-time budget)")
    parser.add_argument("--witches", metavar="POLICY",
                        help="the policy on the witches' side (default: --bots)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--batch", type=int, default=0,
                        help="games played between writes to --out (default 4 a worker)")
    parser.add_argument("--option", action="append", metavar="KEY=VALUE")
    parser.add_argument("--out", metavar="DIR", help="per-count result files (resumable)")
    parser.add_argument("--report", action="store_true",
                        help="only print what --out holds (plays nothing)")
    parser.add_argument("--json", metavar="FILE", help="write the figures")
    parser.add_argument("--progress", action="store_true",
                        help="show progress on stderr even when it is not a terminal")
    args = parser.parse_args(argv)
    try:
        counts = counts_of(args.counts)
        options = parse_flags(get_game("fang"), args.option)
        out = Path(args.out) if args.out else None
        if args.report and out is None:
            raise ValueError("--report reads --out DIR")
        if out is not None and not args.report:  # a report reads any study
            meta = {"bots": args.bots, "options": options, "seed": args.seed,
                    "budgets": {str(n): bots_for(args.bots, n) for n in PLAY_TIME_PLAYOUTS}}
            if args.witches:
                meta["witches"] = {str(n): bots_for(args.witches, n) for n in PLAY_TIME_PLAYOUTS}
            check_study(out, meta, {str(n): data_fingerprint(n, options) for n in counts})
    except (OptionError, ValueError) as exc:
        print(f"fang_balance: {getattr(exc, 'message', None) or exc}", file=sys.stderr)
        return 2
    held_data: dict[str, str] = {}
    marker = out / "study.json" if args.report and out is not None else None
    if marker is not None and marker.exists():  # a report names the study's own bots
        study = json.loads(marker.read_text(encoding="utf-8"))
        args.bots, options = study.get("bots", args.bots), study.get("options", options)
        args.witches = next(iter(study.get("witches", {}).values()), None)
        held_data = study.get("data", {})
    seats = (f"{args.bots} for the village, {args.witches} for the witches" if args.witches
             else f"{args.bots} on every seat")
    print(f"Fang balance: {args.tables} tables a count, {seats}, options "
          f"{options or 'default'}", flush=True)
    rows = []
    to_play = 0 if args.report else sum(missing(n, args.tables, args.seed, out) for n in counts)
    progress = Progress(to_play, "games", enabled=True if args.progress else None)
    for n in counts:
        if args.report:
            held = read_rows(out / f"{n}.jsonl")  # type: ignore[operator]
            games = [held[s] for s in sorted(held)][:args.tables]
        else:
            games = play_count(n, args.tables, args.bots, args.seed, options, args.workers,
                               out, args.batch or 4 * args.workers, args.witches,
                               progress.advance)
        rows.append(summary(n, games))
        played_under = held_data.get(str(n))
        stale = played_under is not None and played_under != data_fingerprint(n, options)
        progress.say(line(rows[-1]) + ("  (played under other data than now)" if stale else ""))
    progress.close()
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"bots": args.bots, "tables": args.tables, "options": options,
                       "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
