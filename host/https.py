"""One port for the web door, HTTPS only: TLS 1.3 with the host's own key, and a plain-HTTP
request on the same port answered with a redirect to ``https://`` (a guest who types
``HOST:8080`` into a phone gets ``http://`` and would otherwise see a reset connection).

Each accepted connection's first byte is peeked (``MSG_PEEK``: nothing is consumed): a TLS
handshake starts with 0x16, and that connection is handed, TLS and all, to the aiohttp
application's server; anything else goes to a second aiohttp application that only redirects.
A connection that says nothing within :data:`FIRST_BYTE_WAIT` s is closed, as is one past
:data:`MAX_PENDING` undecided connections (in total) or :data:`MAX_PENDING_PER_ADDRESS` (from
one address); the TLS handshake has :data:`HANDSHAKE_WAIT` s.

Once handed on, a connection that has not become a session (a websocket with a client behind
it, :meth:`HttpsPort.promote`) is still watched (slowloris: headers a byte at a time):

* every request's head — request line and headers — must arrive whole within
  :data:`HEADER_WAIT` s of its first byte (of the connection's start, for the first one);
* such connections are capped, :data:`MAX_OPEN` in total and :data:`MAX_OPEN_PER_ADDRESS` from
  one address (a :class:`host.limits.Gate`: past a cap the least advanced — no request head
  yet — and oldest of that address, or of the busiest for the total, is closed, never the
  newcomer);
* an idle keep-alive connection is closed after :data:`IDLE_WAIT` s (the application's
  ``keepalive_timeout``, set by :mod:`host.web`);
* no connection is accepted while fewer descriptors are free than the host keeps in reserve,
  and the caps above never pass the door's share of them (:mod:`host.descriptors`).

The certificate (:func:`protocol.tls.ensure_web_cert`) carries the host's key, so its public-key
fingerprint is the host's; it names the host's addresses so a browser that is told to trust that
key (or a guest who clicks through the warning once) sees no other error.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import re
import socket
import ssl
from collections import Counter
from collections.abc import Callable

from aiohttp import web

from host import limits
from host.descriptors import BUDGET, Descriptors

TLS_HANDSHAKE = 0x16  # the first byte of a TLS record carrying a handshake (ClientHello)
FIRST_BYTE_WAIT = 10.0
HANDSHAKE_WAIT = 10.0
HEADER_WAIT = 10.0  # a request's head (line and headers) arrives whole within this
IDLE_WAIT = 15.0  # an idle keep-alive connection (no request) is closed after this
MAX_PENDING = 64
MAX_PENDING_PER_ADDRESS = 8
MAX_OPEN = 64  # connections handed on that are not a session yet, in all
MAX_OPEN_PER_ADDRESS = 12  # … from one address (a browser opens about six to load the page)
HEAD_END = b"\r\n\r\n"
SAFE_PATH = re.compile(r"/[A-Za-z0-9/?=&._\-]{0,200}")


def redirect_target(address: str, port: int, path: str) -> str:
    """The ``https://`` address a plain-HTTP request for ``path`` is sent to: the address and
    port the host serves it on (an IPv6 address in brackets); an unusual path becomes ``/``.
    The request's Host header plays no part: a forged one would send the guest elsewhere."""
    host = f"[{address}]" if ":" in address else address
    return f"https://{host}:{port}{path if SAFE_PATH.fullmatch(path or '') else '/'}"


def redirect_app(fallback: str, fallback_port: Callable[[], int]) -> web.Application:
    """The plain-HTTP side: every request is sent to the same path over HTTPS on the address
    it reached (the socket's own; ``fallback`` and ``fallback_port()`` if that is unknown). 308
    keeps the method; the body says so for a client that does not follow redirects."""

    async def send_on(request: web.Request) -> web.Response:
        local = request.transport.get_extra_info("sockname") if request.transport else None
        address, port = (str(local[0]), int(local[1])) if local else (fallback,
                                                                       fallback_port())
        target = redirect_target(address.removeprefix("::ffff:"), port, request.path_qs)
        return web.Response(status=308, headers={"Location": target, "Cache-Control": "no-store"},
                            text=f"hexnet: this door is HTTPS only: {target}\n")

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", send_on)
    return app


class _Watched(asyncio.Protocol):
    """Stands between a connection handed on and its server's protocol (aiohttp's request
    handler): times each request's head and counts the connection at the port's gate until it
    becomes a session."""

    def __init__(self, inner: asyncio.BaseProtocol, port: HttpsPort, address: str,
                 key: int) -> None:
        self.inner, self.port, self.address, self.key = inner, port, address, key
        self.transport: asyncio.BaseTransport | None = None
        self.session = False
        self._tail = b""
        self._head_timer: asyncio.TimerHandle | None = None

    def _close(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.abort()  # type: ignore[attr-defined]

    def _arm(self) -> None:
        self._head_timer = asyncio.get_running_loop().call_later(
            self.port.header_wait, self._head_late)

    def _head_late(self) -> None:
        self._head_timer = None
        self.port.slow_heads += 1
        self._close()

    def promote(self) -> None:
        """The connection is a session now: no more head timing, out of the gate's count."""
        self.session = True
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None
        self.port.open.release(self.address, self.key)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport
        self.port.watched[transport] = self
        # counted from here (TLS done) until it is a session or closed; past a cap the least
        # advanced (no request head yet) and oldest is closed
        self.port.open.admit(self.address, self.key, self._close)
        self._arm()
        self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if not self.session:
            self._scan(data)
        self.inner.data_received(data)  # type: ignore[attr-defined]

    def _scan(self, data: bytes) -> None:
        """Heads in ``data``: each complete one stops its timer; bytes after it start the
        next request's."""
        seen = self._tail + data
        start = 0
        while True:
            if self._head_timer is None:
                self._arm()  # a new request begins with these bytes
            end = seen.find(HEAD_END, start)
            if end < 0:
                break
            self._head_timer.cancel()  # type: ignore[union-attr]
            self._head_timer = None
            self.port.open.progress(self.address, self.key, limits.HELLO)
            start = end + len(HEAD_END)
            if start >= len(seen):
                break
        self._tail = seen[max(start, len(seen) - len(HEAD_END) + 1):]

    def eof_received(self) -> bool | None:
        return self.inner.eof_received()  # type: ignore[attr-defined]

    def connection_lost(self, exc: Exception | None) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None
        if self.transport is not None:
            self.port.watched.pop(self.transport, None)
        if not self.session:
            self.port.open.release(self.address, self.key)
        self.inner.connection_lost(exc)

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()


class HttpsPort:
    """A listening socket whose TLS connections go to ``server`` (an aiohttp ``web.Server``,
    ``AppRunner.server``) and whose plain-HTTP ones to ``plain`` (the redirect)."""

    def __init__(self, server: Callable[[], asyncio.BaseProtocol],
                 plain: Callable[[], asyncio.BaseProtocol], context: ssl.SSLContext, *,
                 log: Callable[[str], None] = lambda line: None,
                 first_byte_wait: float = FIRST_BYTE_WAIT, header_wait: float = HEADER_WAIT,
                 max_open: int = MAX_OPEN, max_open_per_address: int = MAX_OPEN_PER_ADDRESS,
                 descriptors: Descriptors | None = BUDGET) -> None:
        self.server, self.plain, self.context, self.log = server, plain, context, log
        self.first_byte_wait, self.header_wait = first_byte_wait, header_wait
        self.descriptors = descriptors
        # the door's share of the descriptors, half for undecided connections, half for the rest
        half = descriptors.share() // 2 if descriptors is not None else MAX_PENDING
        self.max_pending = max(1, min(MAX_PENDING, half))
        self.max_pending_per_address = min(MAX_PENDING_PER_ADDRESS, self.max_pending)
        self.open = limits.Gate(max(1, min(max_open, half)), max_open_per_address,
                                descriptors=None)
        self.watched: dict[asyncio.BaseTransport, _Watched] = {}
        self.port = 0
        self.pending: Counter[str] = Counter()
        self.tls_count = self.plain_count = self.dropped = self.slow_heads = 0
        self._keys = itertools.count(1)
        self._sock: socket.socket | None = None
        self._accepting: asyncio.Task[None] | None = None
        self._sorting: set[asyncio.Task[None]] = set()

    async def start(self, bind: str, port: int) -> int:
        """Listen on ``bind:port`` (0 = any free port); the port. OSError if it cannot."""
        family = socket.AF_INET6 if ":" in bind else socket.AF_INET
        sock = socket.create_server((bind, port), family=family, backlog=128)
        sock.setblocking(False)
        self._sock = sock
        self.port = sock.getsockname()[1]
        self._accepting = asyncio.ensure_future(self._accept_loop())
        return self.port

    async def stop(self) -> None:
        """Stop accepting; undecided connections are closed (the servers close the rest)."""
        tasks = [t for t in (self._accepting, *self._sorting) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    def promote(self, transport: asyncio.BaseTransport | None) -> None:
        """The connection of ``transport`` became a session (a websocket with a client behind
        it): it leaves the caps and timers of connections that are not."""
        watched = self.watched.get(transport) if transport is not None else None
        if watched is not None:
            watched.promote()

    async def _accept_loop(self) -> None:
        loop = asyncio.get_running_loop()
        assert self._sock is not None
        while True:
            try:
                conn, peer = await loop.sock_accept(self._sock)
            except OSError as exc:  # e.g. out of file descriptors: wait, then go on
                self.log(f"web: accept failed: {exc}")
                await asyncio.sleep(0.5)
                continue
            address = str(peer[0])
            if (sum(self.pending.values()) >= self.max_pending
                    or self.pending[address] >= self.max_pending_per_address
                    or (self.descriptors is not None and not self.descriptors.may_accept())):
                self.dropped += 1
                conn.close()
                continue
            conn.setblocking(False)
            self.pending[address] += 1
            task = asyncio.ensure_future(self._sort(conn, address))
            self._sorting.add(task)
            task.add_done_callback(self._sorting.discard)

    def _watch(self, factory: Callable[[], asyncio.BaseProtocol],
               address: str) -> Callable[[], asyncio.BaseProtocol]:
        return lambda: _Watched(factory(), self, address, next(self._keys))

    async def _sort(self, conn: socket.socket, address: str) -> None:
        """Hand ``conn`` to the TLS or the plain server by its first byte."""
        loop = asyncio.get_running_loop()
        handed = False
        try:
            first = await asyncio.wait_for(self._peek(loop, conn), self.first_byte_wait)
            if first == TLS_HANDSHAKE:
                self.tls_count += 1
                handed = True
                await loop.connect_accepted_socket(
                    self._watch(self.server, address), conn, ssl=self.context,
                    ssl_handshake_timeout=HANDSHAKE_WAIT)
            elif first is not None:
                self.plain_count += 1
                handed = True
                await loop.connect_accepted_socket(self._watch(self.plain, address), conn)
        except Exception:  # noqa: BLE001 - silent, gone, a failed handshake: closed below
            pass
        finally:
            self.pending[address] -= 1
            if self.pending[address] <= 0:
                del self.pending[address]
            if not handed:
                conn.close()

    @staticmethod
    async def _peek(loop: asyncio.AbstractEventLoop, conn: socket.socket) -> int | None:
        """The connection's first byte, left unread; None if it closed first."""
        def wake(ready: asyncio.Future[None]) -> None:
            if not ready.done():
                ready.set_result(None)

        while True:
            ready: asyncio.Future[None] = loop.create_future()
            loop.add_reader(conn.fileno(), wake, ready)
            try:
                await ready
            finally:
                loop.remove_reader(conn.fileno())
            try:
                data = conn.recv(1, socket.MSG_PEEK)
            except (BlockingIOError, InterruptedError):
                continue
            return data[0] if data else None
