"""``hexnet host --tournament …``: the command line of a host tournament, checked up front.

:func:`tournament_settings` turns the flags into :class:`host.event.Director` keywords or raises
:class:`CliError` with one line for the organiser (``hexnet host`` prints it and exits 2).
"""

from __future__ import annotations

import argparse
import datetime as dt
import time
from typing import Any

DEFAULT_SIZE = 4
BOT_POLICIES = ("heuristic", "random", "easy", "normal", "hard")


class CliError(ValueError):
    """A tournament command line that cannot run (one sentence)."""


def parse_start_at(text: str, now: float | None = None) -> float:
    """``HH:MM[:SS]`` (today, local time; tomorrow if that time has passed) or an ISO date and
    time (local unless it names a zone) → seconds since the epoch. CliError if unreadable."""
    now = time.time() if now is None else now
    try:
        if "T" in text or "-" in text:
            when = dt.datetime.fromisoformat(text)
            return (when if when.tzinfo else when.astimezone()).timestamp()
        parts = [int(p) for p in text.split(":")]
        if len(parts) not in (2, 3):
            raise ValueError
        base = dt.datetime.fromtimestamp(now)
        when = base.replace(hour=parts[0], minute=parts[1],
                            second=parts[2] if len(parts) == 3 else 0, microsecond=0)
        if when.timestamp() < now:
            when += dt.timedelta(days=1)
        return when.timestamp()
    except ValueError:
        raise CliError(f"--start-at {text!r} is not a time: give HH:MM[:SS] or an ISO date "
                       "and time such as 2026-12-01T20:00") from None


def parse_options(engine: Any, items: list[str] | None) -> dict[str, Any]:
    """``KEY=VALUE`` flags → the game's options (true/false, numbers, words), checked against
    what the game declares with the players' bounds, and the host's watching options
    (``watch=false``, ``watch_delay=N``: a broadcast's delay, :mod:`host.watchers`) checked
    against theirs. CliError if one does not fit."""
    from hexnet.options import OptionError, parse_flags
    from host.watch_rules import WATCH_OPTIONS, WatchingOptions

    def key(item: str) -> str:
        return item.partition("=")[0]

    try:
        options = parse_flags(engine, [i for i in items or [] if key(i) not in WATCH_OPTIONS])
        options |= parse_flags(WatchingOptions(),
                               [i for i in items or [] if key(i) in WATCH_OPTIONS])
    except OptionError as exc:
        raise CliError(exc.message) from None
    return options


def tournament_settings(args: argparse.Namespace) -> dict[str, Any] | None:
    """The Director's keywords for the command line (None: no --tournament)."""
    tour_flags = ("game", "rounds", "table_size", "bots", "results", "start_when", "start_at",
                  "option", "entrants_per_address")
    if not getattr(args, "tournament", None):
        given = [f"--{f.replace('_', '-')}" for f in tour_flags
                 if getattr(args, f, None) is not None]
        given += ["--seed-by-rating"] * bool(getattr(args, "seed_by_rating", False))
        if given:
            raise CliError(f"{given[0]} belongs to a tournament; add --tournament "
                           "swiss|round-robin|knockout")
        return None
    from hexnet.games import get_game

    if not args.game:
        raise CliError("--tournament needs --game (the game every table plays)")
    engine = get_game(args.game)
    size = args.table_size
    if size is None:
        size = max(engine.min_players, min(DEFAULT_SIZE, engine.max_players))
    elif not engine.min_players <= size <= engine.max_players:
        raise CliError(f"--table-size {size}: {engine.title} seats "
                       f"{engine.min_players}–{engine.max_players} per table")
    if args.rounds is not None and args.tournament == "knockout":
        raise CliError("a knockout plays its bracket; leave out --rounds")
    bots, policy = 0, "heuristic"
    if args.bots is not None:
        policy, _, count = args.bots.partition(":")
        if policy not in BOT_POLICIES or not count.isdigit():
            raise CliError(f"--bots {args.bots!r}: give POLICY:K (K a number; POLICY one of "
                           f"{', '.join(BOT_POLICIES)})")
        bots = int(count)
    if args.start_when is not None and args.start_when < bots:
        raise CliError(f"--start-when {args.start_when} is fewer than the {bots} host bots")
    per_address = getattr(args, "entrants_per_address", None)
    if per_address is not None and per_address < 1:
        raise CliError(f"--entrants-per-address must be at least 1, not {per_address}")
    start_at = parse_start_at(args.start_at) if args.start_at is not None else None
    if args.results is not None and not args.results.endswith(".json"):
        raise CliError(f"--results {args.results!r} must name a .json file")
    options = parse_options(engine, args.option)
    seed_by_rating = bool(getattr(args, "seed_by_rating", False))
    if seed_by_rating and getattr(args, "no_history", False):
        raise CliError("--seed-by-rating needs the club's ratings; leave out --no-history")
    return {"game": args.game, "fmt": args.tournament, "size": size, "rounds": args.rounds,
            "bots": bots, "bot_policy": policy, "results": args.results,
            "start_when": args.start_when, "start_at": start_at, "pause": args.pause,
            **({"entrants_per_address": per_address} if per_address is not None else {}),
            "options": options, "seed_by_rating": seed_by_rating}
