"""A client's connection to a host: TLS 1.3, fingerprint pin, hello/auth handshake, then
validated messages both ways.

Usage::

    session = await Session.connect("127.0.0.1", 7878, name="Ada", code="7K3QF-9XM2D",
                                    accept_new=True)
    await session.send({"type": "sit", "table": 1, "seat": None})
    async for msg in session.messages():   # every validated host message, in order
        ...
    await session.aclose()                 # or session.close() (no wait)

``session.lobby`` is the latest ``lobby`` message (set before ``connect`` returns),
``session.views`` maps table id → latest view map, ``session.legal`` table id → latest legal
action list, ``session.host_fingerprint`` (hex) / ``host_name`` / ``host_open``.
``session.view_times`` maps table id → {state_id: perf_counter() when a frame of that state
first arrived, whether or not it brought this seat anything new} (the bot client's latency
figures).

Trust (issue 9): whenever the user gave a room code the session sends its proof and insists on
the host's proof in ``auth_ok`` — also from a host that announces itself open, which an impostor
could do to skip the check; a new host key is written to ``known_hosts`` only after the host
has authenticated (and proved the code, if there was one).

Failures raise subclasses of :class:`SessionError` with a sentence for the player:
:class:`FingerprintMismatch` (changed or wrongly pinned key: ``str(exc)`` is the ssh-style
warning), :class:`HostNotTrusted` (first contact declined), :class:`BadRoomCode` (wrong or
missing code; :class:`RateLimited` after too many), :class:`HostBusy` (the host's line of
room codes from this address stayed full: ``connect`` tried :data:`BUSY_TRIES` times),
:class:`ProtocolError` (the host spoke nonsense or refused us), :class:`ConnectionLost`.

Deviations from PROTOCOL.md: the extra ``HostNotTrusted``/``RateLimited`` exceptions; ``aclose()``
besides ``close()``; ``messages()`` ends normally after ``close()`` and raises
:class:`ConnectionLost` when the host goes away; ``connect`` takes ``timeout`` and
``identity_file`` (another identity file in the config dir; None = an ephemeral identity, as
``hexnet bot`` uses); ``next_message(timeout)`` (one message, or None after ``timeout``).

The send path (issues 9 and 10, :mod:`protocol.traffic`): the host sends views as deltas (the
log as new events, the view only when it changed) and lobbies as deltas; the session rebuilds
them, so ``messages()`` yields full ``view`` messages (``view`` with ``state_id`` and the recent
``log``, ``legal``) and full ``lobby`` messages as before, and ``rejected``/``error``/``chat``
carried inside a table's frame as their own messages. A frame that changed nothing for this
seat yields nothing. Every frame this session sends after auth is padded to a multiple of 256
bytes, and while a table is in a secret step (a frame's ``secret``) the session sends to it on
the step's schedule (:mod:`client.slots`): ``send`` of an ``act`` or a chat line returns at once
and the message leaves in the next slot; slots with nothing to carry carry a ``cover``.

Heartbeat and reconnect (issue 6): the session pings every ``heartbeat`` seconds (default 5) and
counts the connection dead when nothing (not even a ``pong``) came for ``dead_after`` seconds
(default 15). With ``reconnect=True`` a lost connection is not the end: the session connects
again with the same identity key, pinned to the same host key, with the same room code, after
0.5, 1, 2, 4, 4, … s, for at most ``reconnect_for`` seconds (default 90), and the host hands the
seat back with its current view. Meanwhile ``messages()`` yields local status maps (never sent
by a host, no schema): ``{"type": "connection", "state": "reconnecting", "attempt": n,
"message": str}`` and, once back, ``{"type": "connection", "state": "connected", "attempt":
n}``; ``session.reconnecting`` is True. ``send()`` during that time waits for the connection
(bounded by the window); a message whose write fails is dropped (the host resends the view on
reconnect). A host that closes us with ``kicked`` or ``replaced``, a changed host key or a
refused code end the session as before. ``session.commitments`` (table → the first seed
commitment seen) and ``session.fair_play`` (table → :class:`hexnet.fairness.Verdict` once the
``reveal`` parts are in, see :mod:`client.fairplay`).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import ssl
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from client.errors import (
    BadRoomCode,
    ConnectionLost,
    FingerprintMismatch,
    HostBusy,
    HostNotTrusted,
    ProtocolError,
    RateLimited,
    SessionError,
    Unreachable,
    code_refusal,
    told_wait,
)
from client.reconnect import come_back
from client.slots import Slots
from protocol import (
    PROTOCOL_VERSION,
    errors,
    frames,
    identity,
    known_hosts,
    messages,
    paths,
    sanitize,
    tls,
    traffic,
)
from protocol import auth as pauth

ConfirmFingerprint = Callable[[str, str], Awaitable[bool]]
PING_EVERY = 5.0
DEAD_AFTER = 15.0
RECONNECT_FOR = messages.RECONNECT_FOR
NO_RECONNECT = ("kicked", "replaced")
BUSY_TRIES = 4  # handshakes told "busy" (the address's line of codes is full) before giving up
BUSY_WAIT_MOST = 2.0  # seconds waited before trying again, whatever the host said


_CLOSED = object()


class Session:
    """One authenticated connection to a host. Build it with :meth:`connect`."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader, self._writer = reader, writer
        self._queue: asyncio.Queue[Any] = asyncio.Queue()
        self._write_lock = asyncio.Lock()
        self._closing = False
        self._tasks: list[asyncio.Task[Any]] = []
        self.host_fingerprint = ""
        self.host_name = ""
        self.host_open = False
        self.games: list[str] = []
        self.lobby: dict[str, Any] | None = None
        self.views: dict[int, dict[str, Any]] = {}
        self.watch_views: dict[int, dict[str, Any]] = {}  # public views of tables watched
        self.legal: dict[int, list[dict[str, Any]]] = {}
        self.view_times: dict[int, dict[int, float]] = {}
        self.identity = b""
        self.commitments: dict[int, str] = {}
        self.fair_play: dict[int, Any] = {}
        self._reveals: dict[int, list[dict[str, Any]]] = {}
        self.revealed: dict[int, list[dict[str, Any]]] = {}  # table -> its complete reveal
        self.reconnecting = False
        self.reconnects = 0
        self.heartbeat, self.dead_after = PING_EVERY, DEAD_AFTER
        self._reconnect_for: float | None = None
        self._dial: Callable[[], Awaitable[tuple[Any, Any]]] | None = None
        self._again: Callable[[], Awaitable[None]] | None = None
        self._online = asyncio.Event()
        self._online.set()
        self._ended = False  # the read loop is over: no more reconnecting
        # the connection as it is now finished its handshake: frames after auth (pings, the
        # secret steps' slots, a goodbye) may be written on it — never on one still shaking
        # hands, where the host reads them as a broken hello or auth and refuses it
        self._authed = False
        self._last_error = ""
        self._book = traffic.ViewBook()
        self._watch_book = traffic.ViewBook()  # tables watched (host/watchers.py)
        self._lobby_book = traffic.LobbyBook()
        # the secret steps' schedules (client/slots.py)
        self.slots = Slots(lambda msg: self._send_raw(msg, frames.POST_AUTH_MAX))

    # -- connecting ----------------------------------------------------------------------
    @classmethod
    async def connect(cls, host: str, port: int, *, name: str, code: str | None = None,
                      config_dir: str | os.PathLike[str] | None = None,
                      confirm_fingerprint: ConfirmFingerprint | None = None,
                      accept_new: bool = False, pinned_fingerprint: str | None = None,
                      timeout: float = 15.0,
                      identity_file: str | None = identity.IDENTITY_FILE,
                      reconnect: bool = False, reconnect_for: float = RECONNECT_FOR,
                      heartbeat: float = PING_EVERY, dead_after: float = DEAD_AFTER,
                      local_address: str | None = None,
                      busy_tries: int = BUSY_TRIES) -> Session:
        """Connect, check the host's key, authenticate, and wait for the first lobby.
        ``reconnect``: come back by itself after a lost connection (see the module doc).
        ``local_address``: connect from this address (the host's web/SSH front doors give each
        guest's client its own loopback address, see :mod:`host.guests`). ``busy_tries``:
        handshakes told "busy" (:class:`HostBusy`) before that is raised."""
        cfg = paths.config_dir(config_dir)
        if identity_file is None:  # an ephemeral identity (bots): nothing written
            from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

            key = Ed25519PrivateKey.generate()
        else:
            key = identity.load_or_create_identity(cfg, identity_file)
        async def dial() -> tuple[Any, Any]:
            try:
                return await asyncio.wait_for(
                    asyncio.open_connection(host, port, ssl=tls.client_context(),
                                            server_hostname=host,
                                            limit=frames.POST_AUTH_MAX * 2,
                                            local_addr=(local_address, 0) if local_address
                                            else None), timeout)
            except (ssl.SSLError, OSError, TimeoutError) as exc:
                raise Unreachable(host, port, exc, timeout) from exc

        for tries in range(1, busy_tries + 1):
            session = cls(*await dial())
            session.heartbeat, session.dead_after = heartbeat, dead_after
            if reconnect:
                session._reconnect_for = reconnect_for
                session._dial = dial

                async def again(session: Session = session) -> None:
                    await session._handshake(host, port, name, code, cfg, key, None, False,
                                             session.host_fingerprint, first=False)
                session._again = again
            try:
                await asyncio.wait_for(
                    session._handshake(host, port, name, code, cfg, key, confirm_fingerprint,
                                       accept_new, pinned_fingerprint), timeout)
            except TimeoutError as exc:
                session.close()
                raise ConnectionLost(f"{host}:{port} did not finish the handshake in "
                                     "time.") from exc
            except HostBusy as exc:  # a flood of codes beside us: our turn comes soon
                session.close()
                if tries >= busy_tries:
                    raise
                # the key the player just trusted is trusted again: asked once per connect
                pinned_fingerprint = pinned_fingerprint or session.host_fingerprint or None
                await asyncio.sleep(min(exc.seconds, BUSY_WAIT_MOST))
                continue
            except BaseException:
                session.close()
                raise
            return session
        raise ValueError(f"busy_tries must be at least 1, not {busy_tries}")

    async def _handshake(self, host: str, port: int, name: str, code: str | None, cfg: Path,
                         key: Any, confirm: ConfirmFingerprint | None, accept_new: bool,
                         pinned: str | None, first: bool = True) -> None:
        self._authed = False
        ssl_obj = self._writer.get_extra_info("ssl_object")
        der = ssl_obj.getpeercert(binary_form=True) if ssl_obj else None
        if not der:
            raise ProtocolError(f"{host}:{port} did not present a certificate.")
        fp = tls.fingerprint_of_cert(der)
        pin_label = known_hosts.label(host, port)
        pin_after_auth = await self._check_pin(pin_label, fp, cfg, confirm, accept_new, pinned)
        self.host_fingerprint = fp
        self.identity = identity.public_bytes(key)
        c_nonce = secrets.token_bytes(16)
        await self._send_raw({"type": "hello", "version": PROTOCOL_VERSION, "name": name,
                              "nonce": c_nonce, "identity": self.identity}, frames.PRE_AUTH_MAX)
        welcome = await self._recv_pre_auth()
        if welcome["type"] != "welcome":
            raise ProtocolError("The host answered hello with something other than welcome.")
        if welcome["fingerprint"] != fp:
            raise FingerprintMismatch("The host announced a fingerprint other than its TLS key.")
        self.host_name, self.host_open = welcome["host_name"], welcome["open"]
        self.games = list(welcome["games"])
        h_nonce = welcome["nonce"]
        rkey = None
        if code:  # a user with a code insists on the host's proof, even from an "open" host
            try:
                rkey = await asyncio.to_thread(pauth.room_key, code, fp)
            except ValueError as exc:
                raise BadRoomCode(code_refusal("malformed", str(exc))) from exc
        proof = pauth.client_proof(rkey, fp, c_nonce, h_nonce, self.identity) if rkey else None
        await self._send_raw({"type": "auth", "proof": proof,
                              "signature": pauth.sign_auth(key, fp, c_nonce, h_nonce)},
                             frames.PRE_AUTH_MAX)
        reply = await self._recv_pre_auth()
        if reply["type"] != "auth_ok":
            raise ProtocolError("The host answered auth with something unexpected.")
        if rkey is not None:
            want = pauth.host_proof(rkey, fp, c_nonce, h_nonce, self.identity)
            if not pauth.proofs_equal(reply["proof"], want):
                raise FingerprintMismatch("The host could not prove it knows the room code; "
                                          "it may be an impostor.")
        self._authed = True
        if pin_after_auth:  # only a host that finished authentication is remembered
            self._pin(cfg, pin_label, fp)
        while True:
            got_lobby = False
            for msg in self._expand(await self._recv(frames.POST_AUTH_MAX)):
                self._absorb(msg)
                self._queue.put_nowait(msg)
                got_lobby = got_lobby or msg["type"] == "lobby"
            if got_lobby:
                break
        if first:
            self._tasks.append(asyncio.create_task(self._read_loop()))
            self._tasks.append(asyncio.create_task(self._ping_loop()))

    @staticmethod
    def _pin(cfg: Path, host_label: str, fp: str) -> None:
        """Write the pin (another session may have pinned the same key meanwhile: fine)."""
        kh = known_hosts.KnownHosts(cfg / known_hosts.FILE)
        with contextlib.suppress(ValueError):
            kh.add(host_label, fp)
        known = kh.get(host_label)
        if known is not None and known != fp:
            raise FingerprintMismatch(known_hosts.changed_key_warning(host_label, known, fp,
                                                                      kh.path))

    @staticmethod
    async def _check_pin(host_label: str, fp: str, cfg: Path,
                         confirm: ConfirmFingerprint | None, accept_new: bool,
                         pinned: str | None) -> bool:
        """Refuse a key that differs from the pin; True if the key is new and trusted, to be
        pinned once the host has authenticated (never before: an impostor that fails the
        room-code proof must leave no trace in known_hosts)."""
        kh = known_hosts.KnownHosts(cfg / known_hosts.FILE)
        known = kh.get(host_label)
        if pinned is not None:
            if not tls.fingerprint_matches(fp, pinned):
                raise FingerprintMismatch(
                    f"The host at {host_label} shows key {tls.human_fingerprint(fp)}, not the "
                    f"fingerprint you gave ({pinned}). The connection was refused.")
            if known is not None and known != fp:
                raise FingerprintMismatch(
                    known_hosts.changed_key_warning(host_label, known, fp, kh.path))
            return known is None
        if known is not None:
            if known != fp:
                raise FingerprintMismatch(
                    known_hosts.changed_key_warning(host_label, known, fp, kh.path))
            return False
        if accept_new:
            return True
        if confirm is not None and await confirm(host_label, tls.human_fingerprint(fp)):
            return True
        raise HostNotTrusted(f"The key of {host_label} ({tls.human_fingerprint(fp)}) was not "
                             "trusted.")

    async def _recv_pre_auth(self) -> dict[str, Any]:
        msg = await self._recv(frames.PRE_AUTH_MAX)
        if msg["type"] == "error":
            code, text = msg["code"], msg["message"]
            if code == "rate_limited":
                raise RateLimited(code_refusal(code, text))
            if code == "busy":
                wait = told_wait(text)
                raise HostBusy(code_refusal(code, text), 1.0 if wait is None else float(wait))
            if code in ("bad_code", "code_required"):
                raise BadRoomCode(code_refusal(code, text))
            raise ProtocolError(text, code)
        return msg

    async def _recv(self, cap: int) -> dict[str, Any]:
        try:
            msg = await frames.read_frame(self._reader, cap)
            return sanitize.terminal_safe(messages.validate(msg, "h2c"))  # no escapes shown
        except errors.ProtocolError as exc:
            raise ProtocolError(f"The host sent an invalid message: {exc.message}",
                                exc.code) from exc
        except (asyncio.IncompleteReadError, ConnectionError, ssl.SSLError, OSError) as exc:
            raise ConnectionLost("The host closed the connection.") from exc

    # -- running -------------------------------------------------------------------------
    def _expand(self, msg: dict[str, Any]) -> list[dict[str, Any]]:
        """The messages one frame stands for (views and lobbies rebuilt from deltas)."""
        kind = msg["type"]
        if kind in ("lobby", "lobby_delta"):
            return [self._lobby_book.absorb(msg)]
        if kind == "watch_view":  # a watched table: the public view, rebuilt the same way
            return [{**m, "type": "watch_view"} if m["type"] == "view" else m
                    for m in self._watch_book.absorb({**msg, "type": "view"})]
        if kind == "view":
            out = self._book.absorb(msg)
            table = msg["table"]
            # when this seat first held that state (a frame with nothing new for it too)
            self.view_times.setdefault(table, {}).setdefault(msg["state_id"],
                                                              time.perf_counter())
            return out + self.slots.frame(table, msg.get("secret"))
        return [msg]

    def _absorb(self, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind == "lobby":
            self.lobby = msg
        elif kind == "error":
            self._last_error = msg["code"]
        elif kind == "reveal":
            from client.fairplay import collect_reveal

            collect_reveal(self, msg)
        elif kind == "watch_view":
            self.watch_views[msg["table"]] = msg["view"]
            if "commitment" in msg:
                self.commitments.setdefault(msg["table"], msg["commitment"])
        elif kind == "view":
            table = msg["table"]
            if "commitment" in msg:
                self.commitments.setdefault(table, msg["commitment"])
            self.views[table] = msg["view"]
            self.legal[table] = msg["legal"]

    async def _read_loop(self) -> None:
        try:
            while True:
                try:
                    while True:
                        try:
                            msg = await asyncio.wait_for(self._recv(frames.POST_AUTH_MAX),
                                                         self.dead_after)
                        except TimeoutError as exc:
                            raise ConnectionLost(f"The host has not answered for "
                                                 f"{self.dead_after:g} s.") from exc
                        if msg["type"] == "pong":
                            continue
                        for item in self._expand(msg):
                            self._absorb(item)
                            self._queue.put_nowait(item)
                except ConnectionLost as exc:
                    if (self._reconnect_for is None or self._closing
                            or self._last_error in NO_RECONNECT):
                        raise
                    if not await self._come_back(str(exc)):
                        raise
        except SessionError as exc:
            self._queue.put_nowait(exc)
        except asyncio.CancelledError:
            raise
        finally:
            self._ended = True
            self._online.set()
            self._queue.put_nowait(_CLOSED)

    async def _come_back(self, why: str) -> bool:
        """Connect again with backoff within the reconnect window (:mod:`client.reconnect`);
        whether it worked. A refusal that retrying cannot cure is raised."""
        assert self._dial is not None and self._again is not None
        self._online.clear()
        self.reconnecting = True
        self._drop()
        attempt = await come_back(self._redial, self._drop, self._queue.put_nowait,
                                  lambda: self._closing,
                                  time.monotonic() + (self._reconnect_for or 0), why)
        if attempt is None:
            return False
        self.reconnecting = False
        self.reconnects += 1
        self._last_error = ""
        self._online.set()
        self._queue.put_nowait({"type": "connection", "state": "connected", "attempt": attempt})
        return True

    async def _redial(self, seconds: float) -> None:
        """One reconnect attempt: a new connection, then the handshake within ``seconds``."""
        assert self._dial is not None and self._again is not None
        self._authed = False
        self._reader, self._writer = await self._dial()
        await asyncio.wait_for(self._again(), seconds)

    def _drop(self) -> None:
        """Abandon the connection as it is (a lost one, or a failed attempt's)."""
        self._authed = False
        with contextlib.suppress(Exception):
            self._writer.transport.abort()

    async def _ping_loop(self) -> None:
        with contextlib.suppress(asyncio.CancelledError):
            while not self._closing:
                await asyncio.sleep(self.heartbeat)
                if self.reconnecting:
                    continue
                with contextlib.suppress(SessionError):
                    await self._send_raw({"type": "ping", "t": time.time()},
                                         frames.POST_AUTH_MAX)

    async def messages(self) -> AsyncIterator[dict[str, Any]]:
        """Every validated host message in order (``pong`` excepted). Ends after ``close()``;
        raises :class:`ConnectionLost` / :class:`ProtocolError` if the connection fails."""
        while True:
            item = await self._queue.get()
            if item is _CLOSED:
                if self._closing:
                    return
                raise ConnectionLost("The host closed the connection.")
            if isinstance(item, SessionError):
                if self._closing:
                    return
                raise item
            yield item

    async def next_message(self, timeout: float | None = None) -> dict[str, Any] | None:
        """The next message (as :meth:`messages` yields them), or None if none arrives within
        ``timeout`` seconds. Raises :class:`ConnectionLost` once the session is over."""
        try:
            item = await asyncio.wait_for(self._queue.get(), timeout)
        except TimeoutError:
            return None
        if item is _CLOSED or isinstance(item, SessionError):
            self._queue.put_nowait(item)  # keep reporting the end
            if isinstance(item, SessionError) and not self._closing:
                raise item
            raise ConnectionLost("The session is closed.")
        return item

    async def send(self, msg: dict[str, Any]) -> None:
        """Validate ``msg`` against its schema (ValueError-like :class:`ProtocolError` if it is
        invalid, nothing sent), then write it and drain."""
        try:
            messages.validate(msg, "c2h")
        except errors.ProtocolError as exc:
            raise ProtocolError(f"Not sent: {exc.message}", exc.code) from exc
        if self.slots.take(msg):  # it leaves in a secret step's next slot
            return
        if self._reconnect_for is None:
            await self._send_raw(msg, frames.POST_AUTH_MAX)
            return
        give_up = time.monotonic() + self._reconnect_for
        while not self._online.is_set():  # (it may go down again right after coming back)
            if self._ended or self._closing or time.monotonic() >= give_up:
                raise ConnectionLost("The connection to the host was lost and did not come "
                                     "back.")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._online.wait(), give_up - time.monotonic())
        if self._ended or self._closing:
            raise ConnectionLost("The session is over.")
        try:
            await self._send_raw(msg, frames.POST_AUTH_MAX)
        except ConnectionLost:
            if self._closing:
                raise
            if self._authed:  # the write failed on the connection in use (not on one being
                self._drop()  # made again): the read loop notices and reconnects

    async def _send_raw(self, msg: dict[str, Any], cap: int) -> None:
        if self._closing:
            raise ConnectionLost("The session is closed.")
        handshake = cap == frames.PRE_AUTH_MAX
        try:
            data = (frames.encode(msg, cap) if handshake
                    else traffic.encode_up(msg, cap))  # after auth: padded (traffic rule)
            async with self._write_lock:
                if not handshake and not self._authed:
                    raise ConnectionLost("Not sent: the connection to the host is still "
                                         "being made.")
                self._writer.write(data)
                await self._writer.drain()
        except (ConnectionError, ssl.SSLError, OSError, RuntimeError) as exc:
            raise ConnectionLost("The connection to the host was lost.") from exc

    def close(self) -> None:
        """Close the connection now (idempotent); ``messages()`` then ends."""
        if self._closing:
            return
        self._closing = True
        for task in self._tasks:
            task.cancel()
        self.slots.close()
        self._queue.put_nowait(_CLOSED)
        if self._authed and not self._ended:
            # a goodbye: the host shows the seat as disconnected, not as reconnecting (only
            # after auth: to a host still shaking hands it is no hello and no auth)
            with contextlib.suppress(Exception):
                self._writer.write(traffic.encode_up({"type": "bye"}, frames.POST_AUTH_MAX))
        with contextlib.suppress(Exception):
            self._writer.close()

    async def aclose(self) -> None:
        """Close and wait for the connection to be torn down (bounded: 2 s)."""
        self.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._writer.wait_closed(), 2.0)
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(task, 1.0)

    def secret_step_open(self, table: int) -> bool:
        """Whether the latest frame of ``table`` names a secret step (:mod:`protocol.traffic`):
        this session then sends there on the step's schedule (:mod:`client.slots`)."""
        return table in self.slots.steps

    @property
    def you(self) -> dict[str, Any]:
        """The ``you`` part of the latest lobby."""
        return (self.lobby or {}).get("you", {})
