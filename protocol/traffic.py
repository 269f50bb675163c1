"""The traffic rule: what the wire shows must not depend on hidden information.

An eavesdropper on the Wi-Fi sees, for every TLS record, its length (≈ the plaintext frame's
length), its direction and its time; a player sees the same for their own connection. So:

**Downstream (host → seats).** Every change of a playing table — an accepted action, a timer, a
bot's move, a chat line at the table (the witches' whisper included), a refused action of a seat
(``rejected``), a table-level ``error``, a cover frame (below) — sends **every connected seat of
that table exactly one** ``view`` frame, and every frame of that change has **one length**: the
largest of them rounded up to the next multiple of :data:`DOWN_CLASS` (1 KiB), the others padded
to it (:func:`pad_frames`). Changes that arrive in one loop tick are one change. A seat whose view
did not change still gets its frame (without ``view``/``legal``: the client knows it is "same"
and skips decoding and drawing); a whisper reaches non-witches as a frame with nothing in it;
a seer's look, a theft, a refusal or an acknowledgement ride inside the one frame of their
seat. A reconnecting seat's full frame (view + whole log) is padded to the largest full frame of
any seat of its table. So the size, the count and the destinations of a table's frames follow
only public facts (who is seated and connected, that *something* happened at the table).
One exception bounds a flood: past a connection's refusal budget (``host.playing``: 10 at once,
then 2 a second) a refused action is answered in a frame to its sender alone — except at a
secret step, where it would stand out from a cover.

**Upstream (client → host).** After authentication every client frame carries a ``pad`` field
that makes it a multiple of :data:`UP_CLASS` (256 bytes) long (:func:`encode_up`): an action, a
ping, a cover and a short chat line are the same length. Where a game has a *secret step* — a
step at which only some seats, chosen by hidden roles, act (Fang: the protector's guard, the
witches' window, the seer's look and the pickpocket's theft while the evening's powers are open)
— every frame of the table names it (``cover``: ``{"key", "frames", "acts"}``, the same for all
seats), and **every connected seat sends exactly ``frames`` frames for it**: its own actions of
the kinds in ``acts``, and ``cover`` messages (``{"type": "cover", "table", "key"}``) for the
rest — a seat with nothing (left) to do at the step sends its covers after a short random delay
(0.05–0.4 s each); covers still owed when the step closes (a seer who never looked) go at once.
The host counts covers per seat and key (at most ``frames``) and answers each cover that comes
while its step is open like any change: one equal frame to every seat; covers for a closed step
are ignored. So for every secret step every seat sends the same number of equal-sized frames,
and those that come while it is open are each followed by the same burst to the table.

**Other replies.** ``rejected`` and table-level ``error`` replies of a seated player are part of
the table's frames (above), never a frame of their own. Lobby traffic (``lobby``,
``lobby_delta``, lobby chat, lobby ``error``) and ``pong`` concern public things only; the end
``reveal`` is the same for every seat.

**What stays visible** (by design, and written in the README): *when* each seat sends — human
think time and typing rhythm: covers come quickly, a human's real choice when they have made it,
so a player who thinks long at a secret step is seen thinking, and a seat whose frames come
after the step closed (owed covers, which get no burst) is seen not to have used a power; how
long a chat line is, in 256-byte steps; that a table had a change, and how big its largest
frame was, in 1 KiB steps (the same for every seat); who is connected and seated (the lobby
shows it anyway); the number of steps of a finished game (the reveal lists them).

This module holds the code both sides use: size classes, frames assembled from pre-packed
parts and padded (:func:`assemble`, :func:`pad_frames`), upstream padding (:func:`encode_up`),
and the client's rebuilding of full views and lobbies from deltas (:class:`ViewBook`,
:class:`LobbyBook`).
"""

from __future__ import annotations

import struct
import threading
from collections.abc import Iterable
from typing import Any

import msgpack

DOWN_CLASS = 1024
UP_CLASS = 256
LOG_KEEP = 40  # events of the log a client keeps (as the full view listed them before deltas)
LOBBY_CHUNK = 100  # tables per lobby frame
_LEN = struct.Struct(">I")
_PAD_KEY = msgpack.packb("pad")
_BIN8, _BIN16, _BIN32 = 0xC4, 0xC5, 0xC6
_PAD_MAX_HEAD = 5  # bin32 header


_local = threading.local()
_KEYS: dict[str, bytes] = {}  # field names, packed once


def packed(value: Any) -> bytes:
    """``value`` as msgpack bytes (the form every part of a frame is kept in). One packer per
    thread, reused: ``msgpack.packb`` builds a new one every call."""
    packer = getattr(_local, "packer", None)
    if packer is None:
        packer = _local.packer = msgpack.Packer(use_bin_type=True, autoreset=True)
    return packer.pack(value)


def _key(name: str) -> bytes:
    data = _KEYS.get(name)
    if data is None:
        data = packed(name)
        if len(_KEYS) < 4096:
            _KEYS[name] = data
    return data


def size_class(length: int, step: int = DOWN_CLASS) -> int:
    """``length`` rounded up to the next multiple of ``step`` (at least one step)."""
    return max(step, -(-length // step) * step)


def _map_head(n: int) -> bytes:
    if n < 16:
        return bytes([0x80 | n])
    return b"\xde" + struct.pack(">H", n)


def _bin_head(n: int) -> bytes:
    if n < 256:
        return bytes([_BIN8, n])
    if n < 65536:
        return bytes([_BIN16]) + struct.pack(">H", n)
    return bytes([_BIN32]) + struct.pack(">I", n)


def map_of(items: dict[str, bytes]) -> bytes:
    """A msgpack map assembled from values already packed."""
    n = len(items)
    head = bytes([0x80 | n]) if n < 16 else b"\xde" + struct.pack(">H", n)
    return head + body_of(items.items())


def body_of(parts: Iterable[tuple[str, bytes]]) -> bytes:
    """The key/value pairs of a map, values already packed (without the map header)."""
    return b"".join(_key(k) + v for k, v in parts)


def needed(parts: list[tuple[str, bytes]]) -> int:
    """The shortest padded frame (length prefix included) that holds ``parts``."""
    return _LEN.size + len(_map_head(len(parts) + 1)) + len(body_of(parts)) + len(_PAD_KEY) \
        + _PAD_MAX_HEAD


def assemble(parts: list[tuple[str, bytes]], size: int) -> bytes:
    """One frame of exactly ``size`` bytes (prefix included): a map of ``parts`` (values
    pre-packed msgpack) plus a ``pad`` field of zero bytes filling it up. ValueError if
    ``parts`` do not fit in ``size``."""
    head = _map_head(len(parts) + 1) + body_of(parts) + _PAD_KEY
    room = size - _LEN.size - len(head)
    for head_len in (2, 3, 5):
        n = room - head_len
        if n >= 0 and len(_bin_head(n)) == head_len:
            payload = head + _bin_head(n) + bytes(n)
            return _LEN.pack(len(payload)) + payload
    # room lies between two header sizes (e.g. 258, 65539): a longer length field than needed
    # is valid msgpack too
    if 0 <= room - 3 <= 0xFFFF:
        n = room - 3
        payload = head + bytes([_BIN16]) + struct.pack(">H", n) + bytes(n)
        return _LEN.pack(len(payload)) + payload
    if room - 5 >= 0:
        n = room - 5
        payload = head + bytes([_BIN32]) + struct.pack(">I", n) + bytes(n)
        return _LEN.pack(len(payload)) + payload
    raise ValueError(f"a frame of {len(head)} bytes does not fit in {size}")


def pad_frames(per_seat: dict[int, list[tuple[str, bytes]]], step: int = DOWN_CLASS,
               least: int = 0) -> tuple[int, dict[int, bytes]]:
    """Every seat's frame of one change, all of one length: the largest need (or ``least``)
    rounded up to ``step``. Returns (that length, seat → frame bytes)."""
    size = size_class(max([least, *(needed(p) for p in per_seat.values())]), step)
    return size, {seat: assemble(parts, size) for seat, parts in per_seat.items()}


def encode_up(msg: dict[str, Any], cap: int) -> bytes:
    """A client frame padded to a multiple of :data:`UP_CLASS` (ValueError past ``cap``)."""
    parts = [(k, packed(v)) for k, v in msg.items() if k != "pad"]
    data = assemble(parts, size_class(needed(parts), UP_CLASS))
    if len(data) - _LEN.size > cap:
        raise ValueError(f"a {msg.get('type')!r} message of {len(data)} bytes exceeds {cap}")
    return data


def pad_cost(msg: dict[str, Any], payload: bytes) -> int:
    """Bytes the ``pad`` field took in ``payload`` (a frame's msgpack, decoded as ``msg``; 0
    without one): the frame less this is the frame unpadded (``hexnet bench`` reports both).
    The pad is the last field (:func:`assemble`); its header is read from the bytes, since a
    frame may carry a longer one than its length needs."""
    pad = msg.get("pad")
    if not isinstance(pad, (bytes, bytearray)):
        return 0
    n, end = len(pad), len(payload) - len(pad)
    for head in ((_BIN8, n) if n < 256 else (),
                 (_BIN16, *struct.pack(">H", n)) if n < 65536 else (),
                 (_BIN32, *struct.pack(">I", n))):
        if head and payload[end - len(head):end] == bytes(head):
            return len(_PAD_KEY) + len(head) + n
    raise ValueError("the frame does not end with its pad field")


def without_pad(msg: dict[str, Any]) -> dict[str, Any]:
    """``msg`` without its ``pad`` field (a padded message validates as its plain form)."""
    msg.pop("pad", None)
    return msg


def news_in(frame: dict[str, Any]) -> bool:
    """Whether a ``view`` frame brings its seat anything (else it is a "same" frame)."""
    return any(k in frame for k in ("view", "view_delta", "view_gone", "legal", "answered")) \
        or bool(frame.get("log"))


class ViewBook:
    """A client's copy of its tables, rebuilt from ``view`` frames (full or delta).

    :meth:`absorb` takes one ``view`` frame and returns the messages it stands for, in the
    shapes screens have always read: a full ``view`` message (``view`` with ``state_id`` and
    ``log`` — the last :data:`LOG_KEEP` events the seat may see —, ``legal``, and
    ``answered``/``commitment`` when present) when something changed for this seat, then
    ``rejected``, ``error``, ``chat`` and ``emote`` messages carried inside the frame."""

    def __init__(self) -> None:
        self.views: dict[int, dict[str, Any]] = {}
        self.legal: dict[int, list[dict[str, Any]]] = {}
        self.logs: dict[int, list[dict[str, Any]]] = {}
        self.cover: dict[int, dict[str, Any] | None] = {}

    def absorb(self, frame: dict[str, Any]) -> list[dict[str, Any]]:
        table, sid = frame["table"], frame["state_id"]
        out: list[dict[str, Any]] = []
        changed = news_in(frame)
        if "view" in frame:
            self.views[table] = dict(frame["view"])
        elif table in self.views:
            self.views[table].update(frame.get("view_delta") or {})
            for key in frame.get("view_gone") or []:
                self.views[table].pop(key, None)
        if "legal" in frame:
            self.legal[table] = list(frame["legal"])
        log = self.logs.setdefault(table, [])
        if frame.get("log_reset"):
            log.clear()
        log.extend(frame.get("log") or [])
        del log[:-LOG_KEEP]
        self.cover[table] = frame.get("cover")
        base = self.views.get(table)
        if base is not None:
            base["state_id"] = sid
            if changed:
                view = dict(base)
                view["log"] = list(log)
                msg: dict[str, Any] = {"type": "view", "table": table, "view": view,
                                       "legal": self.legal.get(table, [])}
                for key in ("answered", "commitment"):
                    if key in frame:
                        msg[key] = frame[key]
                out.append(msg)
        if "rejected" in frame:
            out.append({"type": "rejected", "table": table, **frame["rejected"]})
        if "error" in frame:
            out.append({"type": "error", **frame["error"]})
        for line in frame.get("chat") or []:
            out.append({"type": "chat", **line})
        if "watchers" in frame:  # who watches the table (host/watchers.py)
            out.append({"type": "watchers", "table": table, "names": frame["watchers"]})
        for emote in frame.get("emotes") or []:  # quick reactions (host/emotes.py)
            out.append({"type": "emote", "table": table, **emote})
        return out


class LobbyBook:
    """A client's copy of the lobby, rebuilt from ``lobby`` (a full list, maybe continued by
    ``lobby_delta`` frames) and ``lobby_delta`` frames (changed tables, removed ids, ``you``).
    :meth:`absorb` returns the full ``lobby`` message screens read (tables by id)."""

    def __init__(self) -> None:
        self.tables: dict[int, dict[str, Any]] = {}
        self.you: dict[str, Any] = {}

    def absorb(self, msg: dict[str, Any]) -> dict[str, Any]:
        if msg["type"] == "lobby":
            self.tables = {}
        for info in msg.get("tables") or []:
            self.tables[info["id"]] = info
        for tid in msg.get("removed") or []:
            self.tables.pop(tid, None)
        if "you" in msg:
            self.you = msg["you"]
        return {"type": "lobby", "tables": [self.tables[k] for k in sorted(self.tables)],
                "you": dict(self.you)}
