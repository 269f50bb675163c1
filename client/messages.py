"""Typed messages the network worker posts to the UI.

The worker owns the :class:`client.session.Session`; everything it learns from the host arrives in
the UI as one of these. Screens never touch the socket: they render what these carry and send
intents back through :meth:`client.app.HexnetApp.send`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from textual.message import Message


@dataclass
class Connected(Message):
    """The handshake (and room code, if any) succeeded."""

    host_name: str
    fingerprint: str


@dataclass
class LobbyChanged(Message):
    """A ``lobby`` message: every table and where you sit."""

    lobby: dict[str, Any]


@dataclass
class ViewChanged(Message):
    """A ``view`` message: the engine's view of ``table`` for your seat, and your legal actions."""

    table: int
    view: dict[str, Any]
    legal: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class WatchViewChanged(Message):
    """A ``watch_view`` message: the public view of ``table``, which you watch."""

    table: int
    view: dict[str, Any]


@dataclass
class WatchersChanged(Message):
    """Who watches ``table`` (your table's frames say so when it changes)."""

    table: int
    names: list[str]


@dataclass
class Unwatched(Message):
    """The host ended your watching of ``table`` (forbidden, or the table is gone)."""

    table: int
    code: str
    message: str


@dataclass
class ActionRejected(Message):
    """The host refused an action (``code`` e.g. ``stale`` or ``illegal``); an ``illegal`` one
    carries the engine's ``reason`` as data (``{"key": ..., **args}``) to word here."""

    table: int
    code: str
    message: str
    reason: dict[str, Any] | None = None


@dataclass
class ChatPosted(Message):
    """A chat line from the host (``channel``: table, lobby or witches)."""

    sender: str
    text: str
    channel: str
    number: int | None = None  # a table line's number (the host resends them on reconnect)


@dataclass
class EmotePosted(Message):
    """A player at ``table`` (seat ``seat``) showed emote ``emote`` (seeds/emotes.toml)."""

    table: int
    seat: int
    emote: str


@dataclass
class RematchChanged(Message):
    """A ``rematch`` message: who agreed to play finished table ``offer["table"]`` again."""

    offer: dict[str, Any]


@dataclass
class HostError(Message):
    """An ``error`` message that did not end the connection."""

    code: str
    message: str


@dataclass
class LinkChanged(Message):
    """The session lost its connection and is reconnecting (``state`` "reconnecting", with the
    attempt and why) or is back ("connected")."""

    state: str
    attempt: int = 0
    message: str = ""


@dataclass
class FairPlayChecked(Message):
    """The host revealed a finished table's seed; ``line`` says whether it checked out."""

    table: int
    line: str


@dataclass
class Disconnected(Message):
    """The connection ended or could not be made; ``reason`` is a sentence for the player."""

    reason: str
    kind: str = "lost"


@dataclass
class TournamentChanged(Message):
    """A ``tournament`` message: where the host's tournament stands (standings included)."""

    event: dict[str, Any]


@dataclass
class ProfileArrived(Message):
    """A ``profile`` message: the profile of the player asked for (:mod:`client.club`)."""

    player: str
    profile: dict[str, Any]


@dataclass
class ReplayPart(Message):
    """One ``replay`` part of a finished game asked for (:mod:`client.club`)."""

    part: dict[str, Any]
