"""mDNS advertisement of a host: service ``_hexnet._tcp.local.`` via python-zeroconf.

TXT: ``v`` (protocol version), ``fp`` (hex fingerprint — a hint; clients still pin), ``name``
(host name), ``games`` (comma-separated), ``seats`` (open seats), ``open`` ("1" if no code is
needed). The room code is never advertised. ``interfaces`` limits where it is announced (tests:
``["127.0.0.1"]``).
"""

from __future__ import annotations

import re
import socket
from typing import Any

from zeroconf import IPVersion
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

from protocol import PROTOCOL_VERSION

SERVICE_TYPE = "_hexnet._tcp.local."


def advertised_addresses(interfaces: list[str] | None, bind: str) -> list[str]:
    """The IPv4 addresses to announce: ``interfaces``, else ``bind`` unless it is a wildcard,
    else every non-loopback IPv4 address of this machine (127.0.0.1 if it has none)."""
    if interfaces:
        return list(interfaces)
    if bind not in ("", "0.0.0.0", "::"):
        return [bind]
    import ifaddr

    found = [ip.ip for adapter in ifaddr.get_adapters() for ip in adapter.ips
             if isinstance(ip.ip, str) and not ip.ip.startswith("127.")]
    return found or ["127.0.0.1"]


def txt(name: str, fingerprint: str, games: list[str], open_seats: int,
        host_open: bool) -> dict[str, str]:
    """The TXT properties."""
    return {"v": str(PROTOCOL_VERSION), "fp": fingerprint, "name": name[:63],
            "games": ",".join(games)[:200], "seats": str(open_seats),
            "open": "1" if host_open else "0"}


class Advertiser:
    """Registers, updates and unregisters one host's service."""

    def __init__(self, name: str, port: int, fingerprint: str, games: list[str], *,
                 interfaces: list[str] | None = None, bind: str = "0.0.0.0") -> None:
        self.name, self.port, self.fingerprint, self.games = name, port, fingerprint, games
        self.interfaces = interfaces
        self.addresses = advertised_addresses(interfaces, bind)
        label = re.sub(r"[^A-Za-z0-9 _-]", "", name)[:40].strip() or "hexnet"
        self.service_name = f"{label} {fingerprint[:8]}.{SERVICE_TYPE}"
        self._zc: AsyncZeroconf | None = None
        self._info: AsyncServiceInfo | None = None

    def _make_info(self, open_seats: int, host_open: bool) -> AsyncServiceInfo:
        server = f"hexnet-{self.fingerprint[:12]}.local."
        return AsyncServiceInfo(
            SERVICE_TYPE, self.service_name, port=self.port,
            addresses=[socket.inet_aton(a) for a in self.addresses],
            properties=txt(self.name, self.fingerprint, self.games, open_seats, host_open),
            server=server)

    async def start(self, open_seats: int, host_open: bool) -> None:
        """Register the service."""
        kwargs: dict[str, Any] = {"ip_version": IPVersion.V4Only}
        if self.interfaces:
            kwargs["interfaces"] = self.interfaces
        self._zc = AsyncZeroconf(**kwargs)
        self._info = self._make_info(open_seats, host_open)
        try:
            task = await self._zc.async_register_service(self._info, allow_name_change=True)
            await task  # the announcement itself
        except BaseException:
            await self._zc.async_close()
            self._zc = None
            raise
        self.service_name = self._info.name

    async def update(self, open_seats: int, host_open: bool) -> None:
        """Refresh the TXT record."""
        if self._zc is None or self._info is None:
            return
        info = self._make_info(open_seats, host_open)
        info.name = self._info.name
        self._info = info
        task = await self._zc.async_update_service(info)
        await task

    async def stop(self) -> None:
        """Unregister (goodbye packets) and close, whatever happens."""
        if self._zc is None:
            return
        try:
            if self._info is not None:
                task = await self._zc.async_unregister_service(self._info)
                await task  # goodbye packets sent
        finally:
            await self._zc.async_close()
            self._zc = None
