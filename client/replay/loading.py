"""A journal read, checked and set up for its viewer (:func:`load`), and the words for it — what
``hexnet replay`` and a profile's recent game (:mod:`client.screens.profile`) open."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from client.fairplay import verdict_lines
from hexnet.i18n import _

if TYPE_CHECKING:
    from hexnet.fairness import Verdict
    from hexnet.replay import Replay


class Refused(Exception):
    """A command line that cannot be carried out, with the sentence saying why."""


def load(args: argparse.Namespace) -> tuple[Replay, Verdict]:
    """The journal of ``args`` read, checked and set up for its viewer; Refused if it cannot
    be (unreadable, not verified, a seat that is not there, ``--all`` before the end)."""
    from hexnet.record import Record, RecordError, verify_record
    from hexnet.replay import ALL, Replay, ReplayError
    from protocol.journalfile import JournalError, read_journal

    try:
        record = Record.from_journal(read_journal(args.journal))
    except (JournalError, RecordError) as exc:
        raise Refused(str(exc)) from None
    viewer: int | str | None = None
    if args.all:
        if not record.finished:
            raise Refused(_("this game has not finished: --all shows every hand only after the "
                            "end; use --as SEAT or the public view (no option)"))
        viewer = ALL
    elif args.seat is not None:
        viewer = seat_of(args.seat, record.players)
    verdict = verify_record(record)
    if not verdict.ok:
        found = verdict_lines(verdict)
        raise Refused(_("the journal fails the check, it is not replayed: {why}").format(
            why=found[-1] if found else "?"))
    try:
        return Replay(record, viewer), verdict
    except (RecordError, ReplayError) as exc:
        raise Refused(str(exc)) from None


def seat_of(text: str, players: list[str]) -> int:
    """The seat ``text`` names: a number or a player's name (any case); Refused, in the reader's
    language, if none (:func:`hexnet.replay.parse_seat`)."""
    from hexnet.replay import ReplayError, parse_seat

    try:
        return parse_seat(text, players)
    except ReplayError:
        raise Refused(_("no seat {seat} at this table; the seats are {seats}").format(
            seat=repr(text.strip()), seats=", ".join(f"{i} {p}" for i, p in enumerate(players)))
        ) from None


def verdict_line(verdict: Verdict) -> str:
    """The check in one line: ``Verified: …`` (every line of the verdict)."""
    return _("Verified like hexnet verify: {lines}").format(
        lines=" ".join(verdict_lines(verdict)))
