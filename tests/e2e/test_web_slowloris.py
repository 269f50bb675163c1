"""The web door against slowloris (issue 23): TLS connections that send their request head a
byte at a time are closed once the head has taken longer than the header wait; connections that
are not a session yet are capped per address and in total (the slowest — no head yet — and
oldest go first), and a guest loading the page while the door is flooded still gets it."""

from __future__ import annotations

import asyncio
import contextlib
import math
import time

import pytest

pytest.importorskip("textual_serve", reason="needs hexnet[web] (textual-serve)")

from host import https  # noqa: E402
from host.web import WebDoor  # noqa: E402
from protocol import tls  # noqa: E402
from tests.e2e.frontdoor import door_fixture, poll  # noqa: E402
from tests.waiting import DEADLINE  # noqa: E402

pytestmark = pytest.mark.timeout(120)
HEADER_WAIT = 2.0
HELD = 600.0  # longer than any test here runs
door = door_fixture(lambda host: WebDoor(host, bind="127.0.0.1", port=0,
                                         header_wait=HEADER_WAIT))


@pytest.fixture
async def held(host, monkeypatch):
    """A web door whose waits outlast the test — the header wait, and the keep-alive wait it
    reads as it starts: no slow head is closed for its slowness meanwhile, however slowly the
    test runs."""
    monkeypatch.setattr(https, "IDLE_WAIT", HELD)
    d = WebDoor(host, bind="127.0.0.1", port=0, header_wait=HELD)
    await d.start()
    try:
        yield d
    finally:
        await d.stop()


class Slow:
    """A slowloris connection: TLS, then a request head one byte a second, never finished."""

    def __init__(self) -> None:
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.closed_at: float | None = None
        self.sent = 0  # bytes of the head sent

    async def open(self, port: int, source: str) -> None:
        self.reader, self.writer = await asyncio.open_connection(
            "127.0.0.1", port, ssl=tls.client_context(), local_addr=(source, 0))

    async def drip(self, until: float) -> None:
        assert self.reader is not None and self.writer is not None
        head = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-a: " + b"a" * 1000
        try:
            for byte in head:
                if time.monotonic() > until:
                    return
                self.writer.write(bytes([byte]))
                await self.writer.drain()
                self.sent += 1
                with contextlib.suppress(TimeoutError):
                    if await asyncio.wait_for(self.reader.read(1), 1.0) == b"":
                        break  # closed by the host
        except (ConnectionError, OSError):
            pass
        self.closed_at = time.monotonic()

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


async def flood(port: int, sources: list[str], each: int) -> list[Slow]:
    slows = []
    for source in sources:
        for _ in range(each):
            slow = Slow()
            with contextlib.suppress(OSError, ConnectionError, asyncio.TimeoutError):
                await asyncio.wait_for(slow.open(port, source), 5)
                slows.append(slow)
    return slows


async def test_a_request_head_sent_a_byte_a_second_is_closed_after_the_header_wait(
        door) -> None:
    slows = await flood(door.port, [f"127.0.5.{i}" for i in range(1, 6)], 8)
    assert len(slows) == 40
    started = time.monotonic()
    try:
        await asyncio.gather(*(s.drip(started + 20) for s in slows))
        lived = [s.closed_at - started for s in slows if s.closed_at is not None]
        assert len(lived) == 40 and max(lived) < HEADER_WAIT + 3, sorted(lived)
        assert door._port.slow_heads == 40
    finally:
        for s in slows:
            s.close()


async def test_connections_without_a_session_are_capped_per_address_and_in_total(
        door) -> None:
    port = door._port
    one = await flood(door.port, ["127.0.6.1"], 20)
    try:
        await poll(lambda: port.open.by_address.get("127.0.6.1") == https.MAX_OPEN_PER_ADDRESS,
                   10, "one address held at its cap")
        many = await flood(door.port, [f"127.0.7.{i}" for i in range(1, 9)], 12)
        one += many
        await poll(lambda: port.open.count == min(https.MAX_OPEN, port.open.total), 10,
                   "the total held at its cap")
        assert port.open.count <= https.MAX_OPEN
        assert max(port.open.by_address.values()) <= https.MAX_OPEN_PER_ADDRESS
    finally:
        for s in one:
            s.close()


async def test_a_guest_gets_the_page_while_slowloris_holds_the_web_door(held) -> None:
    port = held._port
    slows = await flood(held.port, [f"127.0.8.{i}" for i in range(1, 12)], 12)
    dripping = [asyncio.ensure_future(s.drip(math.inf)) for s in slows]
    try:
        # the door held: at its cap of connections that are not a session, every one of them a
        # slow head begun (and none closed for its slowness while the test runs)
        await poll(lambda: port.open.count == port.open.total
                   and all(s.sent or s.closed_at is not None for s in slows), DEADLINE,
                   "slowloris holding the door")
        for attempt in range(3):  # three guests, one after another, from a flooding address
            began = time.monotonic()
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", held.port, ssl=tls.client_context(), local_addr=("127.0.8.1", 0))
            writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            page = await asyncio.wait_for(reader.read(), DEADLINE)
            writer.close()
            assert page.startswith(b"HTTP/1.1 200 OK") and b"textual.js" in page, attempt
            # ...while the flood still held the door: every place but the guest's own
            assert port.slow_heads == 0 and port.open.count >= port.open.total - 1, (
                attempt, port.open.count)
            print(f"guest {attempt}: the page in {time.monotonic() - began:.2f} s")
    finally:
        for task in dripping:
            task.cancel()
        for s in slows:
            s.close()
