"""Append-only table journals: every accepted action, written before its views go out.

The host writes each tick's records with ``os.write`` before any frame of that tick leaves (a
``kill -9`` of the host loses nothing anyone saw) and a :class:`Syncer` thread fsyncs them as a
group right after (a power cut can lose the records of the last fsync round — at most the
actions of the last few ticks, tens of milliseconds, which the players may have seen).

The file layout and the reader live in :mod:`protocol.journalfile` (the client's replay reads
journals too); the reader's names are re-exported here for the host's own use.
"""

from __future__ import annotations

import os
import threading
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
    def create(cls, path: Path, header: dict[str, Any]) -> Journal:
        """A new journal at ``path`` (which must not exist) starting with ``header``."""
        private_dir(path.parent)
        # 0600 from the first byte: the header holds the seed of a game still running
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        handle = os.fdopen(fd, "wb")
        journal = cls(path, handle)
        handle.write(MAGIC)
        journal.append({"kind": "header", **header})
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
        self._handle.write(pack_record(record))
        self._handle.flush()
        if sync:
            self.sync()

    def sync(self) -> None:
        """fsync what was written (no-op once closed)."""
        if not self._handle.closed:
            os.fsync(self._handle.fileno())

    def close(self) -> None:
        self._handle.close()


class Syncer:
    """A writer thread that fsyncs journals as a group: :meth:`dirty` marks a journal written
    to, the thread fsyncs every marked one, then waits for more (one fsync per journal per
    round however many records it got). :meth:`close_after` closes a journal once synced;
    :meth:`stop` syncs everything left and ends the thread. A failed fsync is logged and
    reported to ``failed(journal, why)``, called on the thread; ``close_after(journal, then)``
    calls ``then()`` on the thread once the journal is synced and closed (not if that
    failed)."""

    def __init__(self, log: Any = None,
                 failed: Callable[[Journal, str], None] | None = None) -> None:
        self._cv = threading.Condition()
        self._dirty: dict[int, Journal] = {}
        self._closing: set[int] = set()
        self._then: dict[int, Callable[[], None]] = {}
        self._stop = False
        self.rounds = 0
        self.log = log or (lambda line: None)
        self.failed = failed
        self._thread = threading.Thread(target=self._run, name="journal-fsync", daemon=True)
        self._thread.start()

    def dirty(self, journal: Journal) -> None:
        with self._cv:
            self._dirty[id(journal)] = journal
            self._cv.notify()

    def close_after(self, journal: Journal, then: Callable[[], None] | None = None) -> None:
        with self._cv:
            self._dirty[id(journal)] = journal
            self._closing.add(id(journal))
            if then is not None:
                self._then[id(journal)] = then
            self._cv.notify()

    def _run(self) -> None:
        while True:
            with self._cv:
                while not self._dirty and not self._stop:
                    self._cv.wait()
                batch, self._dirty = self._dirty, {}
                closing, self._closing = self._closing, set()
                then = {k: self._then.pop(k) for k in closing if k in self._then}
                stop = self._stop
            for key, journal in batch.items():
                durable = True
                try:
                    journal.sync()
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
