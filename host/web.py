"""``hexnet host --web [PORT]``: the hexnet client in a browser, served with textual-serve.

A guest opens ``https://HOST:PORT`` (phone or laptop). The page is textual-serve's terminal
(xterm.js, ``textual.js``, served from the textual-serve package); its websocket gets a client of
its own: :class:`textual_serve.app_service.AppService` starts ``python -m client.guest`` on this
machine (see :mod:`host.guests`), which connects to this host over TLS on 127.0.0.1 and asks the
guest's name and the room code. Only the textual-serve pieces that launch one app per websocket
and relay it are used; the HTTP side is this module's own (no download route, no third-party
fonts, a cookie for identity).

* **Encryption.** HTTPS only (:mod:`host.https`): TLS 1.3 with the host's own key, the one its
  game port and SSH door use, in a certificate naming the host's addresses. The browser warns
  once (no authority vouches for a LAN laptop); the host shows the start of the key's SHA-256
  for the guest to compare. A plain ``http://`` request on the port is only redirected.

* **Identity.** The page sets a cookie (``hexnet_guest``: 32 random bytes, HttpOnly, Secure,
  SameSite=Strict, 30 days); the websocket's client gets the identity derived from it, so a
  reload (or a dropped phone connection) resumes the seat, and two browsers are two players.
  Tabs of one browser share the cookie: the newest tab takes the seat over, as a reconnect
  does. A browser without the cookie gets a fresh identity.
* **Limits.** Connections that are not yet a session: a whole request head within 10 s, idle
  keep-alive closed after 15 s, at most 64 (12 from one address), none while the host is short
  of descriptors (:mod:`host.https`). Client processes per remote address and in total
  (:class:`host.guests.SessionCaps`);
  a websocket from another origin is refused; messages over 64 KiB close it; a session with no
  input from the browser for ``idle_after`` seconds is closed (the seat stays; a reload comes
  back); the websocket's heartbeat finds a vanished browser in 30 s. Each guest's client
  connects from its own loopback address, so the game port's limits (room-code attempts) count
  each guest apart.
* **Touch.** xterm.js turns taps into mouse clicks: footer keys, lists, buttons. The page
  (:mod:`host.webpage`) picks the font size: the client's 80×24 where it fits at 12 px or more
  (a phone held sideways gets 12 px), else 14–16 px for the client's one-column layout (a phone
  upright); it draws right at any device pixel ratio and has the keyboard from the start.
* **Large print.** ``?large`` fits 60×20 cells (for reading from across the room or with
  low vision) with a font up to twice the size; ``?fontsize=N`` (8–48 px) sets one.
* **Language.** The client speaks the first of the browser's ``Accept-Language`` that hexnet
  speaks (else the host's locale).

The page serves nothing but static files and the guest's own terminal: another seat's view never
passes through it.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import json
import shlex
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

import textual_serve
from aiohttp import WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

from host import guests, https, webpage
from protocol import tls

COOKIE = "hexnet_guest"
COOKIE_DAYS = 30
MAX_MESSAGE = 64 * 1024
HEARTBEAT = 15.0
STOP_WAIT = 5.0
STATIC = Path(textual_serve.__file__).parent / "static"
MAX_FONT = 48  # px: ?fontsize=N up to this

def new_token() -> str:
    """A fresh browser token: 32 random bytes, URL-safe base64 without padding."""
    import secrets

    return base64.urlsafe_b64encode(secrets.token_bytes(32)).decode().rstrip("=")


def token_bytes(text: str | None) -> bytes | None:
    """The 32 bytes of a well-formed token, else None."""
    if not text or len(text) != 43:
        return None
    try:
        raw = base64.urlsafe_b64decode(text + "=")
    except (binascii.Error, ValueError):
        return None
    return raw if len(raw) == 32 else None


def same_origin(request: web.Request) -> bool:
    """Whether the request has no Origin or one naming the (HTTPS) host it was sent to."""
    origin = request.headers.get("Origin")
    if origin is None:
        return True
    return origin == f"https://{request.host}"


def _clamp(text: str | None, low: int, high: int, default: int) -> int:
    try:
        return max(low, min(high, int(text or default)))
    except ValueError:
        return default


class GuestService(AppService):
    """One guest's client process, started without a shell from an argv."""

    def __init__(self, argv: list[str], **kwargs: Any) -> None:
        super().__init__(shlex.join(argv), **kwargs)
        self.argv = argv
        self._ending: asyncio.Future[None] | None = None

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Any:
        # textual-serve's own runs the command through a shell; an argv needs none.
        self._process = process = await asyncio.create_subprocess_exec(
            *self.argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=guests.client_environment(self._build_environment(width, height)))
        assert process.stdin is not None
        self._stdin = process.stdin
        return process

    @property
    def pid(self) -> int | None:
        """The client process's id, once started."""
        return self._process.pid if self._process is not None else None

    @property
    def exit_code(self) -> int | None:
        """The client process's exit code once it has ended (and been reaped), else None."""
        return self._process.returncode if self._process is not None else None

    async def end(self, wait: float = STOP_WAIT) -> None:
        """Ask the client to quit; kill it (by its pid) if it has not within ``wait`` s. The
        same work for every caller, done once."""
        if self._ending is None:
            self._ending = asyncio.ensure_future(self._finish(wait))
        await asyncio.shield(self._ending)

    async def _finish(self, wait: float) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.stop(), wait)
        process = self._process
        if process is not None:
            # Wait first: killing a process that has just exited would reap it behind
            # asyncio's back (Popen.send_signal polls).
            try:
                await asyncio.wait_for(process.wait(), wait)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(process.wait(), wait)
        if self._task is not None:
            self._task.cancel()


class WebDoor:
    """The web front door of ``host`` (a started :class:`host.server.Host`)."""

    def __init__(self, host: Any, *, bind: str = "0.0.0.0", port: int = 8080,
                 caps: guests.SessionCaps | None = None, idle_after: float = guests.IDLE_AFTER,
                 addresses: list[str] | None = None,
                 log: Callable[[str], None] | None = None,
                 header_wait: float = https.HEADER_WAIT) -> None:
        self.host = host
        self.header_wait = header_wait
        self.bind, self.port = bind, port
        self.addresses = list(addresses or ([] if bind in ("", "0.0.0.0", "::") else [bind]))
        self.caps = caps or guests.SessionCaps()
        self.idle_after = idle_after
        self.log = log or host.log
        self.secret = guests.guest_secret(host.config_dir)
        # What a guest compares in the browser's certificate viewer (public key SHA-256).
        self.key_fingerprint = tls.colon_fingerprint(host.fingerprint, 8) + ":…"
        self.sessions: dict[int, tuple[web.WebSocketResponse, GuestService, str]] = {}
        self._runner: web.AppRunner | None = None
        self._plain: web.AppRunner | None = None
        self._port: https.HttpsPort | None = None
        self._downloads = DownloadManager()  # AppService wants one; nothing is offered

    def make_app(self) -> web.Application:
        """The aiohttp application: the page, the websocket, textual-serve's static files."""
        app = web.Application()
        app.add_routes([web.get("/", self.page), web.get("/ws", self.websocket),
                        web.static("/hexnet", webpage.STATIC, show_index=False),
                        web.static("/static", STATIC, show_index=False)])
        app.on_response_prepare.append(self._headers)
        return app

    async def start(self) -> int:
        """Listen on ``bind:port`` (0 = any free port), HTTPS with the host's key; the port."""
        loop_names = ["localhost", socket.gethostname(), socket.gethostname() + ".local"]
        cert = tls.ensure_web_cert(self.host.config_dir,
                                   [*self.addresses, "127.0.0.1", "::1"], loop_names)
        context = tls.server_context(cert, self.host.key_path)
        self._runner = web.AppRunner(self.make_app(), access_log=None, shutdown_timeout=2.0,
                                     keepalive_timeout=https.IDLE_WAIT)
        self._plain = web.AppRunner(https.redirect_app(
            self.addresses[0] if self.addresses else self.bind, lambda: self.port),
            access_log=None, shutdown_timeout=1.0, keepalive_timeout=https.IDLE_WAIT)
        await self._runner.setup()
        await self._plain.setup()
        self._port = https.HttpsPort(self._runner.server, self._plain.server, context,
                                     log=self.log, header_wait=self.header_wait)
        try:
            self.port = await self._port.start(self.bind, self.port)
        except BaseException:
            await self.stop()
            raise
        return self.port

    async def stop(self) -> None:
        """Close every guest session (their client processes end) and stop listening."""
        if self._port is not None:
            await self._port.stop()
            self._port = None
        for ws, service, _ in list(self.sessions.values()):
            with contextlib.suppress(Exception):
                await ws.close()
            await service.end()
        for runner in (self._runner, self._plain):
            if runner is not None:
                await runner.cleanup()
        self._runner = self._plain = None

    # -- HTTP ----------------------------------------------------------------------------
    @staticmethod
    async def _headers(request: web.Request, response: web.StreamResponse) -> None:
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        if response.content_type == "text/html":
            response.headers["Cache-Control"] = "no-store"
            response.headers["Content-Security-Policy"] = (
                "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
                "connect-src 'self'; frame-ancestors 'none'")

    async def page(self, request: web.Request) -> web.Response:
        """The page: a terminal whose websocket runs this browser's client."""
        asked = request.query.get("fontsize")
        body = webpage.page_html(self.host.name, f"wss://{request.host}/ws",
                                 _clamp(asked, 8, MAX_FONT, 16) if asked else None,
                                 large="large" in request.query)
        response = web.Response(text=body, content_type="text/html")
        token = request.cookies.get(COOKIE)
        if token_bytes(token) is None:
            token = new_token()
        # Sent again on every visit: the 30 days count from the last one.
        response.set_cookie(COOKIE, token, max_age=COOKIE_DAYS * 86400, path="/",
                            httponly=True, secure=True, samesite="Strict")
        return response

    async def websocket(self, request: web.Request) -> web.StreamResponse:
        """One browser's session: a client process relayed over this websocket."""
        if not same_origin(request):
            raise web.HTTPForbidden(text="hexnet: a page from another site may not open a "
                                         "session here.")
        address = str(request.remote or "?")
        ws = web.WebSocketResponse(heartbeat=HEARTBEAT, max_msg_size=MAX_MESSAGE)
        await ws.prepare(request)
        refused = self.caps.admit(address)
        if refused is not None:
            self.log(f"web: refused {address}: {refused}")
            await ws.send_bytes(f"\r\nhexnet: {refused}; close another tab and reload.\r\n"
                                .encode())
            await ws.close()
            return ws
        if self._port is not None:  # a session now: out of the caps of connections that are not
            self._port.promote(request.transport)
        token = token_bytes(request.cookies.get(COOKIE))
        if token is None:
            token = token_bytes(new_token())
            assert token is not None
        guest = guests.GuestDir(guests.guest_key(self.secret, "web", token))
        argv = guests.client_command(
            self.host, guest, address,
            guests.browser_language(request.headers.get("Accept-Language")))
        service = GuestService(argv, write_bytes=ws.send_bytes, write_str=ws.send_str,
                               close=ws.close, download_manager=self._downloads)
        try:
            await service.start(_clamp(request.query.get("width"), 20, guests.MAX_COLS, 80),
                                _clamp(request.query.get("height"), 8, guests.MAX_ROWS, 24))
            self.sessions[id(ws)] = (ws, service, address)
            self.log(f"web: guest from {address} (client pid {service.pid})")
            await self._relay(ws, service, address)
        except (ConnectionError, OSError) as exc:
            self.log(f"web: session from {address} failed: {exc}")
        finally:
            await service.end()
            self.sessions.pop(id(ws), None)
            guest.remove()
            self.caps.release(address)
            with contextlib.suppress(Exception):
                await ws.close()
            self.log(f"web: guest from {address} left")
        return ws

    async def _relay(self, ws: web.WebSocketResponse, service: GuestService,
                     address: str) -> None:
        """Browser → client until the browser goes, the client ends, or input stops."""
        while not ws.closed:
            try:
                msg = await asyncio.wait_for(ws.receive(), self.idle_after)
            except TimeoutError:
                self.log(f"web: guest from {address} idle for {self.idle_after:.0f} s; closed")
                return
            if msg.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED,
                            WSMsgType.ERROR):
                return
            if msg.type != WSMsgType.TEXT:
                continue
            try:
                kind, data = json.loads(msg.data)
            except (ValueError, TypeError):
                continue  # not an envelope: ignored
            if kind == "stdin" and isinstance(data, str):
                await service.send_bytes(data.encode("utf-8", "replace"))
            elif kind == "resize" and isinstance(data, dict):
                await service.set_terminal_size(
                    _clamp(str(data.get("width")), 20, guests.MAX_COLS, 80),
                    _clamp(str(data.get("height")), 8, guests.MAX_ROWS, 24))
            elif kind == "ping" and isinstance(data, str):
                await ws.send_json(["pong", data[:32]])
            elif kind == "blur":
                await service.blur()
            elif kind == "focus":
                await service.focus()

