"""The host's authenticated connections (part of the asyncio shell): frames in and out.

Frames are read by the connection's own :class:`asyncio.Protocol` (:class:`FrameReader`: the
transport's ``data_received`` cuts them out of what arrived, no task per connection) and written
straight to its transport: its buffer is the only queue, and a reader that lets more than
``write_high_water`` bytes pile up is dropped. A connection's silence is watched by one timer,
re-armed lazily, not a timeout per read. Every frame read counts against the connection's
message budget (:class:`host.limits.MessageLimiter`), valid or not; invalid input gets an
``error`` (code + sentence) and changes nothing; a frame over the cap closes that connection
only. What a valid message asks is handed to ``route`` — the one door into the core.
"""

from __future__ import annotations

import asyncio
import contextlib
import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from host import limits
from protocol import frames, messages, sanitize
from protocol.errors import FrameTooLarge, ProtocolError

_LEN = struct.Struct(">I")


@dataclass
class Link:
    """One authenticated connection: its stream (and transport), address, message budget and
    silence timer."""

    writer: asyncio.StreamWriter
    address: str
    limiter: limits.MessageLimiter = field(default_factory=limits.MessageLimiter)
    last_heard: float = 0.0
    closing: bool = False
    idle: asyncio.TimerHandle | None = None
    transport: asyncio.WriteTransport = field(init=False)

    def __post_init__(self) -> None:
        self.transport = self.writer.transport


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
        """Hand ``data`` to ``link``'s transport now (its buffer is the only queue). Once
        what waits there passes the high-water mark the transport says so
        (:meth:`FrameReader.pause_writing`) and the connection is dropped
        (:meth:`stopped_reading`)."""
        transport = link.transport
        if link.closing or transport.is_closing():
            return
        try:
            transport.write(data)
        except (ConnectionError, RuntimeError, OSError) as exc:
            self.log(f"write to {link.address} failed: {exc}")
            link.closing = True
            transport.abort()

    def stopped_reading(self, conn_id: int, link: Link) -> None:
        """``link``'s reader let more than ``write_high_water`` bytes pile up: it is dropped
        (at once: nothing more is written to it)."""
        if link.closing:
            return
        waiting = link.transport.get_write_buffer_size()
        self.log(f"#{conn_id} ({link.address}) stopped reading ({waiting} bytes waiting); "
                 "dropped")
        link.closing = True
        asyncio.get_running_loop().call_soon(link.transport.abort)  # (not inside its write)

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
        """Read ``link``'s frames until it ends or is closed: its transport is handed to a
        :class:`FrameReader` (with whatever the handshake's stream had read beyond it), which
        hands each frame to :meth:`received`."""
        transport = link.transport
        frames_in = FrameReader(self, conn_id, link)
        # what came right after the handshake is in the stream's buffer (pipelined frames)
        early = bytes(reader._buffer)  # noqa: SLF001 - the stream is done with; its bytes move
        reader._buffer.clear()  # noqa: SLF001
        if transport.is_closing() or reader.at_eof():
            return
        transport.set_protocol(frames_in)
        with contextlib.suppress(AttributeError, RuntimeError):
            transport.resume_reading()  # (the stream may have paused it)
        # past the mark the transport calls the reader's pause_writing: the client is dropped
        transport.set_write_buffer_limits(high=self.write_high_water)
        if early:
            frames_in.data_received(early)
        await frames_in.ended

    def received(self, conn_id: int, link: Link, payload: bytes | None) -> None:
        """One frame's payload from ``link`` (None: a frame over the cap), checked against the
        connection's budget, validated, and handed to ``route``."""
        problem: ProtocolError | None = None
        msg: dict[str, Any] = {}
        link.last_heard = asyncio.get_running_loop().time()
        try:
            if payload is None:
                raise FrameTooLarge(frames.POST_AUTH_MAX + 1, frames.POST_AUTH_MAX)
            msg = frames.decode(payload, frames.POST_AUTH_MAX)
            messages.validate(msg, "c2h")
            msg.pop("pad", None)
        except FrameTooLarge as exc:
            self._send(conn_id, link, exc.as_message())
            self._close(link)
            return
        except ProtocolError as exc:
            problem = exc
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
            return
        if problem is not None:
            self._send(conn_id, link, problem.as_message())
            return
        kind = msg["type"]
        if kind == "chat":
            msg["text"] = sanitize.clean_text(msg["text"])
        elif kind in messages.PRE_AUTH["c2h"]:
            self._send(conn_id, link, messages.error(
                "unexpected", f"A {kind!r} message is only valid in the handshake."))
            return
        try:
            self.route(conn_id, msg)
        except Exception as exc:  # noqa: BLE001 - a bug must not take the host down
            self.log(f"internal error handling {kind!r} from #{conn_id}: "
                     f"{type(exc).__name__}: {exc}")
            self._send(conn_id, link, messages.error(
                "internal", "The host failed on that request; it was not carried out."))


class FrameReader(asyncio.Protocol):
    """A logged-in connection's protocol: cuts length-prefixed frames out of the bytes as they
    arrive and hands each to :meth:`Links.received` (a length over the cap: None, and the
    connection is closed); ``ended`` is done once the connection is lost or closed."""

    def __init__(self, links: Links, conn_id: int, link: Link) -> None:
        self.links, self.conn_id, self.link = links, conn_id, link
        self.buffer = bytearray()
        self.ended: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def data_received(self, data: bytes) -> None:
        buffer = self.buffer
        buffer += data
        start = 0
        end = len(buffer)
        while end - start >= 4 and not self.link.closing:
            (length,) = _LEN.unpack_from(buffer, start)
            if length > frames.POST_AUTH_MAX:
                self.links.received(self.conn_id, self.link, None)
                start = end
                break
            if end - start - 4 < length:
                break
            payload = bytes(buffer[start + 4:start + 4 + length])
            start += 4 + length
            self.links.received(self.conn_id, self.link, payload)
        if self.link.closing:
            buffer.clear()
        elif start:
            del buffer[:start]

    def eof_received(self) -> bool:
        return False  # the transport closes itself

    def pause_writing(self) -> None:
        self.links.stopped_reading(self.conn_id, self.link)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.ended.done():
            self.ended.set_result(None)
