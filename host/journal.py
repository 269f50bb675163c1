"""Append-only table journals: every accepted action, written before its views go out.

The host writes each tick's records with one ``os.write`` per journal before any frame of that
tick leaves (a ``kill -9`` of the host loses nothing anyone saw) and a :class:`Syncer` thread
fsyncs them as a group, at most every :data:`COMMIT_EVERY` seconds (at once when many journals
wait): a power cut can lose the records of the last fsync round and the one under way — at most
the actions of the last ~:data:`COMMIT_EVERY` seconds plus one fsync's time, which the players
may have seen. A new journal's file and directory are fsynced by the same thread, off the
event loop.

The file layout and the reader live in :mod:`protocol.journalfile` (the client's replay reads
journals too); the reader's names are re-exported here for the host's own use.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

from host.batches import BatchThread
from protocol.journalfile import (
    MAGIC,
    MAX_RECORD,
    JournalContents,
    JournalError,
    pack_record,
    parse_records,
    read_journal,
    valid_length,
)
from protocol.paths import private_dir, tighten

__all__ = ["MAGIC", "MAX_RECORD", "Journal", "JournalContents", "JournalError", "Syncer",
           "read_journal"]


class Journal:
    """An open journal, appended to and fsynced record by record."""

    def __init__(self, path: Path, handle: BinaryIO) -> None:
        self.path = path
        self._handle = handle

    @classmethod
    def create(cls, path: Path, header: dict[str, Any], sync: bool = True) -> Journal:
        """A new journal at ``path`` (which must not exist) starting with ``header``; with
        ``sync`` the file and its directory are fsynced before it returns (else hand it to
        :meth:`Syncer.created`)."""
        private_dir(path.parent)
        # 0600 from the first byte: the header holds the seed of a game still running
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        handle = os.fdopen(fd, "wb")
        journal = cls(path, handle)
        handle.write(MAGIC)
        journal.append({"kind": "header", **header}, sync=sync)
        if sync:
            _fsync_dir(path.parent)
        return journal

    @classmethod
    def reopen(cls, contents: JournalContents) -> Journal:
        """Continue an existing journal, first cutting off a torn last record."""
        assert contents.path is not None
        size = valid_length(contents.path)
        tighten(contents.path, 0o600)
        handle = open(contents.path, "r+b")  # noqa: SIM115 - closed by close()
        handle.truncate(size)
        handle.seek(size)
        return cls(contents.path, handle)

    def append(self, record: dict[str, Any], sync: bool = True) -> None:
        """Write ``record`` (``os.write``: safe from a crash of this process) and, with
        ``sync``, make it durable (fsync) before returning."""
        self.write(pack_record(record))
        if sync:
            self.sync()

    def write(self, records: bytes) -> None:
        """Write records already packed (:func:`protocol.journalfile.pack_record`), in one
        ``os.write``."""
        self._handle.write(records)
        self._handle.flush()

    def sync(self) -> None:
        """fsync what was written (no-op once closed)."""
        if not self._handle.closed:
            os.fsync(self._handle.fileno())

    def close(self) -> None:
        self._handle.close()


COMMIT_EVERY = 0.015  # seconds: the writer thread fsyncs at most this often…
COMMIT_AT_ONCE = 64  # …unless this many marks wait
# what the writer thread is handed: "dirty", "created" or "close", the journal, and for a
# close what to call once it is synced and closed
_Mark = tuple[str, Journal, Callable[[], None] | None]


class Syncer:
    """A writer thread that fsyncs journals as a group: :meth:`dirty` marks a journal written
    to; the thread fsyncs every marked one — at most every :data:`COMMIT_EVERY` seconds, at
    once when :data:`COMMIT_AT_ONCE` marks wait — then waits for more (one fsync per journal per
    round however many records it got). :meth:`created` marks a new journal whose directory
    is fsynced too; :meth:`close_after` closes a journal once synced; :meth:`stop` syncs
    everything left and ends the thread. Marking never waits (:class:`host.batches.
    BatchThread`). A failed fsync is logged and reported to ``failed(journal, why)``, called on
    the thread; ``close_after(journal, then)`` calls ``then()`` on the thread once the journal
    is synced and closed (not if that failed)."""

    def __init__(self, log: Any = None,
                 failed: Callable[[Journal, str], None] | None = None,
                 every: float = COMMIT_EVERY) -> None:
        self.log = log or (lambda line: None)
        self.failed = failed
        self._thread: BatchThread[_Mark] = BatchThread(
            "journal-fsync", self._round, every, COMMIT_AT_ONCE)

    @property
    def rounds(self) -> int:
        return self._thread.rounds

    def dirty(self, journal: Journal) -> None:
        self._thread.put(("dirty", journal, None))

    def created(self, journal: Journal) -> None:
        """A journal just created unsynced (:meth:`Journal.create`): its file and directory
        are fsynced in the next round."""
        self._thread.put(("created", journal, None))

    def close_after(self, journal: Journal, then: Callable[[], None] | None = None) -> None:
        self._thread.put(("close", journal, then))

    def _round(self, marks: list[_Mark]) -> None:
        """(The thread) One fsync per journal marked, its directory's too if it is new; then
        the journals to close are closed (and their ``then`` called if all went well)."""
        journals: dict[int, Journal] = {}
        new: set[int] = set()
        closing: set[int] = set()
        then: dict[int, Callable[[], None]] = {}
        for what, journal, after in marks:
            journals[id(journal)] = journal
            if what == "created":
                new.add(id(journal))
            elif what == "close":
                closing.add(id(journal))
                if after is not None:
                    then[id(journal)] = after
        for key, journal in journals.items():
            durable = True
            try:
                journal.sync()
                if key in new:
                    _fsync_dir(journal.path.parent)
            except (OSError, ValueError) as exc:
                durable = False
                self.log(f"JOURNAL WRITE FAILED: fsync of {journal.path}: {exc}")
                if self.failed is not None:
                    self.failed(journal, str(exc))
            if key in closing:
                try:
                    journal.close()
                except OSError as exc:  # (its last buffered bytes could not be written)
                    durable = False
                    self.log(f"JOURNAL WRITE FAILED: closing {journal.path}: {exc}")
                if durable and key in then:
                    then[key]()

    def stop(self) -> None:
        """Sync every journal still marked, then end the thread (bounded: 10 s)."""
        self._thread.stop(10.0)


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def read_records(path: str | Path) -> tuple[list[dict[str, Any]], bool]:
    """Every record of a journal file of this format (a table's or a tournament's,
    :mod:`host.event`) and whether a torn last record was dropped. JournalError if damaged."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise JournalError(f"cannot read {path}: {exc.strerror}") from exc
    records, _, torn = parse_records(data)
    return records, torn
