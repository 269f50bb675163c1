"""The game port's front desk (part of the asyncio shell): accept, TLS, handshake, room code.

A new TCP connection is counted by the gate of unauthenticated connections
(:class:`host.limits.Gate`: caps per address and in total, evicting the least advanced) before any
TLS work, upgraded to TLS 1.3, and then runs the handshake: ``hello`` (protocol version, identity,
nonce) → ``welcome`` → ``auth`` (the identity's signature, and the room-code proof unless the host
is open or the identity already holds a seat). Room-code checks back off per identity and address
(:class:`protocol.auth.RateLimiter`); an address brings only so many new identities an hour
(:class:`host.newcomers.Newcomers`). A failed handshake gets an ``error`` and closes that
connection only; a logged-in one is handed to ``joined`` for as long as it lives.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import math
import secrets
import ssl
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from host import limits
from host.newcomers import Newcomers
from protocol import PROTOCOL_VERSION, auth, frames, messages, paths, sanitize, tls
from protocol.errors import ProtocolError

CODE_WAIT_LIMIT = 5.0  # seconds a code check may be held back; past it: "try again in …"
# A logged-in connection: (conn id, reader, writer, address, identity, name) → runs until it ends.
Joined = Callable[[int, asyncio.StreamReader, asyncio.StreamWriter, str, bytes, str],
                  Awaitable[None]]


class HandshakeRefused(Exception):
    """The handshake ended with an error sent to the peer (already sent)."""


class Reception:
    """The game port's listener and the logins in progress on it."""

    def __init__(self, *, name: str, fingerprint: str, games: list[str], open: bool,  # noqa: A002
                 room_code: str, gate: limits.Gate, rate_limiter: auth.RateLimiter,
                 handshake_timeout: float, auth_timeout: float,
                 log: Callable[[str], None], holds_seat: Callable[[bytes], bool],
                 joined: Joined, newcomers: Newcomers | None = None) -> None:
        self.name, self.fingerprint, self.games, self.open = name, fingerprint, games, open
        self.room_code = room_code
        self.gate = gate
        self.rate_limiter = rate_limiter
        self.handshake_timeout = handshake_timeout
        self.auth_timeout = auth_timeout
        self.log = log
        self.holds_seat = holds_seat
        self.joined = joined
        self.newcomers = newcomers or Newcomers()
        self.server: asyncio.base_events.Server | None = None
        self.handlers: set[asyncio.Task[Any]] = set()  # one per connection, logged in or not
        self._ids = itertools.count(1)
        self._room_key = b""
        self._tls: ssl.SSLContext | None = None

    async def prepare(self) -> None:
        """Derive the room key the code proofs are checked with (slow on purpose: off the loop)."""
        self._room_key = await asyncio.to_thread(auth.room_key, self.room_code, self.fingerprint)

    async def listen(self, bind: str, port: int, cert_path: Path, key_path: Path) -> int:
        """Listen on ``bind:port`` (0 = any free port); the port."""
        self._tls = tls.server_context(cert_path, key_path)
        self.server = await limits.start_paused_server(
            self._serve, bind, port, limit=frames.POST_AUTH_MAX * 2, tls=self._tls,
            handshake_timeout=self.handshake_timeout)
        return int(self.server.sockets[0].getsockname()[1])

    def close(self) -> None:
        """Stop listening (connections stay until the host closes them)."""
        if self.server is not None:
            self.server.close()

    async def end_handlers(self) -> None:
        """Stop every connection's task and let them end (bounded)."""
        for task in list(self.handlers):
            task.cancel()
        if self.handlers:
            await asyncio.wait(list(self.handlers), timeout=3.0)

    async def wait_closed(self) -> None:
        """Let the listener close (bounded)."""
        if self.server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.server.wait_closed(), 3.0)
            self.server = None

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self.handlers.add(task)
        peer = writer.get_extra_info("peername") or ("?", 0)
        address = str(peer[0])
        conn_id = next(self._ids)
        refused = self.gate.admit(address, conn_id, writer.transport.abort)
        gated = refused is None
        try:
            if refused is not None:
                self.log(f"refused {address}: {refused}")
                writer.transport.abort()
                return
            try:
                raw = writer.transport
                if writer.get_extra_info("ssl_object") is None:  # (uvloop: TLS is done)
                    with contextlib.suppress(AttributeError):  # asyncio: lost as TLS ended
                        await writer.start_tls(self._tls,
                                               ssl_handshake_timeout=self.handshake_timeout)
                if writer.transport is None:  # lost right after the TLS handshake
                    writer._transport = raw  # noqa: SLF001 - keep close() and __del__ working
                    raw.abort()
                    return
                self.gate.progress(address, conn_id, limits.TLS)
                identity, name = await self._handshake(reader, writer, address, conn_id)
            except (HandshakeRefused, TimeoutError, asyncio.IncompleteReadError,
                    ConnectionError, ssl.SSLError, OSError):
                return
            self.gate.release(address, conn_id)
            gated = False
            await self.joined(conn_id, reader, writer, address, identity, name)
        except asyncio.CancelledError:
            pass
        finally:
            if gated:
                self.gate.release(address, conn_id)
            with contextlib.suppress(Exception):
                writer.close()
            self.handlers.discard(task)

    async def _handshake(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                         address: str, conn_id: int = 0) -> tuple[bytes, str]:
        async def refuse(code: str, text: str) -> HandshakeRefused:
            with contextlib.suppress(Exception):
                await frames.write_frame(writer, messages.error(code, text), frames.PRE_AUTH_MAX)
            self.log(f"refused {address}: {code}")
            return HandshakeRefused(code)

        async def read(expected: str) -> dict[str, Any]:
            try:
                msg = messages.validate(
                    await frames.read_frame(reader, frames.PRE_AUTH_MAX), "c2h")
            except ProtocolError as exc:
                raise await refuse(exc.code, exc.message) from exc
            if msg["type"] != expected:
                raise await refuse("unexpected", f"Expected a {expected!r} message.")
            return msg

        hello = await asyncio.wait_for(read("hello"), self.handshake_timeout)
        self.gate.progress(address, conn_id, limits.HELLO)
        if hello["version"] != PROTOCOL_VERSION:
            raise await refuse("version", f"This host speaks protocol version "
                               f"{PROTOCOL_VERSION}, not {hello['version']}; update hexnet.")
        h_nonce = secrets.token_bytes(16)
        await frames.write_frame(writer, {
            "type": "welcome", "version": PROTOCOL_VERSION, "host_name": self.name,
            "nonce": h_nonce, "fingerprint": self.fingerprint, "open": self.open,
            "games": self.games[:16]}, frames.PRE_AUTH_MAX)
        msg = await asyncio.wait_for(read("auth"), self.auth_timeout)
        identity, c_nonce = hello["identity"], hello["nonce"]
        if not auth.verify_auth(identity, msg["signature"], self.fingerprint, c_nonce, h_nonce):
            raise await refuse("bad_signature", "Your identity signature does not verify.")
        seated = self.holds_seat(identity)
        wait = 0.0 if seated else self.newcomers.wait(address, identity)
        if wait:  # (before the room code: the line of codes is not spent on it)
            raise await refuse("too_many_identities", f"Too many new players from your "
                               f"address within an hour; try again in {math.ceil(wait / 60)} "
                               "min.")
        proof = None
        if msg["proof"] is not None:
            # the address's line of codes (protocol.auth.RateLimiter.check): each waits its
            # turn, an abandoned one leaves the line at once, a login holding a turn is never
            # evicted (limits.TURN)
            want = auth.client_proof(self._room_key, self.fingerprint, c_nonce, h_nonce, identity)
            self.gate.progress(address, conn_id, limits.TURN)
            verdict, wait = await self.rate_limiter.check(
                identity, address, lambda: auth.proofs_equal(msg["proof"], want),
                limit=CODE_WAIT_LIMIT, gone=writer.transport.is_closing)
            if verdict == auth.RATE_LIMITED:
                raise await refuse("rate_limited", f"Too many wrong room codes from you; try "
                                   f"again in {math.ceil(wait)} s.")
            if verdict == auth.BUSY:  # (not this player's fault: the client tries again)
                raise await refuse("busy", f"Too many room codes at once from your "
                                   f"address; try again in {math.ceil(wait)} s.")
            if verdict == auth.GONE:
                raise HandshakeRefused("gone")
            if verdict == auth.BAD_CODE:
                raise await refuse("bad_code", "That room code is not this host's.")
            proof = auth.host_proof(self._room_key, self.fingerprint, c_nonce, h_nonce, identity)
        elif not self.open and not seated:
            raise await refuse("code_required", "This host needs its room code.")
        if not seated:
            self.newcomers.arrived(address, identity)
        await frames.write_frame(writer, {"type": "auth_ok", "proof": proof}, frames.PRE_AUTH_MAX)
        return identity, sanitize.clean_name(hello["name"])


def kept_room_code(config_dir: Path) -> str:
    """The room code kept in ``config_dir/room_code`` (made on first use), so that a host
    restarted after a crash keeps its code and its players can re-authenticate."""
    path = config_dir / "room_code"
    try:
        code = path.read_text().strip()
        auth.normalise_code(code)
        return code
    except (OSError, ValueError):
        code = auth.new_room_code()
        paths.write_private(path, code.encode())
        return code
