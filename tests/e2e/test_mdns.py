"""mDNS on 127.0.0.1 only: a host is found with the right TXT, updated, and seen leaving."""

from __future__ import annotations

import asyncio

import pytest

from client.cli import format_host
from client.discovery import Browser, browse
from host.server import Host
from protocol import PROTOCOL_VERSION
from protocol.tls import short_fingerprint

pytestmark = [pytest.mark.timeout(60), pytest.mark.mdns]


async def wait_for_event(browser: Browser, kinds: tuple[str, ...], fingerprint: str,
                         seconds: float = 10, open_seats: int | None = None):
    async def go():
        async for event, info in browser.events():
            if event in kinds and info.fingerprint == fingerprint and (
                    open_seats is None or info.open_seats == open_seats):
                return info
    return await asyncio.wait_for(go(), seconds)


async def browse_until_heard(fingerprint: str, seconds: float = 30.0) -> list:
    """What ``browse`` lists for ``fingerprint``, listening again (2 s at a time, as ``hexnet
    list --timeout 2``) until the host is heard: with other mDNS processes on the machine (a
    parallel run) and under load, one window may hear nothing."""
    deadline = asyncio.get_running_loop().time() + seconds
    while True:
        found = [h for h in await browse(2.0, ["127.0.0.1"]) if h.fingerprint == fingerprint]
        if found or asyncio.get_running_loop().time() >= deadline:
            return found


async def test_list_finds_the_host_with_its_txt_sees_updates_and_sees_it_leave(dirs) -> None:
    host = Host("Kitchen table", dirs["host_cfg"], dirs["host_data"], mdns=True,
                interfaces=["127.0.0.1"], bot_delay=0, games=["toy"])
    await host.start("127.0.0.1", 0)
    stopped = False
    try:
        found = await browse_until_heard(host.fingerprint)
        assert len(found) == 1
        h = found[0]
        assert (h.name, h.address, h.port, h.games, h.open_seats, h.version, h.open) == (
            "Kitchen table", "127.0.0.1", host.port, ("toy",), 0, PROTOCOL_VERSION, False)
        assert host.room_code.replace("-", "") not in repr(h)
        line = format_host(h)
        assert line.startswith("Kitchen table  127.0.0.1:") and short_fingerprint(
            host.fingerprint) in line and "0 open seats" in line
        async with Browser(["127.0.0.1"]) as browser:
            await wait_for_event(browser, ("added",), host.fingerprint)
            host.lobby.create_table("toy", 3)
            await wait_for_event(browser, ("added", "updated"), host.fingerprint, open_seats=3)
            await host.stop()
            stopped = True
            gone = await wait_for_event(browser, ("removed",), host.fingerprint)
            assert gone.port == host.port
    finally:
        if not stopped:
            await host.stop()
