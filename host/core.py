"""What the sans-I/O core asks its shell to do: effects, the outbox that carries them, and the
core's error type.

The core (:class:`host.lobby.Lobby` and the parts it wires) never touches a socket or a clock.
Every change it makes is reported to its listener as a list of effects, once per call
(:class:`Outbox`); the asyncio shell (:mod:`host.server`) carries them out, tests just collect
them.
"""

from __future__ import annotations

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
    """A host-side bot is waited on: after the bot delay call
    ``lobby.bot_turn(table, seat, state_id)`` (a stale ``state_id`` is ignored there)."""

    table: int
    seat: int
    state_id: int


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
    ``state_id`` is the id after it. Emitted before the views it causes."""

    table: int
    seat: int | None
    action: dict[str, Any]
    state_id: int
    events: list[dict[str, Any]] = field(default_factory=list)


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


Effect = (Send | Close | SetTimer | CancelTimer | BotTurn | TableStarted | Accepted | TableOver
          | SeatDisconnected | SeatIdle | SeatsChanged | WatchRulesChanged | SeatingChanged
          | LobbyChanged | LobbyDue | TablesChanged)


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


def unique_name(wanted: str, taken: set[str], limit: int = 24) -> str:
    """``wanted``, or ``wanted (2)``, ``wanted (3)``, … — the first whose case-folded form is
    not in ``taken`` (case-folded names), cut to ``limit`` characters."""
    if wanted.casefold() not in taken:
        return wanted
    for n in range(2, 10_000):
        suffix = f" ({n})"
        candidate = wanted[:limit - len(suffix)].rstrip() + suffix
        if candidate.casefold() not in taken:
            return candidate
    raise LobbyError("name_taken", "No free variant of that name is left.")


def clean_text(text: str, limit: int = 300) -> str:
    """Chat text without control/format characters (newlines become spaces), ≤ ``limit``."""
    kept = "".join(c if unicodedata.category(c)[0] != "C" else " " for c in text)
    return kept.strip()[:limit]
