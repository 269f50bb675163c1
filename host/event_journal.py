"""A tournament's own journal (part of the director, :mod:`host.event`).

The event's state — ``entrant``, ``start``, ``round`` (written before its tables start),
``journals`` (where those tables keep theirs), ``result``, ``standings`` and ``end`` records — is
an append-only journal (:mod:`host.journal`'s format, every record fsynced: rare and small) in
``data_dir/events/current.journal``. A host started again on the same data directory with the
same ``--tournament`` resumes it (:meth:`EventJournal.read`); a finished event's journal is
renamed ``<time>-<game>.journal`` beside it (:meth:`EventJournal.put_away`).

Read back, the journal is untrusted input like a table's (:mod:`host.journalcheck`): one that
cannot be read, does not hold what a host writes (:func:`host.journalcheck.check_event`) or
cannot be taken back is set aside (:meth:`EventJournal.set_aside`: renamed
``current.journal.set-aside-REASON``, logged) and a new event starts; only an unfinished event of
*another* game, format or table size stops the host, so that the organiser decides about it.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from host.journal import Journal, JournalContents, JournalError, read_records
from host.journalcheck import Unusable, check_event, set_aside
from protocol.paths import private_dir

EVENTS_DIR = "events"
CURRENT = "current.journal"


class EventError(Exception):
    """An event that cannot be run or resumed as asked (a sentence for the organiser)."""


class EventJournal:
    """The open journal of the event being run (None-safe: writing to a closed one does
    nothing)."""

    def __init__(self, data_dir: str | os.PathLike[str], log: Callable[[str], None]) -> None:
        self.dir = Path(data_dir) / EVENTS_DIR
        self.path = self.dir / CURRENT
        self.log = log
        self._journal: Journal | None = None

    def exists(self) -> bool:
        """Whether an unfinished event's journal is there to resume."""
        return self.path.exists()

    def create(self, header: dict[str, Any]) -> None:
        """Start the journal of a new event."""
        private_dir(self.dir)
        self._journal = Journal.create(self.path, header)

    def read(self, game: str, fmt: str, size: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The header and records of the unfinished event, which must be this one (``game``,
        format ``fmt``, tables of ``size``): :class:`EventError` if it is another's;
        :class:`host.journalcheck.Unusable` if it cannot be read or is not what a host
        writes (:func:`host.journalcheck.check_event`)."""
        path = self.path
        try:
            records, torn = read_records(path)
        except JournalError as exc:
            raise Unusable("unreadable", f"unreadable: {exc}") from exc
        head = records[0] if records and isinstance(records[0], dict) else {}
        if head.get("kind") != "header":
            raise Unusable("refused", "it has no header")
        if (head.get("game"), head.get("format"), head.get("size")) != (game, fmt, size):
            raise EventError(
                f"{path} holds an unfinished {str(head.get('format'))[:32]} tournament of "
                f"{str(head.get('game'))[:32]} at tables of {str(head.get('size'))[:8]}; run "
                "the same --tournament, --game and --table-size to resume it, or move the file "
                "away")
        if torn:
            self.log("tournament: a torn last journal record (cut off mid-write) was dropped")
        try:
            check_event(head, records[1:], game)
        except JournalError as exc:
            raise Unusable("refused", f"not what a host writes: {exc}") from exc
        return head, records[1:]

    def set_aside(self, unusable: Unusable) -> None:
        """The unfinished event's journal cannot be resumed: renamed with the reason beside
        the others (:func:`host.journalcheck.set_aside`) and logged."""
        set_aside(self.path, unusable.slug, f"tournament journal {self.path.name}: "
                  f"{unusable.why}; a new event starts", self.log)

    def reopen(self, header: dict[str, Any]) -> None:
        """Append to the journal :meth:`read` read (once its records were taken back)."""
        self._journal = Journal.reopen(JournalContents(header=header, path=self.path))

    def write(self, record: dict[str, Any]) -> None:
        """Append ``record`` (fsynced); a failure is logged loudly, the event goes on."""
        if self._journal is None:
            return
        try:
            self._journal.append(record)  # fsynced: rare and small
        except (OSError, JournalError) as exc:
            self.log(f"tournament: JOURNAL WRITE FAILED: {exc}")

    def close(self) -> None:
        """Close the journal (the event stays resumable)."""
        if self._journal is not None:
            self._journal.close()
            self._journal = None

    def put_away(self, game: str) -> None:
        """Close the finished event's journal and keep it as ``<time>-<game>.journal``."""
        if self._journal is not None:
            path = self._journal.path
            self._journal.close()
            self._journal = None
            stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
            try:
                os.replace(path, path.with_name(f"{stamp}-{game}.journal"))
            except OSError as exc:
                self.log(f"tournament: journal not put away: {exc}")
