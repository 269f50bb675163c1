"""Journals and the seating file are read back from disk after a restart: untrusted input. What
they must hold before the host believes them, and what happens to one that fails. A tournament's
own journal (:mod:`host.event_journal`) likewise (:func:`check_event`).

A checksum only says a record is as it was written, not that a friendly program wrote it: a
crafted journal with valid checksums could name an empty seat at a playing table, a seed that is
the integer 2**40 (``bytes(2**40)`` asks for a terabyte), an identity that is not a key, a table
number msgpack cannot carry, a bot policy that does not exist, an option no game declares. The
checks here bound every field the host turns into a table before it does so (types, sizes,
ranges); whatever else a file gets wrong (a scenario the engine refuses, a step it will not
replay) surfaces as an exception when the table is rebuilt. Either way the file is set aside
(:func:`set_aside`: renamed with the reason in its name, and logged) and every other game is
served.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hexnet.games import get_game, get_policy
from hexnet.options import OptionError, check_options
from host.core import LobbyError
from host.watch_rules import split_options
from protocol.journalfile import JournalContents, JournalError
from protocol.messages import MAX_ENTRANTS

MAX_SEATS = 16  # more than any game seats
MAX_TABLE_ID = 1 << 31
KEY_BYTES = 32  # an identity: an Ed25519 public key
MAX_SEED_BYTES = 64
MAX_NAME = 64
SET_ASIDE = ".set-aside-"  # JOURNAL.journal → JOURNAL.journal.set-aside-REASON
MAX_EVENT_ROUNDS = 1000
MAX_PATH = 4096
MAX_COMMITMENT = 128  # a table's commitment: hex of a hash
STANDING_FIELDS = ("rank", "name", "points", "games", "wins", "byes", "buchholz",
                   "median_buchholz", "reached", "seed")


class Unusable(Exception):
    """A journal the host cannot resume: ``slug`` goes into its set-aside name, ``why`` into
    the log."""

    def __init__(self, slug: str, why: str) -> None:
        super().__init__(why)
        self.slug, self.why = slug, why


def _need(ok: bool, why: str) -> None:
    if not ok:
        raise JournalError(why)


def _whole(value: Any, low: int, high: int, what: str) -> int:
    _need(isinstance(value, int) and not isinstance(value, bool) and low <= value <= high,
          f"{what} is not a whole number {low}–{high}")
    return value


def _number(value: Any, what: str) -> None:
    _need(isinstance(value, int | float) and not isinstance(value, bool) and value == value
          and abs(value) < 1e12, f"{what} is not a number")


def _names(value: Any, known: set[str], what: str) -> list[str]:
    """``value`` as a list of different names, each one of ``known``."""
    _need(isinstance(value, list) and len(value) <= MAX_ENTRANTS, f"{what} is not a list")
    _need(all(isinstance(n, str) and n in known for n in value), f"{what} names a stranger")
    _need(len(set(value)) == len(value), f"{what} names someone twice")
    return value


def _key(value: Any, what: str) -> None:
    _need(value is None or (isinstance(value, bytes) and len(value) == KEY_BYTES),
          f"{what} is not a {KEY_BYTES}-byte key")


def check_seat(info: Any, game: str, playing: bool) -> None:
    """JournalError unless ``info`` is a seat record a table of ``game`` can hold (at a
    playing table: a player's seat or a bot with a policy the game has)."""
    _need(isinstance(info, dict), "a seat is not a map")
    kinds = ("human", "bot") if playing else ("human", "bot", "empty")
    _need(info.get("kind") in kinds, f"a seat of kind {str(info.get('kind'))[:16]!r}"
          + (" at a playing table" if playing else ""))
    _need(isinstance(info.get("name"), str) and len(info["name"]) <= MAX_NAME,
          "a seat's name is not a short text")
    _key(info.get("identity"), "a seat's identity")
    _key(info.get("reserved"), "a bot's reserved seat")
    for flag in ("absent", "absent_auto"):
        _need(isinstance(info.get(flag, False), bool), f"a seat's {flag} is not true/false")
    policy = info.get("policy")
    if info["kind"] == "bot":
        _need(isinstance(policy, str) and len(policy) <= MAX_NAME, "a bot without a policy")
        try:
            get_policy(game, policy)
        except (KeyError, ValueError) as exc:
            raise JournalError(f"bot policy {policy[:32]!r}: {exc}") from None
    else:
        _need(policy is None or isinstance(policy, str), "a seat's policy is not a text")


def check_table(game: Any, options: Any, seats: Any, table: Any, playing: bool) -> None:
    """JournalError unless game, options, seats and table number can make a table."""
    _need(isinstance(game, str), "the game is not named")
    try:
        engine = get_game(game)
    except KeyError as exc:
        raise JournalError(str(exc)) from None
    _need(isinstance(options, dict), "the options are not a map")
    try:
        check_options(engine, options, local=True)  # a tutorial's scenario is the host's own
    except OptionError as exc:
        raise JournalError(exc.message) from None
    _need(isinstance(seats, list) and 0 < len(seats) <= MAX_SEATS,
          f"not 1–{MAX_SEATS} seats")
    for info in seats:
        check_seat(info, game, playing)
    _need(isinstance(table, int) and not isinstance(table, bool)
          and 0 < table < MAX_TABLE_ID, "the table number is out of range")


def _seed(value: Any, what: str) -> None:
    _need(isinstance(value, bytes) and len(value) <= MAX_SEED_BYTES,
          f"the {what} is not at most {MAX_SEED_BYTES} bytes")


def check_journal(contents: JournalContents) -> None:
    """JournalError unless a table journal's header, seats and steps have the shapes the host
    writes (the game may still refuse to replay it)."""
    h = contents.header
    _seed(h.get("seed"), "seed")
    _seed(h.get("salt"), "salt")
    check_table(h.get("game"), h.get("options"), contents.seats or h.get("seats"),
                h.get("table"), playing=True)
    for i, step in enumerate(contents.steps, 1):
        seat = step.get("seat")
        _need(seat is None or (isinstance(seat, int) and not isinstance(seat, bool)
                               and 0 <= seat < MAX_SEATS), f"step {i}: not a seat")
        _need(isinstance(step.get("action"), dict), f"step {i}: the action is not a map")
    for record, what in ((contents.timer, "timer"), (contents.watch, "watch")):
        _need(record is None or isinstance(record, dict), f"the {what} record is not a map")
    if contents.timer is not None:
        ends = contents.timer.get("ends", 0.0)
        _need(isinstance(ends, int | float) and not isinstance(ends, bool) and ends == ends
              and abs(ends) < 1e12, "the timer's end is not a time")


def check_seating(record: Any) -> None:
    """JournalError unless ``record`` is a table still seating as the host keeps it."""
    _need(isinstance(record, dict), "not a map")
    check_table(record.get("game"), record.get("options"), record.get("seats"),
                record.get("id"), playing=False)
    _key(record.get("creator"), "the creator")
    seed = record.get("seed", 0)
    _need((isinstance(seed, int) and not isinstance(seed, bool) and 0 <= seed < 1 << 64)
          or (isinstance(seed, bytes) and len(seed) <= MAX_SEED_BYTES), "a bad seed")


def set_aside(path: Path, slug: str, why: str, log: Callable[[str], None]) -> Path | None:
    """Rename ``path`` so it is no longer read at a start — ``NAME.set-aside-SLUG`` beside it
    (``-2``, ``-3``, … if taken); nothing is deleted — and log ``why``; the new path, or None
    if it could not be renamed (then it is only left out)."""
    target = path.with_name(f"{path.name}{SET_ASIDE}{slug}")
    for n in range(2, 1000):
        if not target.exists():
            break
        target = path.with_name(f"{path.name}{SET_ASIDE}{slug}-{n}")
    try:
        os.replace(path, target)
    except OSError as exc:
        log(f"{why}; left out, could not be set aside ({exc.strerror or exc})")
        return None
    with contextlib.suppress(OSError):
        os.chmod(target, 0o600)
    log(f"{why}; set aside as {target.name} (every other game is served)")
    return target


def check_event(head: dict[str, Any], records: list[Any], game: str) -> None:
    """JournalError unless a tournament journal's header (of ``game``) and records have the
    shapes the host writes, and each record names only what came before it: entrants before
    the start, the start's entrants in the rounds, round numbers in order, each round's tables
    (of the game's sizes) before their journals and results. Table options within what players
    may choose (a crafted header must not stack the event's deals)."""
    engine = get_game(game)
    options = head.get("options")
    _need(isinstance(options, dict), "the options are not a map")
    try:
        game_options, _ = split_options(options, local=False)
        check_options(engine, game_options, local=False)
    except (LobbyError, OptionError) as exc:
        raise JournalError(f"the table options: {exc.message}") from None
    size = _whole(head.get("size"), engine.min_players, engine.max_players, "the table size")
    if head.get("rounds") is not None:
        _whole(head["rounds"], 1, MAX_EVENT_ROUNDS, "the rounds")
    entrants: list[str] = []
    started: set[str] | None = None
    tables: list[int] = []  # per round drawn: its tables
    for i, rec in enumerate(records, 1):
        _need(isinstance(rec, dict), f"record {i} is not a map")
        kind = rec.get("kind")
        what = f"record {i} ({str(kind)[:16]})"
        if kind == "entrant":
            _need(started is None and len(entrants) < MAX_ENTRANTS, f"{what} comes too late")
            name = rec.get("name")
            _need(isinstance(name, str) and 0 < len(name) <= MAX_NAME
                  and name not in entrants, f"{what}: not a new short name")
            _key(rec.get("identity"), f"{what}: the identity")
            policy = rec.get("policy", "heuristic")
            _need(isinstance(policy, str) and len(policy) <= MAX_NAME, f"{what}: the policy")
            if rec.get("identity") is None:
                try:
                    get_policy(game, policy)
                except (KeyError, ValueError):
                    raise JournalError(f"{what}: no bot policy {policy[:32]!r}") from None
            address = rec.get("address", "")
            _need(address is None or (isinstance(address, str) and len(address) <= MAX_NAME),
                  f"{what}: the address")
            entrants.append(name)
        elif kind == "start":
            _need(started is None, f"{what}: a second start")
            started = set(_names(rec.get("entrants"), set(entrants), f"{what}: the entrants"))
            _whole(rec.get("rounds"), 1, MAX_EVENT_ROUNDS, f"{what}: the rounds")
            if "at" in rec:
                _number(rec["at"], f"{what}: the time")
        elif kind == "round":
            _need(started is not None, f"{what} before the start")
            assert started is not None
            _whole(rec.get("number"), len(tables) + 1, len(tables) + 1, f"{what}: the number")
            drawn = rec.get("tables")
            _need(isinstance(drawn, list) and 0 < len(drawn) <= MAX_ENTRANTS,
                  f"{what}: the tables")
            seated: list[str] = []
            for t in drawn:
                _need(isinstance(t, list) and engine.min_players <= len(t) <= size,
                      f"{what}: a table of another size")
                seated += _names(t, started, f"{what}: a table")
            seated += _names(rec.get("byes"), started, f"{what}: the byes")
            _need(len(set(seated)) == len(seated), f"{what}: an entrant seated twice")
            ids = rec.get("table_ids")
            _need(isinstance(ids, list) and len(ids) == len(drawn), f"{what}: the table ids")
            for tid in ids:
                _whole(tid, 0, MAX_TABLE_ID, f"{what}: a table id")
            tables.append(len(drawn))
        elif kind == "journals":
            _need(bool(tables), f"{what} before a round")
            _whole(rec.get("number"), len(tables), len(tables), f"{what}: the round")
            ids, paths = rec.get("table_ids"), rec.get("journals")
            _need(isinstance(ids, list) and isinstance(paths, list)
                  and len(ids) == len(paths) == tables[-1], f"{what}: the tables")
            for tid, path in zip(ids, paths, strict=True):
                _whole(tid, 0, MAX_TABLE_ID, f"{what}: a table id")
                _need(isinstance(path, str) and len(path) <= MAX_PATH, f"{what}: a path")
        elif kind == "result":
            _check_result(rec.get("game"), tables, started or set(), what)
        elif kind == "standings":
            _check_standings(rec, len(tables), what)
        elif kind == "rating":
            _check_rating(rec, started or set(), what)
        elif kind != "end":
            raise JournalError(f"{what}: not a record a host writes")


def _check_standings(rec: dict[str, Any], drawn: int, what: str) -> None:
    """JournalError unless ``rec`` is the standings after one of the ``drawn`` rounds."""
    _whole(rec.get("round"), 1, max(1, drawn), f"{what}: the round")
    rows = rec.get("standings")
    _need(isinstance(rows, list) and len(rows) <= MAX_ENTRANTS, f"{what}: the rows")
    for row in rows:
        _need(isinstance(row, dict) and set(row) <= set(STANDING_FIELDS), f"{what}: a row")
        for key, value in row.items():
            if key == "name":
                _need(isinstance(value, str) and len(value) <= MAX_NAME, f"{what}: a name")
            else:
                _number(value, f"{what}: a row's {key}")


def _check_rating(rec: dict[str, Any], started: set[str], what: str) -> None:
    """JournalError unless ``rec`` is the club's rating of a game, as :meth:`host.results.
    Results.rate` writes it: its commitment, and per entrant by name μ and σ before and after."""
    commitment = rec.get("commitment")
    _need(isinstance(commitment, str) and 0 < len(commitment) <= MAX_COMMITMENT,
          f"{what}: the commitment")
    ratings = rec.get("ratings")
    _need(isinstance(ratings, dict), f"{what}: the ratings")
    _names(list(ratings), started, f"{what}: the ratings")
    for rated in ratings.values():
        _need(isinstance(rated, dict) and set(rated) == {"before", "after"},
              f"{what}: a rating")
        for side in rated.values():
            _need(isinstance(side, dict) and set(side) == {"mu", "sigma"}, f"{what}: a rating")
            for value in side.values():
                _number(value, f"{what}: a rating")


def _check_result(game: Any, tables: list[int], started: set[str], what: str) -> None:
    """JournalError unless ``game`` is a finished table of a round drawn, as results keep it."""
    _need(isinstance(game, dict), f"{what}: not a map")
    number = _whole(game.get("round"), 1, max(1, len(tables)), f"{what}: the round")
    _need(bool(tables), f"{what} before a round")
    _whole(game.get("table"), 1, tables[number - 1], f"{what}: the table")
    seats = _names(game.get("entrants"), started, f"{what}: the entrants")
    points = game.get("points")
    _need(isinstance(points, list) and len(points) == len(seats), f"{what}: the points")
    for p in points:
        _number(p, f"{what}: a point")
    _need(isinstance(game.get("failed"), bool), f"{what}: failed is not true/false")
    outcome = game.get("outcome")
    _need(outcome is None or isinstance(outcome, dict), f"{what}: the outcome")
    winners = (outcome or {}).get("winners", [])
    _need(isinstance(winners, list) and all(isinstance(w, int) and not isinstance(w, bool)
                                            for w in winners), f"{what}: the winners")
