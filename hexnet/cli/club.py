"""``hexnet stats`` (the leaderboard, ``--forget``) and ``hexnet db rebuild``: the organiser's
commands on the club database (:mod:`host.club.store`). Every mistake is one line on stderr and
exit 2; a long rebuild shows a progress bar on stderr (:mod:`hexnet.tools.progress`)."""

from __future__ import annotations

import argparse
import csv
import sys
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from hexnet.tools.progress import Progress
from host.club.store import Club, Row
from protocol import paths


class Mistake(Exception):
    """A command line that cannot be carried out (one line for stderr)."""


def since_time(text: str | None) -> float | None:
    """``--since``: a local date (2026-01-31) or date and time (2026-01-31T20:00) as a time."""
    if text is None:
        return None
    try:
        return datetime.fromisoformat(text).timestamp()
    except ValueError:
        raise Mistake(f"--since takes a date (2026-01-31) or a date and time "
                      f"(2026-01-31T20:00), not {text!r}") from None


def _bar(enabled: bool) -> tuple[Callable[[int, int], None], Callable[[], None]]:
    """A progress callback drawing a bar once it knows the total, and its closer."""
    made: list[Progress] = []

    def step(done: int, total: int) -> None:
        if not made:
            made.append(Progress(total, unit="journals", enabled=enabled or None))
        made[0].advance(done - made[0].done)

    return step, lambda: made[0].close() if made else None


def _open(args: argparse.Namespace) -> Club:
    """The club database of ``--data-dir``, brought up to date with its journals."""
    step, close = _bar(getattr(args, "progress", False))
    try:
        return Club.open_or_rebuild(paths.data_dir(args.data_dir),
                                    lambda line: print(line, file=sys.stderr), step)
    finally:
        close()


def leaderboard_lines(rows: list[Row]) -> list[str]:
    """The leaderboard as text: per game a title and one line per player."""
    out: list[str] = []
    for game in dict.fromkeys(r.game for r in rows):
        mine = [r for r in rows if r.game == game]
        if out:
            out.append("")
        out.append(f"{game.capitalize()} — {len(mine)} rated")
        out.append(f"{'#':>3}  {'player':<24} {'key':<12} {'games':>5} {'wins':>5}  "
                   f"{'rating':<13} {'ordinal':>7}")
        for r in mine:
            key = "(bot)" if r.key.startswith("bot:") else r.key[:12]
            out.append(f"{r.rank:>3}  {r.name[:24]:<24} {key:<12} {r.games:>5} "
                       f"{r.wins:>5}  {r.rating.text():<13} {r.rating.ordinal:>7.2f}")
    return out


def write_csv(rows: list[Row]) -> None:
    """The leaderboard as CSV on stdout (full keys, unrounded ratings)."""
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["game", "rank", "name", "key", "games", "wins", "mu", "sigma", "ordinal"])
    for r in rows:
        out.writerow([r.game, r.rank, r.name, r.key, r.games, r.wins, f"{r.rating.mu:.6f}",
                      f"{r.rating.sigma:.6f}", f"{r.rating.ordinal:.6f}"])


def run_stats(args: argparse.Namespace) -> int:
    """``hexnet stats``: print the leaderboard, or forget a player."""
    try:
        since = since_time(args.since)
        if args.forget is not None:
            if args.csv or args.game or since is not None:
                raise Mistake("--forget takes no other option but --yes and --data-dir")
            return forget(args)
        if args.yes:
            raise Mistake("--yes goes with --forget")
        club = _open(args)
    except Mistake as exc:
        print(f"hexnet stats: {exc}", file=sys.stderr)
        return 2
    try:
        rows = club.leaderboard(args.game, since)
    finally:
        club.close()
    if args.csv:
        write_csv(rows)
    elif rows:
        print("\n".join(leaderboard_lines(rows)))
    else:
        print(f"hexnet stats: no rated games in {club.path}", file=sys.stderr)
    return 0


def forget(args: argparse.Namespace) -> int:
    """``hexnet stats --forget KEY [--yes]``: one player out of the database, after asking."""
    if not args.yes and not sys.stdin.isatty():
        raise Mistake("forgetting a player asks first: run it at a terminal, or add --yes")
    club = _open(args)
    try:
        keys = club.resolve(args.forget)
        if not keys:
            raise Mistake(f"no player {args.forget!r} in {club.path}")
        if len(keys) > 1:
            raise Mistake(f"{args.forget!r} starts {len(keys)} players' keys; give more of it")
        key = keys[0]
        name = club.query("SELECT name FROM players WHERE key = ?", [key])[0][0]
        games = club.query("SELECT count(*) FROM seats WHERE key = ?", [key])[0][0]
        if not args.yes:
            print(f"Forget {name} ({key[:12]}…)? Their names and ratings leave the club "
                  f"database for good; their {games} game{'s' * (games != 1)} stay, "
                  "anonymised.")
            if input("Type yes to forget them: ").strip().lower() != "yes":
                print("Nothing was changed.")
                return 1
        club.forget(key)
    except Mistake as exc:
        print(f"hexnet stats: {exc}", file=sys.stderr)
        return 2
    finally:
        club.close()
    print(f"Forgot {name} ({key[:12]}…): {games} game{'s' * (games != 1)} anonymised; a "
          "rebuild keeps them forgotten.")
    return 0


def run_db(args: argparse.Namespace) -> int:
    """``hexnet db rebuild [DIR…]``: the database again from journals alone (by default
    this host's; several directories merge)."""
    try:
        folders = [Path(d) for d in args.dirs]
        for folder in folders:
            if not folder.is_dir():
                raise Mistake(f"no such directory: {folder}")
        data = paths.data_dir(args.data_dir)
    except (Mistake, OSError) as exc:
        print(f"hexnet db: {exc}", file=sys.stderr)
        return 2
    club = Club.open(data, lambda line: print(line, file=sys.stderr))
    step, close = _bar(args.progress)
    try:
        report = club.rebuild(folders or [data], step)
    finally:
        close()
        club.close()
    print(f"{club.path}: {report.line()}")
    return 0
