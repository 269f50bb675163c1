"""The traffic rule: what the wire shows must not depend on hidden information.

An eavesdropper on the Wi-Fi sees, for every TLS record, its length (≈ the plaintext frame's
length), its direction and its time; a player sees the same for their own connection. So:

**Downstream (host → seats).** Every change of a playing table — an accepted action, a timer, a
bot's move, a chat line at the table (the witches' whisper included), a refused action of a seat
(``rejected``), a table-level ``error`` — sends **every connected seat of that table exactly
one** ``view`` frame (a *burst*), and every frame of that burst has **one length**: the largest
of them rounded up to the next multiple of :data:`DOWN_CLASS` (1 KiB), the others padded to it
(:func:`pad_frames`). Changes that arrive in one loop tick are one change. A seat whose view did
not change still gets its frame (without ``view``/``legal``: the client knows it is "same" and
skips decoding and drawing); a whisper reaches non-witches as a frame with nothing in it; a
seer's look, a theft, a refusal or an acknowledgement ride inside the one frame of their seat.
A reconnecting seat's full frame (view + whole log) is padded to the largest full frame of any
seat of its table. So the size, the count and the destinations of a table's frames follow only
public facts (who is seated and connected, that *something* happened at the table).
One exception bounds a flood: past a connection's refusal budget (``host.playing``: 10 at once,
then 2 a second) a refused action is answered in a frame to its sender alone — never at a secret
step, whose ticks carry every refusal.

**Numbers.** What a seat sees numbered counts only what every seat sees: ``state_id`` is the
table's publication counter (+1 per burst, whatever caused it: several actions applied at once,
a host bot's move, an absent seat's default, a look nobody else saw are all one publication or
none of their own), and an action quotes it; the log events a seat receives are numbered by its
own count (``n`` = 0, 1, 2, … of the events that seat may see), so other seats' private events
leave no gaps. A secret step's key is opaque (``s`` + the publication that opened it) and the
same for every seat; two scenes that must look alike to the others (Fang's pick and guard) are
one step.

**Secret steps** (:meth:`hexnet.engine.Game.secret_step`): steps at which who acts, or what a
seat chose, follows hidden information — Fang's picks and guard, the witches' window, the
evening while the seer's look and the pickpocket's theft may come, the votes; Hexenhammer's
reaction windows and the panic; Hranice's reaction windows. While one is open at a table every
frame of it carries ``secret`` {key, every} and both directions run on clocks, not on what
happens:

* *Upstream*, every connected client sends on one schedule, drawn the same way for every seat
  whatever its role and its choice: a first slot at a uniformly random offset in
  ``[0, every)`` after the frame that opened the step, then a slot every ``every`` seconds
  (:data:`SLOT_EVERY`) until a frame shows the step closed. Each slot carries the seat's next
  action if one is ready, else its next chat line, else a ``cover`` (``{"type": "cover",
  "table", "key"}``) of the same padded length; an action waits for the next slot. Chat on a
  private channel (the witches') is held until a step is open and rides in its slots, so a
  whisper never leaves on its own clock. An action still waiting when the step closes was
  chosen in it and is dropped (the client tells its player it came too late), never sent late.
* *Downstream*, the host applies nothing as it comes: actions, covers (read and dropped), host
  bots' choices and the timer's expiry wait for the step's next tick; every :data:`SLOT_EVERY`
  seconds the tick applies what waited (in the order it came), plays the absent seats' defaults
  (every such seat alike, never in the change that opened the step) and sends **every seat one
  frame, whether or not anything changed** — a constant stream, each tick's frames of one
  length, never shorter within the step than its ticks so far — and the tick that closes the
  step sends the close. What the host answers, and when, does not follow what arrived.

**Upstream (client → host).** After authentication every client frame carries a ``pad`` field
that makes it a multiple of :data:`UP_CLASS` (256 bytes) long (:func:`encode_up`): an action, a
ping, a cover and a short chat line are the same length.

**Other replies.** ``rejected`` and table-level ``error`` replies of a seated player are part of
the table's frames (above), never a frame of their own. Lobby traffic (``lobby``,
``lobby_delta``, lobby chat, lobby ``error``) and ``pong`` concern public things only; the end
``reveal`` is the same for every seat.

**What stays visible** (by design, and written in the README): that a secret step is open and
how long it lasts (its close comes when the last seat the game waited on acted, or its timer
ran out — so a step in which nobody present had anything to do, such as the witches' window
with every witch absent, closes at its first tick); everything outside secret steps — whose
turn it is is public there, and so is how long they take; that chat was sent, and how long a
line was, in 256-byte steps (a line longer than one slot's length makes its slot longer) and, in
a step, in the 1 KiB steps of the tick that carries it; that a table had a change, and how big
its largest frame was, in 1 KiB steps (the same for every seat); who is connected and seated (the
lobby shows it anyway); the number of steps of a finished game (the reveal lists them). The
cost: a secret action waits for its slot and for the tick (on average half a period each, at
most a period each: ≤ 2 × :data:`SLOT_EVERY`), and while a step is open every seat sends one
256-byte frame and receives one ≥ 1 KiB frame every :data:`SLOT_EVERY` seconds.

This module holds the code both sides use: size classes, frames assembled from pre-packed
parts and padded (:func:`assemble`, :func:`pad_frames`), upstream padding (:func:`encode_up`),
and the client's rebuilding of full views and lobbies from deltas (:class:`ViewBook`,
:class:`LobbyBook`).
"""

from __future__ import annotations

import struct
import threading
from collections.abc import Callable, Iterable
from typing import Any

import msgpack

DOWN_CLASS = 1024
UP_CLASS = 256
SLOT_EVERY = 0.25  # seconds between a client's slots, and between the host's ticks, in a step
SECRET_EVERY_RANGE = (0.02, 2.0)  # the ticks a host may be set to (hexnet host --secret-every)
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
    return packer()(value)


def packer() -> Callable[[Any], bytes]:
    """This thread's :func:`packed` (for a loop that packs many values)."""
    pack = getattr(_local, "pack", None)
    if pack is None:
        pack = _local.pack = msgpack.Packer(use_bin_type=True, autoreset=True).pack
    return pack


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
    return b"".join([_map_head(len(items)), *_pairs(items.items())])


def body_of(parts: Iterable[tuple[str, bytes]]) -> bytes:
    """The key/value pairs of a map, values already packed (without the map header)."""
    return b"".join(_pairs(parts))


def _pairs(parts: Iterable[tuple[str, bytes]]) -> list[bytes]:
    """Each part's packed key, then its value, in one flat list (for one join)."""
    out: list[bytes] = []
    for k, v in parts:
        out += (_key(k), v)
    return out


class Frame:
    """A frame's fields gathered once: packed keys and values in one flat list, with their
    count and total length, so its padded size is known without joining and it is joined once
    (:meth:`padded`)."""

    __slots__ = ("chunks", "count", "length")

    def __init__(self, parts: Iterable[tuple[str, bytes]] = ()) -> None:
        self.chunks = _pairs(parts)
        self.count = len(self.chunks) // 2
        self.length = sum(map(len, self.chunks))

    def needed(self) -> int:
        """The shortest padded frame (length prefix included) that holds the fields."""
        return _LEN.size + len(_map_head(self.count + 1)) + self.length + len(_PAD_KEY) \
            + _PAD_MAX_HEAD

    def padded(self, size: int) -> bytes:
        """The frame of exactly ``size`` bytes (prefix included): the map of the fields plus
        a ``pad`` field of zero bytes filling it up. ValueError if they do not fit."""
        map_head = _map_head(self.count + 1)
        head_len = len(map_head) + self.length + len(_PAD_KEY)
        pad = _pad_head(size - _LEN.size - head_len)
        if pad is None:
            raise ValueError(f"a frame of {head_len} bytes does not fit in {size}")
        pad_head, n = pad
        return b"".join([_LEN.pack(size - _LEN.size), map_head, *self.chunks, _PAD_KEY,
                         pad_head, _zeros(n)])


def needed(parts: list[tuple[str, bytes]]) -> int:
    """The shortest padded frame (length prefix included) that holds ``parts`` (from the
    parts' lengths: nothing is joined)."""
    return Frame(parts).needed()


def assemble(parts: list[tuple[str, bytes]], size: int) -> bytes:
    """One frame of exactly ``size`` bytes (prefix included): a map of ``parts`` (values
    pre-packed msgpack) plus a ``pad`` field of zero bytes filling it up, joined once.
    ValueError if ``parts`` do not fit in ``size``."""
    return Frame(parts).padded(size)


def _pad_head(room: int) -> tuple[bytes, int] | None:
    """The ``pad`` value's bin header and its length for ``room`` bytes (header included), or
    None if it does not fit. Where ``room`` lies between two header sizes (e.g. 258, 65539) a
    longer length field than needed is used: valid msgpack too."""
    n = room - 2
    if 0 <= n < 256:
        return bytes((_BIN8, n)), n
    n = room - 3
    if 0 <= n <= 0xFFFF:
        return _BIN16_HEAD + struct.pack(">H", n), n
    n = room - 5
    if n >= 0:
        return _BIN32_HEAD + struct.pack(">I", n), n
    return None


_BIN16_HEAD, _BIN32_HEAD = bytes([_BIN16]), bytes([_BIN32])
_ZEROS = bytes(1 << 16)


def _zeros(n: int) -> bytes | memoryview:
    """``n`` zero bytes (a view of one shared buffer up to 64 KiB)."""
    return memoryview(_ZEROS)[:n] if n <= len(_ZEROS) else bytes(n)


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
        self.secret: dict[int, dict[str, Any] | None] = {}  # the secret step open, if any

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
        self.secret[table] = frame.get("secret")
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
