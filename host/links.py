"""The host's authenticated connections (part of the asyncio shell): frames in and out.

Frames are written straight to each connection's transport: its buffer is the only queue, and a
reader that lets more than ``write_high_water`` bytes pile up is dropped. A connection's silence
is watched by one timer, re-armed lazily, not a timeout per read. Every frame read counts against
the connection's message budget (:class:`host.limits.MessageLimiter`), valid or not; invalid
input gets an ``error`` (code + sentence) and changes nothing; a frame over the cap closes that
connection only. What a valid message asks is handed to ``route`` — the one door into the core.
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from host import limits
from protocol import frames, messages, sanitize
from protocol.errors import FrameTooLarge, ProtocolError


@dataclass
class Link:
    """One authenticated connection: its stream, address, message budget and silence timer."""

    writer: asyncio.StreamWriter
    address: str
    limiter: limits.MessageLimiter = field(default_factory=limits.MessageLimiter)
    last_heard: float = 0.0
    closing: bool = False
    idle: asyncio.TimerHandle | None = None


class Links:
    """Every live authenticated connection of a host, by connection id."""

    def __init__(self, log: Callable[[str], None], route: Callable[[int, dict[str, Any]], None],
                 *, idle_timeout: float, write_high_water: int,
                 message_limits: tuple[float, int, int]) -> None:
        self.log = log
        self.route = route
        self.idle_timeout = idle_timeout
        self.write_high_water = write_high_water
        self.message_limits = message_limits
        self.live: dict[int, Link] = {}

    @property
    def connections(self) -> dict[int, str]:
        """Live authenticated connections: id → peer address."""
        return {cid: link.address for cid, link in self.live.items()}

    def add(self, conn_id: int, writer: asyncio.StreamWriter, address: str) -> Link:
        """A connection just logged in: it is live from now on, its silence watched."""
        link = Link(writer, address, limiter=limits.MessageLimiter(*self.message_limits),
                    last_heard=asyncio.get_running_loop().time())
        self._watch_idle(conn_id, link)
        self.live[conn_id] = link
        return link

    def remove(self, conn_id: int) -> Link | None:
        """Forget a connection that ended (its silence timer stopped); it, if it was live."""
        link = self.live.pop(conn_id, None)
        if link is not None and link.idle is not None:
            link.idle.cancel()
        return link

    # -- out ---------------------------------------------------------------------------------
    def send(self, conn_id: int, msg: dict[str, Any]) -> None:
        """Encode ``msg`` and write it to connection ``conn_id`` (if live)."""
        link = self.live.get(conn_id)
        if link is not None:
            self._send(conn_id, link, msg)

    def write(self, conn_id: int, data: bytes) -> None:
        """Write an encoded frame to connection ``conn_id`` (if live)."""
        link = self.live.get(conn_id)
        if link is not None:
            self._write(conn_id, link, data)

    def close(self, conn_id: int, code: str, message: str) -> None:
        """Send connection ``conn_id`` an ``error`` and close it once that has gone out."""
        link = self.live.get(conn_id)
        if link is not None:
            self._send(conn_id, link, messages.error(code, message))
            self._close(link)

    def _send(self, conn_id: int, link: Link, msg: dict[str, Any]) -> None:
        try:
            data = frames.encode(msg, frames.POST_AUTH_MAX)
        except ValueError as exc:
            self.log(f"not sent to #{conn_id}: {exc}")
            return
        self._write(conn_id, link, data)

    def _write(self, conn_id: int, link: Link, data: bytes) -> None:
        """Hand ``data`` to ``link``'s transport now (its buffer is the only queue); drop the
        connection if what waits there would pass the high-water mark."""
        transport = link.writer.transport
        if link.closing or transport.is_closing():
            return
        waiting = transport.get_write_buffer_size() + len(data)
        if waiting > self.write_high_water:
            self.log(f"#{conn_id} ({link.address}) stopped reading ({waiting} bytes waiting); "
                     "dropped")
            link.closing = True
            transport.abort()
            return
        try:
            transport.write(data)
        except (ConnectionError, RuntimeError, OSError) as exc:
            self.log(f"write to {link.address} failed: {exc}")
            link.closing = True
            transport.abort()

    @staticmethod
    def _close(link: Link) -> None:
        """Close ``link`` once what was written to it has gone out."""
        if not link.closing:
            link.closing = True
            with contextlib.suppress(Exception):
                link.writer.close()

    def close_all(self) -> None:
        """Close every connection (the host stops)."""
        for link in list(self.live.values()):
            with contextlib.suppress(Exception):
                link.writer.close()

    def _watch_idle(self, conn_id: int, link: Link) -> None:
        """Close ``link`` with ``idle`` once nothing came from it for ``idle_timeout``: one
        timer per connection, re-armed for the time left (no timeout per read)."""
        loop = asyncio.get_running_loop()
        left = link.last_heard + self.idle_timeout - loop.time()
        if link.closing:
            return
        if left > 0:
            link.idle = loop.call_later(left, self._watch_idle, conn_id, link)
            return
        self._send(conn_id, link, messages.error("idle", "No message for too long."))
        self._close(link)

    # -- in ----------------------------------------------------------------------------------
    async def read(self, conn_id: int, reader: asyncio.StreamReader, link: Link) -> None:
        """Read ``link``'s frames until it ends or is closed: each checked against its budget,
        validated, and handed to ``route``."""
        loop = asyncio.get_running_loop()
        while not link.closing:
            problem: ProtocolError | None = None
            try:
                msg = await frames.read_frame(reader, frames.POST_AUTH_MAX)
                link.last_heard = loop.time()
                messages.validate(msg, "c2h")
                msg.pop("pad", None)
            except FrameTooLarge as exc:
                self._send(conn_id, link, exc.as_message())
                self._close(link)
                return
            except ProtocolError as exc:
                problem = exc
            except (asyncio.IncompleteReadError, ConnectionError, ssl.SSLError, OSError):
                return
            verdict = link.limiter.check()  # every frame counts, valid or not
            if verdict == limits.CLOSE:
                self.log(f"#{conn_id} ({link.address}) kept flooding; closed")
                self._send(conn_id, link, messages.error(
                    "rate_limited", "Too many messages; the host closed the connection."))
                self._close(link)
                return
            if verdict == limits.WARN:
                self._send(conn_id, link, messages.error(
                    "rate_limited", "Too many messages; slow down (this one was dropped)."))
            if verdict != limits.OK:
                continue
            if problem is not None:
                self._send(conn_id, link, problem.as_message())
                continue
            if msg["type"] == "chat":
                msg["text"] = sanitize.clean_text(msg["text"])
            if msg["type"] in messages.PRE_AUTH["c2h"]:
                self._send(conn_id, link, messages.error(
                    "unexpected", f"A {msg['type']!r} message is only valid in the handshake."))
                continue
            try:
                self.route(conn_id, msg)
            except Exception as exc:  # noqa: BLE001 - a bug must not take the host down
                self.log(f"internal error handling {msg['type']!r} from #{conn_id}: "
                         f"{type(exc).__name__}: {exc}")
                self._send(conn_id, link, messages.error(
                    "internal", "The host failed on that request; it was not carried out."))
