"""Append-only table journals: every accepted action, written before its views go out.

The host writes each tick's records with ``os.write`` before any frame of that tick leaves (a
``kill -9`` of the host loses nothing anyone saw) and a :class:`Syncer` thread fsyncs them as a
group right after (a power cut can lose the records of the last fsync round — at most the
actions of the last few ticks, tens of milliseconds, which the players may have seen).

File layout: the magic line ``HEXNET-JOURNAL 1\\n``, then records, each a 4-byte big-endian
length, a 4-byte CRC-32 of the payload and the payload (one msgpack map). The first record is the
header (``kind: "header"``: game, players, options, seed, salt, commitment, rng, table, seats);
then ``kind: "step"`` records (seat, action, digest of the public events), ``kind: "seats"``
records (who sits where, after a seat changed during play), ``kind: "timer"`` records (the
running deadline's key and when it ends, wall-clock seconds) and at most one ``kind: "end"``
record (the outcome). A last record cut short by a power failure is detected and
dropped; damage anywhere else is refused. A journal is created mode 0600 in a 0700 directory: its
header holds the seed, i.e. every hand of a game that may still be running.
"""

from __future__ import annotations

import os
import struct
import threading
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

import msgpack

from protocol.paths import private_dir, tighten

MAGIC = b"HEXNET-JOURNAL 1\n"
_HEAD = struct.Struct(">II")
MAX_RECORD = 1 << 20


class JournalError(Exception):
    """A journal that cannot be read as one (not a journal, or damaged before its last record)."""


@dataclass
class JournalContents:
    """What a journal holds. ``torn`` says a cut-short last record was dropped."""

    header: dict[str, Any]
    steps: list[dict[str, Any]] = field(default_factory=list)
    end: dict[str, Any] | None = None
    seats: list[dict[str, Any]] | None = None  # the last ``seats`` record's seats
    timer: dict[str, Any] | None = None  # the last ``timer`` record
    torn: bool = False
    path: Path | None = None

    @property
    def finished(self) -> bool:
        return self.end is not None


def _pack(record: dict[str, Any]) -> bytes:
    payload = msgpack.packb(record, use_bin_type=True)
    if len(payload) > MAX_RECORD:
        raise JournalError("journal record too large")
    return _HEAD.pack(len(payload), zlib.crc32(payload)) + payload


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
        size = _valid_length(contents.path)
        tighten(contents.path, 0o600)
        handle = open(contents.path, "r+b")  # noqa: SIM115 - closed by close()
        handle.truncate(size)
        handle.seek(size)
        return cls(contents.path, handle)

    def append(self, record: dict[str, Any], sync: bool = True) -> None:
        """Write ``record`` (``os.write``: safe from a crash of this process) and, with
        ``sync``, make it durable (fsync) before returning."""
        self._handle.write(_pack(record))
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
    reported to ``failed(journal, why)``, called on the thread."""

    def __init__(self, log: Any = None,
                 failed: Callable[[Journal, str], None] | None = None) -> None:
        self._cv = threading.Condition()
        self._dirty: dict[int, Journal] = {}
        self._closing: set[int] = set()
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

    def close_after(self, journal: Journal) -> None:
        with self._cv:
            self._dirty[id(journal)] = journal
            self._closing.add(id(journal))
            self._cv.notify()

    def _run(self) -> None:
        while True:
            with self._cv:
                while not self._dirty and not self._stop:
                    self._cv.wait()
                batch, self._dirty = self._dirty, {}
                closing, self._closing = self._closing, set()
                stop = self._stop
            for key, journal in batch.items():
                try:
                    journal.sync()
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


def _records(data: bytes) -> tuple[list[dict[str, Any]], int, bool]:
    """The records in ``data``, the length of the valid prefix, and whether a tail was torn."""
    if not data.startswith(MAGIC):
        raise JournalError("not a hexnet journal (bad magic line)")
    pos = len(MAGIC)
    records: list[dict[str, Any]] = []
    while pos < len(data):
        if pos + _HEAD.size > len(data):
            return records, pos, True
        length, crc = _HEAD.unpack_from(data, pos)
        end = pos + _HEAD.size + length
        if length > MAX_RECORD:
            raise JournalError(f"record at byte {pos} claims {length} bytes")
        if end > len(data):
            return records, pos, True
        payload = data[pos + _HEAD.size:end]
        if zlib.crc32(payload) != crc:
            if end == len(data):
                return records, pos, True
            raise JournalError(f"record at byte {pos} is damaged (checksum)")
        try:
            record = msgpack.unpackb(payload, raw=False, strict_map_key=True)
        except (ValueError, msgpack.UnpackException) as exc:
            raise JournalError(f"record at byte {pos} does not decode: {exc}") from exc
        if not isinstance(record, dict) or not isinstance(record.get("kind"), str):
            raise JournalError(f"record at byte {pos} is not a journal record")
        records.append(record)
        pos = end
    return records, pos, False


def _valid_length(path: Path) -> int:
    return _records(path.read_bytes())[1]


def read_journal(path: str | Path) -> JournalContents:
    """Parse the journal at ``path``; a torn last record is dropped and reported as ``torn``."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise JournalError(f"cannot read {path}: {exc.strerror}") from exc
    records, _, torn = _records(data)
    if not records or records[0]["kind"] != "header":
        raise JournalError("the journal has no header record")
    contents = JournalContents(header=records[0], torn=torn, path=path)
    for record in records[1:]:
        if record["kind"] == "step":
            if contents.end is not None:
                raise JournalError("a step follows the end of the game")
            contents.steps.append(record)
        elif record["kind"] == "end":
            contents.end = record
        elif record["kind"] == "seats" and isinstance(record.get("seats"), list):
            contents.seats = record["seats"]
        elif record["kind"] == "timer":
            contents.timer = record
        else:
            raise JournalError(f"unknown record kind {record['kind']!r}")
    return contents
