"""The host's asyncio shell: TLS 1.3 server, handshake + room-code auth, frames in and out,
timers and bot delays — around the sans-I/O :class:`host.lobby.Lobby`.

Usage::

    host = Host("Kitchen", config_dir, data_dir, open=False, mdns=True, interfaces=["127.0.0.1"])
    port = await host.start(bind="127.0.0.1", port=0)
    print(host.room_code, host.fingerprint_human)
    tid = host.lobby.create_table("hexenhammer", 4, {})
    host.lobby.add_bot(tid, None, "heuristic")
    ...
    await host.stop()

The send path (issue 10): the core applies each message as it arrives and collects what changed;
once per loop tick the shell writes the journal records of the tick's actions (``os.write``,
before any frame leaves, so a ``kill -9`` loses nothing anyone saw; a writer thread fsyncs them
as a group, :class:`host.journal.Syncer`) and then lets the core send one frame per seat per
changed table (:meth:`host.lobby.Lobby.send_due`). Frames are written straight to the
transport; its buffer is the only queue, and a reader that lets more than
``write_high_water`` bytes pile up is dropped. A connection's silence is watched by one timer,
re-armed lazily, not a timeout per read. Lobby updates are coalesced (at most
:data:`LOBBY_EVERY` apart). uvloop is used when installed (:func:`run`). Invalid input gets an
``error`` (code + sentence) and changes nothing; a frame over the cap, a failed handshake or a
wrong code closes that connection only.

Additions to PROTOCOL.md's API: keyword-only ``bot_delay`` (default 0.4 s), ``games``,
``handshake_timeout``, ``idle_timeout``, ``log`` (callable taking one line), ``room_code``,
``absent_after`` (seconds before a disconnected seat counts as absent; None = never);
``idle_absent`` (seconds a connected player may keep a table waiting before they count as
absent; None = never, the default; tournaments set it);
the abuse limits of :mod:`host.limits` (``auth_timeout``, ``max_unauthenticated``,
``max_unauthenticated_per_address``, ``message_rate``, ``message_burst``,
``message_excess_close``, ``write_high_water``);
``journal`` (default True: table journals in ``data_dir/journals``), ``recover`` (default True:
unfinished journals and the tables still seating are reloaded by :meth:`Host.start`, see
:mod:`host.recovery`); the griefing limits of :class:`host.lobby.Lobby` (``table_expiry``,
``max_open_tables_per_player``, ``max_tables_created_per_player``) and ``code_backoff`` (the
longest wait between two room-code checks from one address, :class:`protocol.auth.RateLimiter`);
``host.recorder``; without an explicit
``room_code`` the code is kept in ``config_dir/room_code`` so a restarted host keeps it; the
default ``idle_timeout`` is 15 s (clients ping every 5 s: a dead connection is found in 15 s);
``host.fingerprint`` (hex), ``host.port``, ``host.add_listener(callback)`` (called with the core's
effects after every change: dashboards), ``host.connections`` (conn id → address).
"""

from __future__ import annotations

import asyncio
import asyncio.sslproto
import contextlib
import itertools
import math
import os
import random
import secrets
import ssl
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import msgpack

from hexnet.games import available
from host import limits
from host.core import (
    Accepted,
    BotTurn,
    CancelTimer,
    Close,
    Effect,
    LobbyChanged,
    LobbyDue,
    SeatDisconnected,
    SeatIdle,
    SeatingChanged,
    Send,
    SetTimer,
    TableOver,
    TablesChanged,
    TableStarted,
)
from host.lobby import Lobby
from host.recovery import Recorder
from host.registry import (
    MAX_OPEN_TABLES_PER_PLAYER,
    MAX_TABLES_CREATED_PER_PLAYER,
    TABLE_EXPIRY,
)
from protocol import PROTOCOL_VERSION, auth, frames, messages, paths, sanitize, tls
from protocol.errors import FrameTooLarge, ProtocolError

LOBBY_EVERY = 0.25  # seconds between two coalesced lobby updates
# asyncio gives every TLS connection a read buffer of SSLProtocol.max_size (256 KiB), filled from
# its first byte on: 800 idle players held 200 MB. A TLS record carries at most 16 KiB, so
# reading 32 KiB at a time costs nothing; set once for the process (uvloop has its own buffers).
SSL_READ_BUFFER = 32 * 1024
asyncio.sslproto.SSLProtocol.max_size = min(asyncio.sslproto.SSLProtocol.max_size,
                                            SSL_READ_BUFFER)
CODE_WAIT_LIMIT = 5.0  # seconds a code check may be held back; past it: "try again in …"
SEATING_EVERY = 0.5  # seconds: the tables still seating are written at most this often
T = TypeVar("T")
# bots thinking at once (search bots): more would only share the CPU and the interpreter lock
THINKERS = 4


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's loop when it is installed (``pip install 'hexnet[fast]'``) and
    ``HEXNET_LOOP`` is not ``asyncio``; else None (asyncio's own)."""
    if os.environ.get("HEXNET_LOOP", "") == "asyncio":
        return None
    try:
        import uvloop
    except ImportError:
        if os.environ.get("HEXNET_LOOP") == "uvloop":
            raise
        return None
    return uvloop.new_event_loop


def run(coro: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` on the fastest loop available (:func:`loop_factory`)."""
    with asyncio.Runner(loop_factory=loop_factory()) as runner:
        return runner.run(coro)


class HandshakeRefused(Exception):
    """The handshake ended with an error sent to the peer (already sent)."""


@dataclass
class _Conn:
    writer: asyncio.StreamWriter
    address: str
    limiter: limits.MessageLimiter = field(default_factory=limits.MessageLimiter)
    last_heard: float = 0.0
    closing: bool = False
    idle: asyncio.TimerHandle | None = None


class Host:
    """A hexnet host: one TLS listener, one lobby, optional mDNS advertisement."""

    def __init__(self, name: str, config_dir: str | os.PathLike[str] | None = None,
                 data_dir: str | os.PathLike[str] | None = None, open: bool = False,  # noqa: A002
                 mdns: bool = False, interfaces: list[str] | None = None, *,
                 bot_delay: float = 0.4, games: list[str] | None = None,
                 handshake_timeout: float = limits.HANDSHAKE_TIMEOUT, idle_timeout: float = 15.0,
                 log: Callable[[str], None] | None = None,
                 room_code: str | None = None, absent_after: float | None = 60.0,
                 idle_absent: float | None = None,
                 auth_timeout: float = limits.AUTH_TIMEOUT,
                 max_unauthenticated: int = limits.MAX_UNAUTHENTICATED,
                 max_unauthenticated_per_address: int = limits.MAX_UNAUTHENTICATED_PER_ADDRESS,
                 message_rate: float = limits.MESSAGE_RATE,
                 message_burst: int = limits.MESSAGE_BURST,
                 message_excess_close: int = limits.MESSAGE_EXCESS_CLOSE,
                 write_high_water: int = limits.WRITE_HIGH_WATER,
                 journal: bool = True, recover: bool = True,
                 table_expiry: float = TABLE_EXPIRY,
                 max_open_tables_per_player: int = MAX_OPEN_TABLES_PER_PLAYER,
                 max_tables_created_per_player: int = MAX_TABLES_CREATED_PER_PLAYER,
                 code_backoff: float = auth.BACKOFF_MAX_ADDRESS) -> None:
        self.name = name[:64] or "hexnet"
        self.config_dir = paths.config_dir(config_dir)
        self.data_dir = paths.data_dir(data_dir)
        self.open = open
        self.mdns = mdns
        self.interfaces = interfaces
        self.bot_delay = bot_delay
        self.games = games if games is not None else available()
        self.handshake_timeout = handshake_timeout
        self.idle_timeout = idle_timeout
        self.auth_timeout = auth_timeout
        self.gate = limits.Gate(max_unauthenticated, max_unauthenticated_per_address)
        self.message_limits = (message_rate, message_burst, message_excess_close)
        self.write_high_water = write_high_water
        self.absent_after = absent_after
        self.log = log or (lambda line: None)
        self.room_code = room_code or _kept_room_code(self.config_dir)
        self.cert_path, self.key_path = tls.ensure_host_cert(self.config_dir)
        self.fingerprint = tls.fingerprint_of_pem(self.cert_path)
        self.fingerprint_human = tls.human_fingerprint(self.fingerprint)
        self.lobby = Lobby(self._on_effects, host_open=open, games=self.games, batched=True,
                           table_expiry=table_expiry,
                           max_open_tables_per_player=max_open_tables_per_player,
                           max_tables_created_per_player=max_tables_created_per_player,
                           absent_after=absent_after,  # the countdown every seat is shown
                           idle_absent=idle_absent or None)
        self.recorder = (Recorder(self.data_dir, self.log, halt=self.lobby.halt) if journal
                         else None)
        self.recover = recover
        self.rate_limiter = auth.RateLimiter(address_max=code_backoff)
        self.port = 0
        self.bind = "127.0.0.1"
        self._room_key = b""
        self._server: asyncio.base_events.Server | None = None
        self._conns: dict[int, _Conn] = {}
        self._ids = itertools.count(1)
        self._timers: dict[int, asyncio.TimerHandle] = {}
        self._later: set[asyncio.Handle] = set()
        self._listeners: list[Callable[[list[Effect]], None]] = []
        # hooks for what runs beside the lobby (host.event, the tournament director): message
        # types it handles itself, and calls with the id of every connection just joined
        self.requests: dict[str, Callable[[int, dict[str, Any]], None]] = {}
        self._connect_listeners: list[Callable[[int], None]] = []
        self._handlers: set[asyncio.Task[Any]] = set()
        self._advertiser: Any = None
        self._mdns_dirty: asyncio.Event | None = None
        self._mdns_task: asyncio.Task[None] | None = None
        self._sweep_task: asyncio.Task[None] | None = None
        self._seating: list[dict[str, Any]] | None = None  # to be written (coalesced)
        self._seating_handle: asyncio.TimerHandle | None = None
        self._stopping = False
        self._tick_handle: asyncio.Handle | None = None
        self._lobby_handle: asyncio.Handle | None = None
        self._lobby_last = 0.0
        self._thinkers: ThreadPoolExecutor | None = None

    # -- life cycle ----------------------------------------------------------------------
    async def start(self, bind: str = "127.0.0.1", port: int = 0) -> int:
        """Listen on ``bind:port`` (0 = any free port); advertise if ``mdns``. The port."""
        self._stopping = False  # (a stopped host may be started again)
        self._room_key = await asyncio.to_thread(auth.room_key, self.room_code, self.fingerprint)
        if self.recorder is not None and self.recover:
            self.recorder.recover(self.lobby)  # before listening: seats resume at once
        self._tls = tls.server_context(self.cert_path, self.key_path)
        self._server = await limits.start_paused_server(
            self._serve, bind, port, limit=frames.POST_AUTH_MAX * 2, tls=self._tls,
            handshake_timeout=self.handshake_timeout)
        self.bind = bind
        self.port = self._server.sockets[0].getsockname()[1]
        self.log(f"listening on {bind}:{self.port} (TLS 1.3), fingerprint "
                 f"{self.fingerprint_human}")
        if self.open:
            self.log("open host: no room code needed")
        else:
            self.log(f"room code {self.room_code}")
        if self.mdns:
            from host.mdns import Advertiser

            self._advertiser = Advertiser(self.name, self.port, self.fingerprint, self.games,
                                          interfaces=self.interfaces, bind=bind)
            await self._advertiser.start(self.lobby.open_seats(), self.open)
            self._mdns_dirty = asyncio.Event()
            self._mdns_task = asyncio.create_task(self._mdns_loop())
            self.log(f"advertised on mDNS as {self._advertiser.service_name}")
        self._sweep_task = asyncio.create_task(self._sweep_loop())
        # a host started again: frames and lobby updates that came due while it was stopped
        loop = asyncio.get_running_loop()
        if self._tick_handle is None:
            self._tick_handle = loop.call_soon(self._tick)
        if self._lobby_handle is None:
            self._lobby_handle = loop.call_soon(self._lobby_tick)
        return self.port

    async def stop(self) -> None:
        """Stop listening, close every connection, cancel timers, leave mDNS (bounded)."""
        self._stopping = True
        if self._thinkers is not None:  # a thinking bot finishes its move; nobody applies it
            self._thinkers.shutdown(wait=False, cancel_futures=True)
            self._thinkers = None
        if self._server is not None:
            self._server.close()
        if self._sweep_task is not None:
            self._sweep_task.cancel()
            self._sweep_task = None
        self._write_seating()  # the tables still seating, as they are now
        for handle in list(self._timers.values()) + list(self._later):
            handle.cancel()
        self._timers.clear()
        self._later.clear()
        for handle in (self._tick_handle, self._lobby_handle):
            if handle is not None:
                handle.cancel()
        self._tick_handle = self._lobby_handle = None  # (start() sends what is still due)
        for conn in list(self._conns.values()):
            with contextlib.suppress(Exception):
                conn.writer.close()
        for task in list(self._handlers):
            task.cancel()
        if self._handlers:
            await asyncio.wait(list(self._handlers), timeout=3.0)
        if self._mdns_task is not None:
            self._mdns_task.cancel()
            with contextlib.suppress(BaseException):
                await self._mdns_task
        if self._advertiser is not None:
            try:
                await asyncio.wait_for(self._advertiser.stop(), 5.0)
            finally:
                self._advertiser = None
        if self._server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 3.0)
            self._server = None
        if self.recorder is not None:
            self.recorder.close()

    def add_listener(self, callback: Callable[[list[Effect]], None]) -> None:
        """Call ``callback(effects)`` after every change of the core (dashboards)."""
        self._listeners.append(callback)

    def add_connect_listener(self, callback: Callable[[int], None]) -> None:
        """Call ``callback(conn_id)`` after every connection has joined the lobby."""
        self._connect_listeners.append(callback)

    def send_frame(self, conn_id: int, data: bytes) -> None:
        """Write an encoded frame (already padded by its maker) to connection ``conn_id``."""
        conn = self._conns.get(conn_id)
        if conn is not None:
            self._write(conn_id, conn, data)

    @property
    def connections(self) -> dict[int, str]:
        """Live authenticated connections: id → peer address."""
        return {cid: c.address for cid, c in self._conns.items()}

    # -- effects -------------------------------------------------------------------------
    def _on_effects(self, effects: list[Effect]) -> None:
        loop = asyncio.get_running_loop()
        if self.recorder is not None:
            # Journal FIRST: every accepted action of this batch is written before the tick
            # makes its frames; a table whose journal cannot be written is halted here (the
            # lobby then makes no frames, timers or bot turns for it).
            self.recorder.record(effects)
        ended: list[TableOver] = []
        for e in effects:
            if self._stopping and isinstance(e, (SetTimer, BotTurn, SeatDisconnected,
                                                 SeatIdle)):
                continue
            if isinstance(e, Send):
                conn = self._conns.get(e.conn)
                if conn is not None:
                    if e.data is not None:
                        self._write(e.conn, conn, e.data)
                    else:
                        self._send(e.conn, conn, e.msg)
            elif isinstance(e, TablesChanged):
                if self._tick_handle is None and not self._stopping:
                    self._tick_handle = loop.call_soon(self._tick)
            elif isinstance(e, LobbyDue):
                if self._lobby_handle is None and not self._stopping:
                    wait = self._lobby_last + LOBBY_EVERY - loop.time()
                    self._lobby_handle = (loop.call_later(wait, self._lobby_tick) if wait > 0
                                          else loop.call_soon(self._lobby_tick))
            elif isinstance(e, Close):
                conn = self._conns.get(e.conn)
                if conn is not None:
                    self._send(e.conn, conn, messages.error(e.code, e.message))
                    self._close(conn)
            elif isinstance(e, SetTimer):
                old = self._timers.pop(e.table, None)
                if old:
                    old.cancel()
                self._timers[e.table] = loop.call_later(e.seconds, self._fire_timer, e.table,
                                                        e.key)
            elif isinstance(e, CancelTimer):
                old = self._timers.pop(e.table, None)
                if old:
                    old.cancel()
            elif isinstance(e, BotTurn):
                self._call_later(self.bot_delay, self._bot_turn, e.table, e.seat, e.state_id)
            elif isinstance(e, SeatIdle):
                self._call_later(e.seconds, self.lobby.idle_due, e.table, e.seat)
            elif isinstance(e, SeatDisconnected):
                if self.absent_after is not None:
                    self._call_later(self.absent_after, self.lobby.absent_if_gone, e.table,
                                     e.seat)
                again = self.lobby.presence.reconnect_for
                if self.absent_after is None or self.absent_after > again:
                    self._call_later(again, self.lobby.stopped_reconnecting, e.table, e.seat)
            elif isinstance(e, LobbyChanged):
                if self._mdns_dirty is not None:
                    self._mdns_dirty.set()
            elif isinstance(e, SeatingChanged):
                self._seating = e.tables  # written at most every SEATING_EVERY seconds
                if self._seating_handle is None and self.recorder is not None:
                    self._seating_handle = loop.call_later(SEATING_EVERY, self._write_seating)
            elif isinstance(e, TableStarted):
                self.log(f"table {e.table}: {e.game} started with {', '.join(e.players)}")
            elif isinstance(e, TableOver):
                ended.append(e)
            elif isinstance(e, Accepted):
                pass  # journaled above, before the sends
        for listener in self._listeners:
            listener(effects)
        for e in ended:  # after the listeners: the game log's last lines come first
            self.log(f"table {e.table}: over, scores {e.outcome.get('scores')}, "
                     f"winners {e.outcome.get('winners')}")

    def _tick(self) -> None:
        """The end of a loop tick: every changed table's frames (journal already written)."""
        self._tick_handle = None
        self.lobby.send_due()

    def _lobby_tick(self) -> None:
        self._lobby_handle = None
        self._lobby_last = asyncio.get_running_loop().time()
        self.lobby.send_lobby()

    def _send(self, conn_id: int, conn: _Conn, msg: dict[str, Any]) -> None:
        """Encode ``msg`` and write it to ``conn`` (see :meth:`_write`)."""
        try:
            data = frames.encode(msg, frames.POST_AUTH_MAX)
        except ValueError as exc:
            self.log(f"not sent to #{conn_id}: {exc}")
            return
        self._write(conn_id, conn, data)

    def _write(self, conn_id: int, conn: _Conn, data: bytes) -> None:
        """Hand ``data`` to ``conn``'s transport now (its buffer is the only queue); drop the
        connection if what waits there would pass the high-water mark."""
        transport = conn.writer.transport
        if conn.closing or transport.is_closing():
            return
        waiting = transport.get_write_buffer_size() + len(data)
        if waiting > self.write_high_water:
            self.log(f"#{conn_id} ({conn.address}) stopped reading ({waiting} bytes waiting); "
                     "dropped")
            conn.closing = True
            transport.abort()
            return
        try:
            transport.write(data)
        except (ConnectionError, RuntimeError, OSError) as exc:
            self.log(f"write to {conn.address} failed: {exc}")
            conn.closing = True
            transport.abort()

    def _close(self, conn: _Conn) -> None:
        """Close ``conn`` once what was written to it has gone out."""
        if not conn.closing:
            conn.closing = True
            with contextlib.suppress(Exception):
                conn.writer.close()

    def _watch_idle(self, conn_id: int, conn: _Conn) -> None:
        """Close ``conn`` with ``idle`` once nothing came from it for ``idle_timeout``: one
        timer per connection, re-armed for the time left (no timeout per read)."""
        loop = asyncio.get_running_loop()
        left = conn.last_heard + self.idle_timeout - loop.time()
        if conn.closing:
            return
        if left > 0:
            conn.idle = loop.call_later(left, self._watch_idle, conn_id, conn)
            return
        self._send(conn_id, conn, messages.error("idle", "No message for too long."))
        self._close(conn)

    def _write_seating(self) -> None:
        self._seating_handle = None
        if self._seating is not None and self.recorder is not None:
            self.recorder.write_seating(self._seating)
            self._seating = None

    async def _sweep_loop(self) -> None:
        """Now and then: open tables nobody sits at expire."""
        every = max(0.05, min(30.0, self.lobby.registry.table_expiry / 4))
        while True:
            await asyncio.sleep(every)
            for tid in self.lobby.expire_tables():
                self.log(f"table {tid}: nobody sat at it for "
                         f"{self.lobby.registry.table_expiry:g} s; removed")

    def _fire_timer(self, table: int, key: str) -> None:
        self._timers.pop(table, None)
        self.lobby.timeout(table, key)

    def _bot_turn(self, table: int, seat: int, state_id: int) -> None:
        """A bot's turn: quick policies answer at once; a policy that ``thinks`` (search) runs
        in a worker thread, on a copy of its view and a generator of its own, so the host (and
        a local player's screen) stays responsive; its choice is applied if still current."""
        asked = self.lobby.bot_question(table, seat, state_id)
        if asked is None:
            return
        view, legal, policy, table_rng = asked
        if not getattr(policy, "thinks", False):
            self.lobby.bot_turn(table, seat, state_id)
            return
        own_rng = random.Random(table_rng.getrandbits(64))
        frozen = msgpack.unpackb(msgpack.packb([view, legal]), raw=False, strict_map_key=False)
        if self._thinkers is None:
            self._thinkers = ThreadPoolExecutor(THINKERS, thread_name_prefix="hexnet-bot")
        thinking = asyncio.get_running_loop().run_in_executor(self._thinkers, policy, *frozen,
                                                              own_rng)

        def done(future: asyncio.Future[Any]) -> None:
            if self._stopping:
                return
            action = None if future.cancelled() or future.exception() else future.result()
            self.lobby.bot_answer(table, seat, state_id, action)

        thinking.add_done_callback(done)

    def _call_later(self, delay: float, fn: Callable[..., None], *args: Any) -> None:
        loop = asyncio.get_running_loop()

        def run() -> None:
            self._later.discard(handle)
            fn(*args)

        handle = loop.call_later(delay, run) if delay > 0 else loop.call_soon(run)
        self._later.add(handle)

    async def _mdns_loop(self) -> None:
        assert self._mdns_dirty is not None
        while True:
            await self._mdns_dirty.wait()
            await asyncio.sleep(0.2)  # coalesce bursts of lobby changes
            self._mdns_dirty.clear()
            if self._advertiser is not None:
                try:
                    await self._advertiser.update(self.lobby.open_seats(), self.open)
                except Exception as exc:  # noqa: BLE001 - mDNS trouble must not stop the host
                    self.log(f"mDNS update failed: {exc}")

    # -- connections ---------------------------------------------------------------------
    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._handlers.add(task)
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
            conn = _Conn(writer, address, limiter=limits.MessageLimiter(*self.message_limits),
                         last_heard=asyncio.get_running_loop().time())
            self._watch_idle(conn_id, conn)
            self._conns[conn_id] = conn
            self.log(f"{name} connected from {address} (#{conn_id})")
            self.lobby.connect(conn_id, identity, name, address)
            for listener in self._connect_listeners:
                listener(conn_id)
            await self._read_loop(conn_id, reader, conn)
        except asyncio.CancelledError:
            pass
        finally:
            if gated:
                self.gate.release(address, conn_id)
            conn = self._conns.pop(conn_id, None)
            if conn is not None:
                if conn.idle is not None:
                    conn.idle.cancel()
                self.lobby.disconnect(conn_id, host_stopping=self._stopping)
                self.log(f"#{conn_id} disconnected")
            with contextlib.suppress(Exception):
                writer.close()
            self._handlers.discard(task)

    async def _read_loop(self, conn_id: int, reader: asyncio.StreamReader, conn: _Conn) -> None:
        loop = asyncio.get_running_loop()
        while not conn.closing:
            problem: ProtocolError | None = None
            try:
                msg = await frames.read_frame(reader, frames.POST_AUTH_MAX)
                conn.last_heard = loop.time()
                messages.validate(msg, "c2h")
                msg.pop("pad", None)
            except FrameTooLarge as exc:
                self._send(conn_id, conn, exc.as_message())
                self._close(conn)
                return
            except ProtocolError as exc:
                problem = exc
            except (asyncio.IncompleteReadError, ConnectionError, ssl.SSLError, OSError):
                return
            verdict = conn.limiter.check()  # every frame counts, valid or not
            if verdict == limits.CLOSE:
                self.log(f"#{conn_id} ({conn.address}) kept flooding; closed")
                self._send(conn_id, conn, messages.error(
                    "rate_limited", "Too many messages; the host closed the connection."))
                self._close(conn)
                return
            if verdict == limits.WARN:
                self._send(conn_id, conn, messages.error(
                    "rate_limited", "Too many messages; slow down (this one was dropped)."))
            if verdict != limits.OK:
                continue
            if problem is not None:
                self._send(conn_id, conn, problem.as_message())
                continue
            if msg["type"] == "chat":
                msg["text"] = sanitize.clean_text(msg["text"])
            if msg["type"] in messages.PRE_AUTH["c2h"]:
                self._send(conn_id, conn, messages.error(
                    "unexpected", f"A {msg['type']!r} message is only valid in the handshake."))
                continue
            try:
                handler = self.requests.get(msg["type"])
                if handler is not None:
                    handler(conn_id, msg)
                else:
                    self.lobby.handle(conn_id, msg)
            except Exception as exc:  # noqa: BLE001 - a bug must not take the host down
                self.log(f"internal error handling {msg['type']!r} from #{conn_id}: "
                         f"{type(exc).__name__}: {exc}")
                self._send(conn_id, conn, messages.error(
                    "internal", "The host failed on that request; it was not carried out."))

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
        proof = None
        if msg["proof"] is not None:
            # back-off (protocol.auth.RateLimiter): wait for this identity's and address's turn
            admitted, wait = self.rate_limiter.reserve(identity, address, CODE_WAIT_LIMIT)
            if not admitted:
                raise await refuse("rate_limited", f"Too many wrong room codes from you; try "
                                   f"again in {math.ceil(wait)} s.")
            if wait > 0:
                await asyncio.sleep(wait)
            want = auth.client_proof(self._room_key, self.fingerprint, c_nonce, h_nonce, identity)
            if not auth.proofs_equal(msg["proof"], want):
                self.rate_limiter.fail(identity, address)
                raise await refuse("bad_code", "That room code is not this host's.")
            self.rate_limiter.succeed(identity)
            proof = auth.host_proof(self._room_key, self.fingerprint, c_nonce, h_nonce, identity)
        elif not self.open and not self.lobby.holds_seat(identity):
            raise await refuse("code_required", "This host needs its room code.")
        await frames.write_frame(writer, {"type": "auth_ok", "proof": proof}, frames.PRE_AUTH_MAX)
        return identity, sanitize.clean_name(hello["name"])


def _kept_room_code(config_dir: Path) -> str:
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
