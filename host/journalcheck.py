"""Journals and the seating file are read back from disk after a restart: untrusted input. What
they must hold before the host believes them, and what happens to one that fails.

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
from protocol.journalfile import JournalContents, JournalError

MAX_SEATS = 16  # more than any game seats
MAX_TABLE_ID = 1 << 31
KEY_BYTES = 32  # an identity: an Ed25519 public key
MAX_SEED_BYTES = 64
MAX_NAME = 64
SET_ASIDE = ".set-aside-"  # JOURNAL.journal → JOURNAL.journal.set-aside-REASON


def _need(ok: bool, why: str) -> None:
    if not ok:
        raise JournalError(why)


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
