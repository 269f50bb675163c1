"""The journal file format: how a table's journal is laid out, and reading one back.

The host writes journals (:mod:`host.journal`); ``hexnet verify``, ``hexnet replay`` and the
host's recovery read them — the reading lives here, in the wire-and-file-format room, so the
client's replay needs nothing of the host.

File layout: the magic line ``HEXNET-JOURNAL 1\\n``, then records, each a 4-byte big-endian
length, a 4-byte CRC-32 of the payload and the payload (one msgpack map). The first record is the
header (``kind: "header"``: game, players, options, seed, salt, commitment, rng, table, seats);
then ``kind: "step"`` records (seat, action, digest of the public events), ``kind: "seats"``
records (who sits where, after a seat changed during play), ``kind: "timer"`` records (the
running deadline's key and when it ends, wall-clock seconds), ``kind: "watch"`` records (the
table's watching rules: ``allowed``, ``delay``; public, the host's and not the game's) and at
most one ``kind: "end"`` record (the outcome, and ``ended``: when, wall-clock seconds; the
club's ratings are computed in that order). A last record cut short by a power failure is
detected and dropped; damage anywhere else is refused. A journal is created mode 0600 in a
0700 directory: its header holds the seed, i.e. every hand of a game that may still be running.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgpack

MAGIC = b"HEXNET-JOURNAL 1\n"
_HEAD = struct.Struct(">II")
MAX_RECORD = 1 << 20
JOURNAL_DIR = "journals"  # a host keeps its journals in <data dir>/journals (host.recovery)
# ``hexnet play`` keeps its own in <data dir>/play/journals, where no ``hexnet host`` looks: a
# local game left unfinished is never brought back as a table of the LAN's host
PLAY_DIR = "play"


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
    watch: dict[str, Any] | None = None  # the last ``watch`` record
    torn: bool = False
    path: Path | None = None

    @property
    def finished(self) -> bool:
        return self.end is not None


def pack_record(record: dict[str, Any]) -> bytes:
    """One record as it is written: length, CRC-32, msgpack payload."""
    payload = msgpack.packb(record, use_bin_type=True)
    if len(payload) > MAX_RECORD:
        raise JournalError("journal record too large")
    return _HEAD.pack(len(payload), zlib.crc32(payload)) + payload


def parse_records(data: bytes) -> tuple[list[dict[str, Any]], int, bool]:
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


def valid_length(path: Path) -> int:
    """The length of the valid prefix of the journal at ``path`` (without a torn tail)."""
    return parse_records(path.read_bytes())[1]


def read_journal(path: str | Path) -> JournalContents:
    """Parse the journal at ``path``; a torn last record is dropped and reported as ``torn``."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise JournalError(f"cannot read {path}: {exc.strerror}") from exc
    found, _, torn = parse_records(data)
    if not found or found[0]["kind"] != "header":
        raise JournalError("the journal has no header record")
    contents = JournalContents(header=found[0], torn=torn, path=path)
    for record in found[1:]:
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
        elif record["kind"] == "watch":
            contents.watch = record
        else:
            raise JournalError(f"unknown record kind {record['kind']!r}")
    return contents
