"""A headless Chromium (Debian's ``chromium``) driven over the Chrome DevTools protocol, with
aiohttp's websocket client (aiohttp comes with ``hexnet[web]``): no selenium, no driver binary.

``async with Chromium(profile_dir) as browser: page = await browser.new_page()``; a page can
``goto``, ``type``, ``key``, ``tap`` (a touch), ``click``, ``screenshot``, ``evaluate``, and
read what its terminal received (:meth:`Page.terminal_text`: every byte the page's websocket
got, decoded, escape sequences removed). Every wait polls until a deadline.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import re
import shutil
from pathlib import Path
from typing import Any

import aiohttp

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-default-apps", "--mute-audio", "--remote-debugging-address=127.0.0.1",
         "--remote-debugging-port=0"]
ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-B]"
                     r"|\x1b[=>78DEHMc]")
# Keeps what the page's websockets receive (the terminal's bytes) and the terminal's size.
RECORDER = """
window.__rx = []; window.__tx = []; window.__size = null;
const Original = window.WebSocket;
const decoder = new TextDecoder();
window.WebSocket = function (url, protocols) {
  const m = /width=(\\d+)&height=(\\d+)/.exec(url);
  if (m) window.__size = [parseInt(m[1]), parseInt(m[2])];
  const ws = new Original(url, protocols);
  ws.addEventListener('message', (e) => {
    if (typeof e.data !== 'string') window.__rx.push(decoder.decode(e.data, {stream: true}));
  });
  const send = ws.send.bind(ws);
  ws.send = (data) => {
    try { const env = JSON.parse(data); if (env[0] !== 'stdin') window.__tx.push(env[0]);
          if (env[0] === 'resize') window.__size = [env[1].width, env[1].height]; } catch (e) {}
    send(data);
  };
  return ws;
};
window.WebSocket.prototype = Original.prototype;
"""


def chromium_path() -> str | None:
    """The Chromium binary, if installed."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


class CDPError(Exception):
    """The browser answered a command with an error."""


class _Connection:
    """One DevTools websocket: commands with ids, events kept for waiting on."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.ids = itertools.count(1)
        self.replies: dict[int, asyncio.Future[Any]] = {}
        self.events: list[dict[str, Any]] = []
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for msg in self.ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                continue
            data = json.loads(msg.data)
            if "id" in data and data["id"] in self.replies:
                fut = self.replies.pop(data["id"])
                if not fut.done():
                    if "error" in data:
                        fut.set_exception(CDPError(str(data["error"])))
                    else:
                        fut.set_result(data.get("result", {}))
            elif "method" in data:
                self.events.append(data)

    async def send(self, method: str, timeout: float = 30.0, **params: Any) -> dict[str, Any]:
        n = next(self.ids)
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.replies[n] = fut
        await self.ws.send_json({"id": n, "method": method, "params": params})
        return await asyncio.wait_for(fut, timeout)

    async def close(self) -> None:
        await self.ws.close()
        self.reader.cancel()
        with contextlib.suppress(BaseException):
            await self.reader


class Page:
    """One tab."""

    def __init__(self, conn: _Connection) -> None:
        self.conn = conn

    async def goto(self, url: str, timeout: float = 30.0) -> None:
        """Open ``url`` and wait for its load event; CDPError with the browser's reason
        (``net::ERR_CERT_AUTHORITY_INVALID``…) if it could not."""
        self.conn.events.clear()
        result = await self.conn.send("Page.navigate", url=url)
        if result.get("errorText"):
            raise CDPError(result["errorText"])
        await self.wait_event("Page.loadEventFired", timeout)

    async def wait_event(self, method: str, timeout: float = 30.0) -> dict[str, Any]:
        end = asyncio.get_running_loop().time() + timeout
        while asyncio.get_running_loop().time() < end:
            for e in self.conn.events:
                if e["method"] == method:
                    return e
            await asyncio.sleep(0.05)
        raise AssertionError(f"no {method} within {timeout} s")

    async def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page."""
        result = await self.conn.send("Runtime.evaluate", expression=expression,
                                      returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise CDPError(str(result["exceptionDetails"]))
        return result["result"].get("value")

    async def terminal_text(self) -> str:
        """Everything the page's terminal received, without escape sequences."""
        raw = await self.evaluate("window.__rx.join('')") or ""
        return ESCAPES.sub("", raw)

    async def wait_text(self, text: str, timeout: float = 30.0, since: int = 0) -> str:
        """Wait until the terminal received ``text`` (after character ``since``)."""
        end = asyncio.get_running_loop().time() + timeout
        seen = ""
        while asyncio.get_running_loop().time() < end:
            seen = await self.terminal_text()
            if text in seen[since:]:
                return seen
            await asyncio.sleep(0.2)
        raise AssertionError(f"{text!r} never reached the page; its last 2000 characters:\n"
                             f"{seen[-2000:]}")

    async def focus_terminal(self) -> None:
        await self.evaluate("document.querySelector('.xterm-helper-textarea').focus()")

    async def type(self, text: str) -> None:
        """Type ``text`` into the terminal."""
        await self.focus_terminal()
        await self.conn.send("Input.insertText", text=text)

    async def key(self, key: str) -> None:
        """Press a named key (``Enter``, ``Escape``, ``ArrowDown``…)."""
        codes = {"Enter": (13, "\r"), "Escape": (27, ""), "ArrowLeft": (37, ""),
                 "ArrowUp": (38, ""), "ArrowRight": (39, ""), "ArrowDown": (40, "")}
        vk, text = codes[key]
        await self.focus_terminal()
        for kind in ("keyDown", "keyUp"):
            params: dict[str, Any] = {"type": kind, "key": key, "code": key,
                                      "windowsVirtualKeyCode": vk}
            if kind == "keyDown" and text:
                params["text"] = text
            await self.conn.send("Input.dispatchKeyEvent", **params)

    async def cell_center(self, col: int, row: int) -> tuple[float, float]:
        """The page coordinates of the middle of terminal cell (col, row), 0-based."""
        box = await self.evaluate(
            "(() => { const r = document.querySelector('.xterm-screen')"
            ".getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })()")
        cols, rows = await self.size()
        x0, y0, w, h = box
        return x0 + (col + 0.5) * w / cols, y0 + (row + 0.5) * h / rows

    async def size(self, timeout: float = 15.0) -> tuple[int, int]:
        """The terminal's columns and rows (once the page opened its websocket)."""
        end = asyncio.get_running_loop().time() + timeout
        while (size := await self.evaluate("window.__size")) is None:
            if asyncio.get_running_loop().time() > end:
                raise AssertionError(f"the page opened no terminal within {timeout} s")
            await asyncio.sleep(0.05)
        cols, rows = size
        return cols, rows

    async def tap(self, col: int, row: int) -> None:
        """A finger's tap on a terminal cell (touch events; the browser makes the click)."""
        x, y = await self.cell_center(col, row)
        await self.conn.send("Input.dispatchTouchEvent", type="touchStart",
                             touchPoints=[{"x": x, "y": y}])
        await self.conn.send("Input.dispatchTouchEvent", type="touchEnd", touchPoints=[])

    async def click(self, col: int, row: int) -> None:
        """A mouse click on a terminal cell."""
        x, y = await self.cell_center(col, row)
        for kind in ("mousePressed", "mouseReleased"):
            await self.conn.send("Input.dispatchMouseEvent", type=kind, x=x, y=y,
                                 button="left", clickCount=1)

    async def screenshot(self, path: Path) -> Path:
        """Save a PNG of the page."""
        data = await self.conn.send("Page.captureScreenshot", format="png")
        path.write_bytes(base64.b64decode(data["data"]))
        return path


class Chromium:
    """A headless Chromium with its own profile directory, stopped by its pid on exit."""

    def __init__(self, profile: Path, width: int = 1100, height: int = 700,
                 touch: bool = True, trust: str | None = None, scale: float = 1.0,
                 mobile: bool = False) -> None:
        """``width``×``height`` in CSS pixels, ``scale`` device pixels to a CSS pixel (a
        phone's 3, a laptop's 2); ``mobile``: a phone's browser (its viewport meta tag is
        obeyed, its scrollbars overlay). ``trust``: a public key's SHA-256 in base64
        (``protocol.tls.spki_base64``) whose self-signed certificates this browser accepts —
        the host's, as a guest who compared the fingerprint and clicked through the warning
        once; any other is refused."""
        self.profile, self.width, self.height, self.touch = profile, width, height, touch
        self.scale, self.mobile = scale, mobile
        self.trust = trust
        self.proc: asyncio.subprocess.Process | None = None
        self.http: aiohttp.ClientSession | None = None
        self.endpoint = ""
        self.conns: list[_Connection] = []

    async def __aenter__(self) -> Chromium:
        binary = chromium_path()
        assert binary, "chromium is not installed"
        self.proc = await asyncio.create_subprocess_exec(
            binary, *FLAGS, f"--user-data-dir={self.profile}",
            *([f"--ignore-certificate-errors-spki-list={self.trust}"] if self.trust else []),
            f"--window-size={self.width},{self.height}", "about:blank",
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
        assert self.proc.stderr is not None
        end = asyncio.get_running_loop().time() + 30
        while asyncio.get_running_loop().time() < end:
            line = await asyncio.wait_for(self.proc.stderr.readline(), 30)
            if not line:
                break
            m = re.search(rb"DevTools listening on (ws://\S+)", line)
            if m:
                self.endpoint = m.group(1).decode()
                break
        if not self.endpoint:
            await self.__aexit__(None, None, None)
            raise AssertionError("chromium did not open its DevTools port")
        self._drain = asyncio.create_task(self._drain_stderr())
        self.http = aiohttp.ClientSession()
        return self

    async def _drain_stderr(self) -> None:
        assert self.proc is not None and self.proc.stderr is not None
        with contextlib.suppress(Exception):
            while await self.proc.stderr.read(65536):
                pass

    async def new_page(self) -> Page:
        """A new tab, with the websocket recorder in place and touch enabled."""
        assert self.http is not None
        browser = _Connection(await self.http.ws_connect(self.endpoint, max_msg_size=0))
        self.conns.append(browser)
        target = await browser.send("Target.createTarget", url="about:blank")
        port = self.endpoint.split(":")[2].split("/")[0]
        ws = await self.http.ws_connect(
            f"ws://127.0.0.1:{port}/devtools/page/{target['targetId']}", max_msg_size=0)
        conn = _Connection(ws)
        self.conns.append(conn)
        await conn.send("Page.enable")
        await conn.send("Page.addScriptToEvaluateOnNewDocument", source=RECORDER)
        await conn.send("Emulation.setDeviceMetricsOverride", width=self.width,
                        height=self.height, deviceScaleFactor=self.scale,
                        mobile=self.mobile)
        # A page in front, as on a phone in the guest's hand (headless pages are never focused
        # otherwise, and the terminal then tells the app it lost focus).
        await conn.send("Emulation.setFocusEmulationEnabled", enabled=True)
        if self.touch:
            await conn.send("Emulation.setTouchEmulationEnabled", enabled=True,
                            maxTouchPoints=5)
        return Page(conn)

    async def __aexit__(self, *exc: object) -> None:
        for conn in self.conns:
            with contextlib.suppress(Exception):
                await conn.close()
        if self.http is not None:
            await self.http.close()
        if self.proc is not None and self.proc.returncode is None:
            self.proc.terminate()
            try:
                await asyncio.wait_for(self.proc.wait(), 10)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()
        if getattr(self, "_drain", None) is not None:
            self._drain.cancel()
