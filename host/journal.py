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
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

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
COMMIT_AT_ONCE = 64  # …unless this many journals wait


class Syncer:
    """A writer thread that fsyncs journals as a group: :meth:`dirty` marks a journal written
    to; the thread fsyncs every marked one — at most every :data:`COMMIT_EVERY` seconds, at
    once when :data:`COMMIT_AT_ONCE` wait — then waits for more (one fsync per journal per
    round however many records it got). :meth:`created` marks a new journal whose directory
    is fsynced too; :meth:`close_after` closes a journal once synced; :meth:`stop` syncs
    everything left and ends the thread. A failed fsync is logged and reported to
    ``failed(journal, why)``, called on the thread."""

    def __init__(self, log: Any = None,
                 failed: Callable[[Journal, str], None] | None = None,
                 every: float = COMMIT_EVERY) -> None:
        self._cv = threading.Condition()
        self._dirty: dict[int, Journal] = {}
        self._closing: set[int] = set()
        self._new: set[int] = set()  # journals whose directory entry is not synced yet
        self._stop = False
        self.every = every
        self.rounds = 0
        self.log = log or (lambda line: None)
        self.failed = failed
        self._thread = threading.Thread(target=self._run, name="journal-fsync", daemon=True)
        self._thread.start()

    def dirty(self, journal: Journal) -> None:
        with self._cv:
            self._mark(journal)

    def created(self, journal: Journal) -> None:
        """A journal just created unsynced (:meth:`Journal.create`): its file and directory
        are fsynced in the next round."""
        with self._cv:
            self._new.add(id(journal))
            self._mark(journal)

    def close_after(self, journal: Journal) -> None:
        with self._cv:
            self._closing.add(id(journal))
            self._mark(journal)

    def _mark(self, journal: Journal) -> None:
        """(Holding the lock) ``journal`` waits for the next round; the thread is woken when
        the first one comes, or when enough wait to sync at once."""
        self._dirty[id(journal)] = journal
        if len(self._dirty) == 1 or len(self._dirty) == COMMIT_AT_ONCE:
            self._cv.notify()

    def _run(self) -> None:
        last = 0.0
        while True:
            with self._cv:
                while not self._dirty and not self._stop:
                    self._cv.wait()
                # the group window: what comes within it is synced in the same round
                while not self._stop and len(self._dirty) < COMMIT_AT_ONCE and (
                        left := last + self.every - time.monotonic()) > 0:
                    self._cv.wait(left)
                batch, self._dirty = self._dirty, {}
                closing, self._closing = self._closing, set()
                new, self._new = self._new, set()
                stop = self._stop
            last = time.monotonic()
            for key, journal in batch.items():
                try:
                    journal.sync()
                    if key in new:
                        _fsync_dir(journal.path.parent)
                except (OSError, ValueError) as exc:
                    self.log(f"JOURNAL WRITE FAILED: fsync of {journal.path}: {exc}")
                    if self.failed is not None:
                        self.failed(journal, str(exc))
                if key in closing:
                    try:
                        journal.close()
                    except OSError as exc:  # (its last buffered bytes could not be written)
                        self.log(f"JOURNAL WRITE FAILED: closing {journal.path}: {exc}")
            self.rounds += 1
            if stop and not batch:
                return

    def stop(self) -> None:
        """Sync every journal still marked, then end the thread (bounded: 10 s)."""
        with self._cv:
            self._stop = True
            self._cv.notify()
        self._thread.join(10.0)


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
