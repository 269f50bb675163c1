"""Limits against abuse, as named defaults and small sans-clock helpers the host shell uses.

* :data:`HANDSHAKE_TIMEOUT` — TLS handshake + ``hello`` must be done within it;
  :data:`AUTH_TIMEOUT` — the ``auth`` message must arrive within it after ``welcome``.
* :class:`Gate` — caps on connections that have not authenticated yet, in total
  (:data:`MAX_UNAUTHENTICATED`, at most the door's share of the descriptors) and per address
  (:data:`MAX_UNAUTHENTICATED_PER_ADDRESS`); none at all while fewer descriptors are free than
  the host keeps in reserve (:mod:`host.descriptors`); past
  a cap the least advanced connection (idle TCP first, oldest first) of that address — or of
  the busiest, for the total — is evicted, never the newcomer; counted from the TCP accept,
  before any TLS work, so idle half-open sockets cost a slot each and never lock a player out.
* :class:`MessageLimiter` — a token bucket per authenticated connection
  (:data:`MESSAGE_RATE` per second, bursts of :data:`MESSAGE_BURST`). A message over the budget
  is dropped; the first of a run gets an ``error`` code ``rate_limited``; a run longer than
  :data:`MESSAGE_EXCESS_CLOSE` closes the connection.
* :data:`WRITE_HIGH_WATER` — bytes waiting to be written to one client (queued frames plus the
  TLS transport's buffer) past which that client is dropped: it stopped reading.
* :func:`start_paused_server` — a plain TCP listener whose connections start with reading
  paused, so the shell can count them and then upgrade them to TLS (``writer.start_tls``)
  without losing the ClientHello.

Room-code attempts back off per identity and per address (:class:`protocol.auth.RateLimiter`).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import socket
import ssl
import time
from collections.abc import Awaitable, Callable
from typing import Any

from host.descriptors import BUDGET, Descriptors

HANDSHAKE_TIMEOUT = 10.0
AUTH_TIMEOUT = 10.0
MAX_UNAUTHENTICATED = 64
MAX_UNAUTHENTICATED_PER_ADDRESS = 16
MESSAGE_RATE = 100.0
MESSAGE_BURST = 400
MESSAGE_EXCESS_CLOSE = 200
WRITE_HIGH_WATER = 2 * 1024 * 1024


# how far an unauthenticated connection got (Gate.progress); TURN: its room code waits for its
# turn in the back-off's line (protocol.auth.RateLimiter.check) — such a login is never evicted
TCP, TLS, HELLO, TURN = 0, 1, 2, 3


class Gate:
    """Counts unauthenticated connections and keeps them within caps without locking a player
    out. A new connection is always admitted: if its address is at its cap, that address's
    least advanced connection (idle TCP before TLS before one that sent ``hello``; of equals the
    oldest) is evicted; if the total is full, the same happens at the address holding the most.
    A login whose room code holds a turn in the back-off's line (:data:`TURN`, at most a few
    per address) is never evicted.
    Idle sockets (slowloris) therefore only ever push out each other, and a player's login —
    which reaches ``hello`` within a round trip — is the last thing evicted."""

    def __init__(self, total: int = MAX_UNAUTHENTICATED,
                 per_address: int = MAX_UNAUTHENTICATED_PER_ADDRESS,
                 descriptors: Descriptors | None = BUDGET) -> None:
        # one door's connections never take more than its share of the descriptors
        self.total = min(total, descriptors.share()) if descriptors and total else total
        self.per_address = min(per_address, self.total) if self.total else per_address
        self.descriptors = descriptors
        # address → key → [arrival number, stage, close callback]
        self.waiting: dict[str, dict[int, list[Any]]] = {}
        self.evicted = 0
        self._arrivals = 0

    @property
    def count(self) -> int:
        """Unauthenticated connections now."""
        return sum(len(keys) for keys in self.waiting.values())

    @property
    def by_address(self) -> dict[str, int]:
        """Unauthenticated connections per address."""
        return {a: len(keys) for a, keys in self.waiting.items()}

    def _evict(self, address: str) -> bool:
        """Close the least advanced, oldest connection of ``address`` that holds no turn;
        False if each of them holds one."""
        keys = self.waiting[address]
        movable = [k for k in keys if keys[k][1] < TURN]
        if not movable:
            return False
        victim = min(movable, key=lambda k: (keys[k][1], keys[k][0]))
        _, _, evict = keys.pop(victim)
        if not keys:
            del self.waiting[address]
        self.evicted += 1
        evict()
        return True

    def admit(self, address: str, key: int = 0,
              close: Callable[[], None] = lambda: None) -> str | None:
        """Count connection ``key`` from ``address`` (``close()`` ends it if it is evicted);
        None if admitted (after evicting another if a cap was reached), else why not (a cap
        of 0, or fewer free descriptors than the host keeps in reserve,
        :mod:`host.descriptors`: the caller closes it)."""
        if not self.per_address or not self.total:
            return f"no unauthenticated connections are allowed (from {address})"
        if self.descriptors is not None and not self.descriptors.may_accept():
            return "the host is short of file descriptors; new logins wait"
        if len(self.waiting.get(address, {})) >= self.per_address:
            if not self._evict(address):
                return f"every login from {address} is waiting for its room-code turn"
        elif self.count >= self.total:
            movable = [a for a, keys in self.waiting.items()
                       if any(v[1] < TURN for v in keys.values())]
            if not movable:
                return "every login is waiting for its room-code turn"
            hog = max(movable, key=lambda a: (len(self.waiting[a]),
                                              -min(v[0] for v in self.waiting[a].values())))
            self._evict(hog)
        self._arrivals += 1
        self.waiting.setdefault(address, {})[key] = [self._arrivals, TCP, close]
        return None

    def progress(self, address: str, key: int, stage: int) -> None:
        """Connection ``key`` got as far as ``stage`` (:data:`TLS`, :data:`HELLO`,
        :data:`TURN`)."""
        entry = self.waiting.get(address, {}).get(key)
        if entry is not None:
            entry[1] = max(entry[1], stage)

    def turn_over(self, address: str, key: int) -> None:
        """Connection ``key``'s room code was checked and it may try again: it no longer holds
        a turn (back to :data:`HELLO`, evictable like any login)."""
        entry = self.waiting.get(address, {}).get(key)
        if entry is not None:
            entry[1] = min(entry[1], HELLO)

    def release(self, address: str, key: int = 0) -> None:
        """Connection ``key`` from ``address`` authenticated or went away (idempotent)."""
        keys = self.waiting.get(address)
        if keys is not None:
            keys.pop(key, None)
            if not keys:
                del self.waiting[address]


class TokenBucket:
    """``rate`` tokens per second, at most ``burst`` saved up."""

    def __init__(self, rate: float, burst: int,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = float(burst)
        self.at = clock()

    def ready(self) -> bool:
        """Whether a token is there now (nothing is spent)."""
        now = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (now - self.at) * self.rate)
        self.at = now
        return self.tokens >= 1.0

    def take(self) -> bool:
        """Spend one token if there is one."""
        if self.ready():
            self.tokens -= 1.0
            return True
        return False


OK, WARN, DROP, CLOSE = "ok", "warn", "drop", "close"


class MessageLimiter:
    """Per-connection message budget. :meth:`check` says what to do with one more message:
    ``ok`` (handle it), ``warn`` (drop it, answer ``rate_limited``), ``drop`` (drop it
    silently), ``close`` (the run of excess messages went on too long)."""

    def __init__(self, rate: float = MESSAGE_RATE, burst: int = MESSAGE_BURST,
                 close_after: int = MESSAGE_EXCESS_CLOSE,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.bucket = TokenBucket(rate, burst, clock)
        self.close_after = close_after
        self.excess = 0  # messages dropped since the last one within budget

    def check(self) -> str:
        """The verdict on one more message (see the class)."""
        if self.bucket.take():
            self.excess = 0
            return OK
        self.excess += 1
        if self.excess > self.close_after:
            return CLOSE
        return WARN if self.excess == 1 else DROP


class _PausedStreamProtocol(asyncio.StreamReaderProtocol):
    """A stream protocol that stops reading the moment the connection is made, so bytes the
    peer sends before the shell calls ``start_tls`` stay in the socket."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        pause = getattr(transport, "pause_reading", None)  # duck-typed, not asserted
        if pause is None:
            raise TypeError(f"a {type(transport).__name__} cannot pause reading")
        pause()
        super().connection_made(transport)


def stdlib_loop(loop: asyncio.AbstractEventLoop) -> bool:
    """Whether ``loop`` is asyncio's own (uvloop's is not)."""
    return isinstance(loop, asyncio.BaseEventLoop)


class _Listener:
    """What the shell needs of an ``asyncio.Server`` (``sockets``, ``close``,
    ``wait_closed``), for a listening socket this module accepts on itself."""

    def __init__(self, sock: socket.socket) -> None:
        self.sockets = [sock]
        self.tasks: set[asyncio.Task[Any]] = set()

    def close(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        self.sockets[0].close()

    async def wait_closed(self) -> None:
        if self.tasks:
            await asyncio.wait(list(self.tasks), timeout=3.0)


def _shut(conn: socket.socket) -> None:
    """End a connection whose TLS handshake runs: its transport sees it close and lets go of
    the socket (closing the descriptor under it could hit a reused one)."""
    with contextlib.suppress(OSError):
        conn.shutdown(socket.SHUT_RDWR)


async def _accept_tls(listener: _Listener, serve: Callable[..., Awaitable[None]], limit: int,
                      tls: ssl.SSLContext, handshake_timeout: float, handshaking: Gate) -> None:
    """Accept connections and run their TLS handshakes, each counted by ``handshaking`` (caps
    per address and in total, the descriptor reserve) from the accept to the handshake's end."""
    loop = asyncio.get_running_loop()
    sock = listener.sockets[0]
    keys = itertools.count(1)

    async def handshake(conn: socket.socket, address: str, key: int) -> None:
        reader = asyncio.StreamReader(limit=limit)
        protocol = asyncio.StreamReaderProtocol(reader, serve)
        try:
            await loop.connect_accepted_socket(lambda: protocol, conn, ssl=tls,
                                               ssl_handshake_timeout=handshake_timeout)
        except Exception:  # noqa: BLE001 - silent, evicted, a failed handshake: it is closed
            conn.close()
        finally:
            handshaking.release(address, key)

    while True:
        try:
            conn, peer = await loop.sock_accept(sock)
        except OSError:  # e.g. out of descriptors for a moment: wait, then go on
            await asyncio.sleep(0.5)
            continue
        address, key = str(peer[0]), next(keys)
        conn.setblocking(False)
        if handshaking.admit(address, key, lambda c=conn: _shut(c)) is not None:
            conn.close()
            continue
        task = asyncio.ensure_future(handshake(conn, address, key))
        listener.tasks.add(task)
        task.add_done_callback(listener.tasks.discard)


async def start_paused_server(
        serve: Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]],
        bind: str, port: int, *, limit: int, backlog: int = 128,
        tls: ssl.SSLContext | None = None, handshake_timeout: float = HANDSHAKE_TIMEOUT,
        descriptors: Descriptors | None = BUDGET) -> asyncio.Server | _Listener:
    """Listen on ``bind:port``; each connection calls ``serve(reader, writer)``.

    On asyncio's loop the listener is plain TCP and each connection starts with reading
    paused: the first thing ``serve`` does is ``await writer.start_tls(...)`` (which resumes
    reading) or close — so the gate counts a connection from its TCP accept, before any TLS
    work. On uvloop, whose ``start_tls`` loses the bytes a stream already holds (uvloop issue
    707), this module accepts and does TLS itself (``tls``, bounded by ``handshake_timeout``)
    and ``serve`` is called after the handshake; until then each connection is counted by a
    gate of its own (half the door's share of descriptors, 8 from one address; past a cap the
    oldest handshake of that address, or of the busiest, is ended, never the newcomer), so idle
    sockets cost a slot each and never lock a player out there either."""
    loop = asyncio.get_running_loop()
    share = descriptors.share() if descriptors is not None else MAX_UNAUTHENTICATED
    # asyncio accepts up to ``backlog`` connections at once, each a descriptor before the gate
    # sees it: never more than half the door's share
    backlog = max(8, min(backlog, share // 2))
    if not stdlib_loop(loop) and tls is not None:
        family = socket.AF_INET6 if ":" in bind else socket.AF_INET
        sock = socket.create_server((bind, port), family=family, backlog=backlog)
        sock.setblocking(False)
        listener = _Listener(sock)
        handshaking = Gate(max(8, share // 2), MAX_UNAUTHENTICATED_PER_ADDRESS // 2,
                           descriptors=descriptors)
        task = asyncio.ensure_future(_accept_tls(listener, serve, limit, tls,
                                                 handshake_timeout, handshaking))
        listener.tasks.add(task)
        return listener

    def factory() -> Any:
        reader = asyncio.StreamReader(limit=limit, loop=loop)
        return _PausedStreamProtocol(reader, serve, loop=loop)

    return await loop.create_server(factory, bind, port, backlog=backlog)
