"""Finding hosts on the LAN: mDNS browse of ``_hexnet._tcp.local.``.

``await browse(timeout, interfaces)`` → the hosts seen within ``timeout`` seconds.
``async with Browser(interfaces) as b: async for event, host in b.events(): ...`` → a live list:
``("added"|"updated", HostInfo)`` and ``("removed", HostInfo)``; ``b.hosts`` is the current
dict (service name → HostInfo). The fingerprint in TXT is only a hint: clients still pin.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from zeroconf import IPVersion, ServiceStateChange
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

SERVICE_TYPE = "_hexnet._tcp.local."


@dataclass(frozen=True)
class HostInfo:
    """One advertised host."""

    name: str
    address: str
    port: int
    fingerprint: str
    games: tuple[str, ...]
    open_seats: int
    version: int
    open: bool = False
    service: str = ""


def _decode(props: dict[bytes, bytes | None]) -> dict[str, str]:
    out = {}
    for k, v in props.items():
        with contextlib.suppress(UnicodeDecodeError):
            out[k.decode()] = (v or b"").decode()
    return out


def host_info(info: AsyncServiceInfo) -> HostInfo | None:
    """A HostInfo from a resolved service (None if it lacks an address or readable TXT)."""
    addresses = info.parsed_addresses(IPVersion.V4Only)
    if not addresses or not info.port:
        return None
    p = _decode(info.properties or {})
    try:
        seats, version = int(p.get("seats", "0")), int(p.get("v", "0"))
    except ValueError:
        return None
    return HostInfo(name=p.get("name", info.name)[:63], address=addresses[0], port=info.port,
                    fingerprint=p.get("fp", ""), games=tuple(g for g in p.get("games", "")
                                                             .split(",") if g),
                    open_seats=seats, version=version, open=p.get("open") == "1",
                    service=info.name)


class Browser:
    """A live browse; use as ``async with``."""

    def __init__(self, interfaces: list[str] | None = None) -> None:
        self.interfaces = interfaces
        self.hosts: dict[str, HostInfo] = {}
        self._events: asyncio.Queue[tuple[str, HostInfo]] = asyncio.Queue()
        self._zc: AsyncZeroconf | None = None
        self._browser: AsyncServiceBrowser | None = None
        self._tasks: set[asyncio.Task[Any]] = set()

    async def __aenter__(self) -> Browser:
        kwargs: dict[str, Any] = {"ip_version": IPVersion.V4Only}
        if self.interfaces:
            kwargs["interfaces"] = self.interfaces
        self._zc = AsyncZeroconf(**kwargs)
        self._browser = AsyncServiceBrowser(self._zc.zeroconf, [SERVICE_TYPE],
                                            handlers=[self._on_change])
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Stop browsing (bounded)."""
        for task in list(self._tasks):
            task.cancel()
        if self._browser is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._browser.async_cancel(), 3.0)
            self._browser = None
        if self._zc is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._zc.async_close(), 5.0)
            self._zc = None

    def _on_change(self, zeroconf: Any, service_type: str, name: str,
                   state_change: ServiceStateChange) -> None:
        if state_change is ServiceStateChange.Removed:
            gone = self.hosts.pop(name, None)
            if gone is not None:
                self._events.put_nowait(("removed", gone))
            return
        task = asyncio.ensure_future(self._resolve(service_type, name))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _resolve(self, service_type: str, name: str) -> None:
        assert self._zc is not None
        info = AsyncServiceInfo(service_type, name)
        if not await info.async_request(self._zc.zeroconf, 3000):
            return
        host = host_info(info)
        if host is None:
            return
        kind = "updated" if name in self.hosts else "added"
        self.hosts[name] = host
        self._events.put_nowait((kind, host))

    async def events(self) -> AsyncIterator[tuple[str, HostInfo]]:
        """Changes as they happen (forever; cancel or break out)."""
        while True:
            yield await self._events.get()


async def browse(timeout: float = 3.0, interfaces: list[str] | None = None) -> list[HostInfo]:
    """The hosts found within ``timeout`` seconds, sorted by name."""
    async with Browser(interfaces) as browser:
        end = time.monotonic() + timeout
        while (left := end - time.monotonic()) > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(browser._events.get(), left)
        return sorted(browser.hosts.values(), key=lambda h: (h.name, h.address, h.port))
