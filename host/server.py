"""The host's asyncio shell around the sans-I/O :class:`host.lobby.Lobby`: a :class:`Host` wires
its parts and runs their life cycle.

Usage::

    host = Host("Kitchen", config_dir, data_dir, open=False, mdns=True, interfaces=["127.0.0.1"])
    port = await host.start(bind="127.0.0.1", port=0)
    print(host.room_code, host.fingerprint_human)
    tid = host.lobby.create_table("hexenhammer", 4, {})
    host.lobby.add_bot(tid, None, "heuristic")
    ...
    await host.stop()

The parts: :mod:`host.reception` (the listener, the gate of unauthenticated connections, TLS,
the handshake and the room code), :mod:`host.links` (the logged-in connections: frames in, each
routed to the core, and out), :mod:`host.dispatch` (the core's effects: journal first, then
frames, the tick, coalesced lobby updates), :mod:`host.timers` (table timers, delayed calls,
thinking bots, the sweep of expired tables), :mod:`host.announce` (mDNS). uvloop is used when
installed (:func:`run`).

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
:mod:`host.recovery`); the griefing limits of :mod:`host.registry` (``table_expiry``,
``max_open_tables_per_player``, ``max_tables_created_per_player``,
``max_open_tables_per_address``, ``max_tables_created_per_address``), the new identities one
address may bring in an hour (``identities_per_address``, :mod:`host.newcomers`) and
``code_backoff`` (the
longest wait between two room-code checks from one address, :class:`protocol.auth.RateLimiter`);
``host.recorder``; ``secret_every`` (seconds between a secret step's ticks, issue 22; the
default :data:`SECRET_EVERY`: :data:`protocol.traffic.SLOT_EVERY`); ``history`` (``"club"``,
the default: finished games are kept and indexed in the club database, ``host.history``;
``"journals"``: kept only; ``"none"``: not kept, see :mod:`host.club.history`); without an
explicit ``room_code`` the code is kept in ``config_dir/room_code`` so a restarted host keeps it;
the
default ``idle_timeout`` is 15 s (clients ping every 5 s: a dead connection is found in 15 s);
``host.fingerprint`` (hex), ``host.port``, ``host.add_listener(callback)`` (called with the core's
effects after every change: dashboards), ``host.connections`` (conn id → address).
"""

from __future__ import annotations

import asyncio
import asyncio.sslproto
import os
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from hexnet.games import available
from host import limits
from host.announce import Announcer
from host.club.desk import Desk
from host.club.history import History
from host.core import Effect
from host.dispatch import Dispatcher
from host.links import Links
from host.lobby import Lobby
from host.newcomers import IDENTITIES_PER_ADDRESS, Newcomers
from host.reception import Reception, kept_room_code
from host.recovery import Recorder
from host.registry import (
    MAX_OPEN_TABLES_PER_ADDRESS,
    MAX_OPEN_TABLES_PER_PLAYER,
    MAX_TABLES_CREATED_PER_ADDRESS,
    MAX_TABLES_CREATED_PER_PLAYER,
    TABLE_EXPIRY,
)
from host.timers import Timers
from protocol import auth, messages, paths, tls, traffic

# asyncio gives every TLS connection a read buffer of SSLProtocol.max_size (256 KiB), filled from
# its first byte on: 800 idle players held 200 MB. A TLS record carries at most 16 KiB, so
# reading 32 KiB at a time costs nothing; set once for the process (uvloop has its own buffers).
SSL_READ_BUFFER = 32 * 1024
# seconds between a secret step's ticks when a Host is given none (the suite sets it shorter for
# its bot games: tests/conftest.py)
SECRET_EVERY = traffic.SLOT_EVERY
asyncio.sslproto.SSLProtocol.max_size = min(asyncio.sslproto.SSLProtocol.max_size,
                                            SSL_READ_BUFFER)
T = TypeVar("T")


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
                 max_open_tables_per_address: int = MAX_OPEN_TABLES_PER_ADDRESS,
                 max_tables_created_per_address: int = MAX_TABLES_CREATED_PER_ADDRESS,
                 identities_per_address: int = IDENTITIES_PER_ADDRESS,
                 code_backoff: float = auth.BACKOFF_MAX_ADDRESS,
                 secret_every: float | None = None,
                 history: str = "club") -> None:
        self.name = name[:64] or "hexnet"
        self.config_dir = paths.config_dir(config_dir)
        self.data_dir = paths.data_dir(data_dir)
        self.open = open
        self.mdns = mdns
        self.games = games if games is not None else available()
        self.log = log or (lambda line: None)
        say = self._say  # the parts log through host.log, even once a dashboard replaced it
        self.room_code = room_code or kept_room_code(self.config_dir)
        self.cert_path, self.key_path = tls.ensure_host_cert(self.config_dir)
        self.fingerprint = tls.fingerprint_of_pem(self.cert_path)
        self.fingerprint_human = tls.human_fingerprint(self.fingerprint)
        self.lobby = Lobby(host_open=open, games=self.games, batched=True,
                           table_expiry=table_expiry,
                           max_open_tables_per_player=max_open_tables_per_player,
                           max_tables_created_per_player=max_tables_created_per_player,
                           max_open_tables_per_address=max_open_tables_per_address,
                           max_tables_created_per_address=max_tables_created_per_address,
                           absent_after=absent_after,  # the countdown every seat is shown
                           idle_absent=idle_absent or None,
                           secret_every=secret_every if secret_every is not None
                           else SECRET_EVERY)
        self.recorder = (Recorder(self.data_dir, self.log, halt=self.lobby.halt) if journal
                         else None)
        self.recover = recover
        # finished games kept and indexed (host.club): without journals there is nothing to keep
        self.history = History(history if journal else "journals", self.data_dir, say)
        self.history.attach(self.lobby)
        if self.recorder is not None:
            self.recorder.finished = self.history.journal_closed
        self.gate = limits.Gate(max_unauthenticated, max_unauthenticated_per_address)
        self.rate_limiter = auth.RateLimiter(address_max=code_backoff)
        # hooks for what runs beside the lobby (host.event, the tournament director): message
        # types it handles itself, and calls with the id of every connection just joined
        self.requests: dict[str, Callable[[int, dict[str, Any]], None]] = {}
        self._connect_listeners: list[Callable[[int], None]] = []
        self.desk = Desk(self.history, self.lobby.conns, self.send_frame)  # profiles, replays
        self.desk.install(self.requests)
        self.links = Links(say, self._route, idle_timeout=idle_timeout,
                           write_high_water=write_high_water,
                           message_limits=(message_rate, message_burst, message_excess_close))
        self.reception = Reception(
            name=self.name, fingerprint=self.fingerprint, games=self.games, open=open,
            room_code=self.room_code, gate=self.gate, rate_limiter=self.rate_limiter,
            handshake_timeout=handshake_timeout, auth_timeout=auth_timeout, log=say,
            holds_seat=self.lobby.holds_seat, joined=self._joined,
            newcomers=Newcomers(identities_per_address))
        self.timers = Timers(self.lobby, bot_delay=bot_delay, absent_after=absent_after, log=say)
        self.announcer = Announcer(name=self.name, fingerprint=self.fingerprint,
                                   games=self.games, open=open, interfaces=interfaces,
                                   open_seats=self.lobby.open_seats, log=say)
        self.dispatch = Dispatcher(self.lobby, self.links, self.timers, self.recorder,
                                   self.announcer, say)
        self.lobby.out.listener = self.dispatch.carry_out  # the core's effects, carried out
        self.port = 0
        self.bind = "127.0.0.1"

    def _say(self, line: str) -> None:
        self.log(line)

    # -- life cycle ----------------------------------------------------------------------
    async def start(self, bind: str = "127.0.0.1", port: int = 0) -> int:
        """Listen on ``bind:port`` (0 = any free port); advertise if ``mdns``. The port."""
        self.timers.open()  # (a stopped host may be started again)
        await self.reception.prepare()
        if self.recorder is not None and self.recover:
            self.recorder.recover(self.lobby)  # before listening: seats resume at once
        self.history.start()  # (in a worker thread: after recovery, which may end a journal)
        self.port = await self.reception.listen(bind, port, self.cert_path, self.key_path)
        self.bind = bind
        self.log(f"listening on {bind}:{self.port} (TLS 1.3), fingerprint "
                 f"{self.fingerprint_human}")
        if self.open:
            self.log("open host: no room code needed")
        else:
            self.log(f"room code {self.room_code}")
        if self.mdns:
            await self.announcer.start(self.port, bind)
        self.timers.start_sweep()
        self.dispatch.start()  # a host started again: what came due while it was stopped
        return self.port

    async def stop(self) -> None:
        """Stop listening, close every connection, cancel timers, leave mDNS (bounded)."""
        self.timers.stop()
        self.reception.close()
        self.dispatch.write_seating()  # the tables still seating, as they are now
        self.dispatch.stop()
        self.links.close_all()
        await self.reception.end_handlers()
        await self.announcer.stop()
        await self.reception.wait_closed()
        if self.recorder is not None:
            self.recorder.close()  # (its writer thread tells the history of the last ends)
        await asyncio.sleep(0)
        await self.history.stop()

    def add_listener(self, callback: Callable[[list[Effect]], None]) -> None:
        """Call ``callback(effects)`` after every change of the core (dashboards)."""
        self.dispatch.listeners.append(callback)

    def add_connect_listener(self, callback: Callable[[int], None]) -> None:
        """Call ``callback(conn_id)`` after every connection has joined the lobby."""
        self._connect_listeners.append(callback)

    def send_frame(self, conn_id: int, data: bytes) -> None:
        """Write an encoded frame (already padded by its maker) to connection ``conn_id``."""
        self.links.write(conn_id, data)

    @property
    def connections(self) -> dict[int, str]:
        """Live authenticated connections: id → peer address."""
        return self.links.connections

    # -- one logged-in connection ---------------------------------------------------------
    async def _joined(self, conn_id: int, reader: asyncio.StreamReader,
                      writer: asyncio.StreamWriter, address: str, identity: bytes,
                      name: str) -> None:
        """A connection that logged in (:mod:`host.reception`): it joins the lobby, its frames
        are read until it ends, then it leaves the lobby."""
        link = self.links.add(conn_id, writer, address)
        try:
            self.log(f"{name} connected from {address} (#{conn_id})")
            self.lobby.connect(conn_id, identity, name, address)
            for listener in self._connect_listeners:
                listener(conn_id)
            await self.links.read(conn_id, reader, link)
        finally:
            if self.links.remove(conn_id) is not None:
                self.lobby.disconnect(conn_id, host_stopping=self.timers.stopped)
                self.log(f"#{conn_id} disconnected")

    def _route(self, conn_id: int, msg: dict[str, Any]) -> None:
        """Where a connection's message goes: a handler beside the lobby (the tournament's
        ``enter``, which may tell every connection: paid from the player's budget for the
        others, :mod:`host.budget`; ``too_fast`` past it) or the lobby."""
        handler = self.requests.get(msg["type"])
        if handler is None:
            self.lobby.handle(conn_id, msg)
            return
        conn = self.lobby.conns.get(conn_id)
        if conn is not None and not conn.budget.spend():
            self.links.send(conn_id, messages.error(
                "too_often", "You ask too often; wait a moment and try again."))
            return
        handler(conn_id, msg)
