"""The host's mDNS announcement kept current (part of the asyncio shell): started with the host,
updated as the lobby changes — coalesced, at most every :data:`COALESCE` seconds — and withdrawn
at the stop (bounded). The announcement itself: :mod:`host.mdns` (imported only when used, so a
host without mDNS never loads zeroconf).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

COALESCE = 0.2  # seconds: a burst of lobby changes is one TXT update


class Announcer:
    """One host's mDNS advertiser and its update loop."""

    def __init__(self, *, name: str, fingerprint: str, games: list[str], open: bool,  # noqa: A002
                 interfaces: list[str] | None, open_seats: Callable[[], int],
                 log: Callable[[str], None]) -> None:
        self.name, self.fingerprint, self.games, self.open = name, fingerprint, games, open
        self.interfaces = interfaces
        self.open_seats = open_seats
        self.log = log
        self._advertiser: Any = None
        self._dirty: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None

    async def start(self, port: int, bind: str) -> None:
        """Announce the host listening on ``bind:port``."""
        from host.mdns import Advertiser

        self._advertiser = Advertiser(self.name, port, self.fingerprint, self.games,
                                      interfaces=self.interfaces, bind=bind)
        await self._advertiser.start(self.open_seats(), self.open)
        self._dirty = asyncio.Event()
        self._task = asyncio.create_task(self._loop())
        self.log(f"advertised on mDNS as {self._advertiser.service_name}")

    def changed(self) -> None:
        """The lobby changed: the TXT record (open seats) is updated soon."""
        if self._dirty is not None:
            self._dirty.set()

    async def stop(self) -> None:
        """Withdraw the announcement (bounded)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
        if self._advertiser is not None:
            try:
                await asyncio.wait_for(self._advertiser.stop(), 5.0)
            finally:
                self._advertiser = None

    async def _loop(self) -> None:
        assert self._dirty is not None
        while True:
            await self._dirty.wait()
            await asyncio.sleep(COALESCE)  # coalesce bursts of lobby changes
            self._dirty.clear()
            if self._advertiser is not None:
                try:
                    await self._advertiser.update(self.open_seats(), self.open)
                except Exception as exc:  # noqa: BLE001 - mDNS trouble must not stop the host
                    self.log(f"mDNS update failed: {exc}")
