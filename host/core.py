"""What the sans-I/O core asks its shell to do: effects, the outbox that carries them, and the
core's error type.

The core (:class:`host.lobby.Lobby` and the parts it wires) never touches a socket or a clock.
Every change it makes is reported to its listener as a list of effects, once per call
(:class:`Outbox`); the asyncio shell (:mod:`host.server`) carries them out, tests just collect
them.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from protocol import frames


class LobbyError(Exception):
    """A request the lobby refuses; ``code`` + a sentence for the requester. Nothing changed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Send:
    """Send ``msg`` (a map) to connection ``conn`` — or ``data``, a frame already encoded
    (table frames are packed once, :mod:`host.render`); ``msg`` then decodes it on demand."""

    __slots__ = ("conn", "_msg", "data")

    def __init__(self, conn: int, msg: dict[str, Any] | None = None, *,
                 data: bytes | None = None) -> None:
        self.conn = conn
        self._msg = msg
        self.data = data

    @property
    def msg(self) -> dict[str, Any]:
        if self._msg is None:
            assert self.data is not None
            self._msg = frames.decode(self.data[4:])
        return self._msg

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Send) and (self.conn, self.msg) == (other.conn, other.msg)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Send(conn={self.conn}, msg={self.msg!r})"


class Frames:
    """A tick's table frames, already encoded: (connection, frame bytes) pairs, written in
    order (one effect per tick instead of one per frame). :meth:`sends` gives them as
    :class:`Send` effects (decoded on demand), for listeners and tests that read frames one by
    one. ``tables`` names each frame's table, in the same order: a table halted as the
    journal records were written has the frames made before that dropped by the shell, so no
    seat sees a state its journal does not hold."""

    __slots__ = ("frames", "tables")

    def __init__(self, frames: list[tuple[int, bytes]], tables: list[int] | None = None) -> None:
        self.frames = frames
        self.tables = tables if tables is not None else [0] * len(frames)

    def sends(self) -> list[Send]:
        return [Send(conn, data=data) for conn, data in self.frames]

    def __repr__(self) -> str:
        return f"Frames({len(self.frames)} frames)"


def one_by_one(effects: list[Effect]) -> list[Effect]:
    """``effects`` with each :class:`Frames` as its :class:`Send` effects, in order."""
    out: list[Effect] = []
    for e in effects:
        if type(e) is Frames:
            out += e.sends()
        else:
            out.append(e)
    return out


@dataclass(frozen=True)
class Close:
    """Close connection ``conn`` after sending it an ``error`` (code, message)."""

    conn: int
    code: str
    message: str


@dataclass(frozen=True)
class SetTimer:
    """(Re)start table ``table``'s timer: after ``seconds`` call ``lobby.timeout(table, key)``."""

    table: int
    key: str
    seconds: float


@dataclass(frozen=True)
class CancelTimer:
    """Stop table ``table``'s timer."""

    table: int


@dataclass(frozen=True)
class BotTurn:
    """A host-side bot is waited on: after the bot delay (``delay``: the table's own, set by its
    owner, :mod:`host.pause`; None: the host's), at least ``pause`` (the game's
    :meth:`hexnet.engine.Game.bot_pause`, so a person at the table gets their card in first),
    call ``lobby.bot_turn(table, seat, state_id)`` (a stale ``state_id`` is ignored there; it is
    the engine's state version, :attr:`host.table.Table.version`, not what the seats see)."""

    table: int
    seat: int
    state_id: int
    pause: float = 0.0
    delay: float | None = None


@dataclass(frozen=True)
class TableStarted:
    """A table's game began (journal hook): everything needed to replay it."""

    table: int
    game: str
    players: list[str]
    options: dict[str, Any]
    seed: bytes
    salt: bytes = b""  # with the seed behind the commitment the seats are shown
    seats: list[dict[str, Any]] = field(default_factory=list)  # kind, name, identity, policy


@dataclass(frozen=True)
class Accepted:
    """The engine accepted ``action`` for ``seat`` (None = host) at ``table`` (journal hook);
    ``state_id`` is the engine's state version after it (:attr:`host.table.Table.version`),
    ``digest`` that of its public events (computed once, by the table). Emitted before the
    views it causes."""

    table: int
    seat: int | None
    action: dict[str, Any]
    state_id: int
    events: list[dict[str, Any]] = field(default_factory=list)
    digest: str = ""


@dataclass(frozen=True)
class TableOver:
    """A table's game ended with ``outcome``."""

    table: int
    outcome: dict[str, Any]


@dataclass(frozen=True)
class SeatDisconnected:
    """The player of ``seat`` at a playing table lost its connection: after the host's grace
    period call ``lobby.absent_if_gone(table, seat)``."""

    table: int
    seat: int


@dataclass(frozen=True)
class SeatIdle:
    """The table waits on the connected player of ``seat``: after ``seconds`` call
    ``lobby.idle_due(table, seat)`` (the host's ``--idle-absent``)."""

    table: int
    seat: int
    seconds: float


@dataclass(frozen=True)
class SeatsChanged:
    """Who sits where at a playing table changed (a bot took an absent player's seat, the player
    came back, a seat went absent): journal hook, so a restarted host seats them alike."""

    table: int
    seats: list[dict[str, Any]]


@dataclass(frozen=True)
class WatchRulesChanged:
    """A playing table's watching rules (``allowed``, ``delay`` in actions) are set — at the
    start when they are not the defaults, and when the creator or the host switches watching:
    journal hook, so a restarted host keeps them (:mod:`host.watchers`)."""

    table: int
    allowed: bool
    delay: int


@dataclass(frozen=True)
class SeatingChanged:
    """The tables still seating changed; ``tables`` describes all of them (journal hook: a
    restarted host brings them back)."""

    tables: list[dict[str, Any]]


@dataclass(frozen=True)
class LobbyChanged:
    """Tables or seats changed: a coalesced lobby update went out (the shell refreshes mDNS
    TXT and dashboards)."""


@dataclass(frozen=True)
class LobbyDue:
    """A lobby update is due: the shell calls ``lobby.send_lobby()`` soon (at most a few times
    a second; lobby updates are coalesced)."""


@dataclass(frozen=True)
class TablesChanged:
    """A table has frames due: the shell calls ``lobby.send_due()`` at the end of this loop
    tick (after writing the journal records of the tick's actions)."""


@dataclass(frozen=True)
class Cadence:
    """Table ``table`` is in an open secret step: after ``seconds`` the shell calls
    ``lobby.cadence(table)`` (its next tick, :mod:`host.pacing`)."""

    table: int
    seconds: float


Effect = (Send | Frames | Close | SetTimer | CancelTimer | BotTurn | TableStarted | Accepted
          | TableOver | SeatDisconnected | SeatIdle | SeatsChanged | WatchRulesChanged
          | SeatingChanged | LobbyChanged | LobbyDue | TablesChanged | Cadence)


class Outbox:
    """The effects of the call being made, in order, until :meth:`flush` hands them to the
    listener. Every entry point of the core ends with a flush. ``before_flush`` (an unbatched
    core: tests, tools) first makes the table frames and the lobby update that are due, so
    each call is one whole change; the batched host calls those ticks itself."""

    def __init__(self, listener: Callable[[list[Effect]], None],
                 before_flush: Callable[[], None] | None = None) -> None:
        self.listener = listener
        self.before_flush = before_flush
        self.effects: list[Effect] = []

    def emit(self, effect: Effect) -> None:
        self.effects.append(effect)

    def flush(self) -> None:
        if self.before_flush is not None:
            self.before_flush()
        out, self.effects = self.effects, []
        if out:
            self.listener(out)


def clean_name(name: str, limit: int = 24) -> str:
    """``name`` without control, format (bidi) or unassigned characters, trimmed, ≤ ``limit``."""
    kept = "".join(c for c in name if unicodedata.category(c)[0] != "C")
    return " ".join(kept.split())[:limit] or "player"


_DIRECTION_MARKS = str.maketrans("", "", "\u200e\u200f")


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character → the representative of its TR39 class (UTS #39
    ``confusables.txt``, as the ``confusable-homoglyphs`` package ships it).

    The package keeps each line ``source ; prototype`` of the Unicode file as a pair in both
    directions, so the direction is read back from the pairs' shape: a source is one code point
    with exactly one partner (its prototype); a prototype is a sequence, or a character with
    several partners. Where a pair stands alone (one source, one prototype), either is taken
    for both (the smaller): equal keys then mean equal skeletons, which is all a key needs."""
    from confusable_homoglyphs.utils import load

    partners: dict[str, set[str]] = {}
    for char, glyphs in load("confusables.json").items():
        partners.setdefault(char.translate(_DIRECTION_MARKS), set()).update(
            g["c"].translate(_DIRECTION_MARKS) for g in glyphs)
    table: dict[str, str] = {}
    for char, others in partners.items():
        if len(char) != 1:
            continue
        longer = sorted(o for o in others if len(o) > 1)
        if longer:  # a source whose prototype is a sequence ("m" → "rn")
            table[char] = longer[0]
        elif len(others) == 1:
            (other,) = others
            table[char] = other if len(partners.get(other, ())) > 1 else min(char, other)
    return {char: proto for char, proto in table.items() if proto != char}


def _step(text: str) -> str:
    """One round: NFKC, case-folded, no format characters, each character its prototype."""
    text = unicodedata.normalize("NFKC", text).casefold()
    table = _prototypes()
    return unicodedata.normalize("NFD", "".join(
        table.get(c, c) for c in unicodedata.normalize("NFD", text)
        if unicodedata.category(c) != "Cf"))


@functools.lru_cache(maxsize=4096)  # the lobby asks for the same few names often
def name_key(name: str) -> str:
    """What two names must share to be the same name: NFKC, case-folded, without invisible
    (format) characters, then its Unicode TR39 confusable skeleton — repeated until nothing
    changes (a prototype may itself fold further: ``%`` → ``º/₀`` → ``o/o``), so a key is its
    own key. ``pi``, ``PI``, Cyrillic ``рі``, full-width ``ｐｉ`` and math-bold ``𝐩𝐢`` share one."""
    text = name
    for _ in range(8):  # two or three rounds reach the fixed point
        folded = _step(text)
        if folded == text:
            break
        text = folded
    return unicodedata.normalize("NFC", text)


def unique_name(wanted: str, taken: set[str], limit: int = 24) -> str:
    """``wanted``, or ``wanted (2)``, ``wanted (3)``, … — the first whose :func:`name_key` is
    not the key of a name in ``taken`` (names in use, or their keys: a key is its own key),
    cut to ``limit`` characters."""
    keys = {name_key(name) for name in taken}
    if name_key(wanted) not in keys:
        return wanted
    for n in range(2, 10_000):
        suffix = f" ({n})"
        candidate = wanted[:limit - len(suffix)].rstrip() + suffix
        if name_key(candidate) not in keys:
            return candidate
    raise LobbyError("name_taken", "No free variant of that name is left.")


def clean_text(text: str, limit: int = 300) -> str:
    """Chat text without control/format characters (newlines become spaces), ≤ ``limit``."""
    kept = "".join(c if unicodedata.category(c)[0] != "C" else " " for c in text)
    return kept.strip()[:limit]
