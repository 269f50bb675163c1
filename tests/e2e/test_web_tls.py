"""The web door is HTTPS with the host's own key: TLS 1.3, the host's fingerprint, plain HTTP
only redirected, a browser that does not trust the key gets nothing, an eavesdropper on a
browser guest's connection reads only TLS records, and undecided connections are capped."""

from __future__ import annotations

import asyncio
import ipaddress
import socket
import ssl

import pytest

pytest.importorskip("textual_serve", reason="needs hexnet[web] (textual-serve)")
import aiohttp  # noqa: E402
from cryptography import x509  # noqa: E402

from client.stepbench import Tap  # noqa: E402
from host import https  # noqa: E402
from host.web import COOKIE, WebDoor  # noqa: E402
from protocol import tls  # noqa: E402
from tests.e2e.chromium import CDPError, Chromium  # noqa: E402
from tests.e2e.frontdoor import door_fixture, poll, seat_of  # noqa: E402
from tests.e2e.test_web_door import join, wait_cards, wait_screen  # noqa: E402

pytestmark = pytest.mark.timeout(180)
needs_chromium = pytest.mark.needs("chromium")

door = door_fixture(lambda host: WebDoor(host, bind="127.0.0.1", port=0))
TLS_RECORD_TYPES = {0x14: "change_cipher_spec", 0x15: "alert", 0x16: "handshake",
                    0x17: "application_data"}


async def test_the_web_door_speaks_tls_1_3_with_the_hosts_own_key(host, door) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", door.port,
                                                   ssl=tls.client_context())
    try:
        ssl_object = writer.get_extra_info("ssl_object")
        assert ssl_object.version() == "TLSv1.3"
        der = ssl_object.getpeercert(binary_form=True)
        assert tls.fingerprint_of_cert(der) == host.fingerprint
        names = x509.load_der_x509_certificate(der).extensions.get_extension_for_class(
            x509.SubjectAlternativeName).value
        assert ipaddress.ip_address("127.0.0.1") in names.get_values_for_type(x509.IPAddress)
        assert "localhost" in names.get_values_for_type(x509.DNSName)
        writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        head = await asyncio.wait_for(reader.read(4096), 10)
        assert head.startswith(b"HTTP/1.1 200 OK") and COOKIE.encode() in head
    finally:
        writer.close()


async def test_a_client_offering_only_tls_1_2_is_refused(door) -> None:
    old = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    old.check_hostname, old.verify_mode = False, ssl.CERT_NONE
    old.maximum_version = ssl.TLSVersion.TLSv1_2
    with pytest.raises((ssl.SSLError, ConnectionError)):
        _, writer = await asyncio.open_connection("127.0.0.1", door.port, ssl=old)
        writer.close()


async def test_plain_http_on_the_web_port_is_only_redirected_to_https(door) -> None:
    async with aiohttp.ClientSession() as http:
        async with http.get(f"http://127.0.0.1:{door.port}/?fontsize=12",
                            allow_redirects=False) as r:
            assert r.status == 308
            assert r.headers["Location"] == f"https://127.0.0.1:{door.port}/?fontsize=12"
            assert COOKIE not in r.cookies and "textual.js" not in await r.text()
        # The websocket path too: no session starts over plain HTTP.
        upgrade = {"Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
                   "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}
        async with http.get(f"http://127.0.0.1:{door.port}/ws?width=80&height=24",
                            headers=upgrade, allow_redirects=False) as r:
            assert r.status == 308
            assert r.headers["Location"] == f"https://127.0.0.1:{door.port}/ws?width=80&height=24"
    assert door.sessions == {}


async def test_a_redirect_goes_to_the_address_served_never_the_host_header(door) -> None:
    for host_header in (b"evil.example:8443", b"evil.example", b"127.0.0.1:1"):
        reader, writer = await asyncio.open_connection("127.0.0.1", door.port)
        try:
            writer.write(b"GET /?fontsize=12 HTTP/1.1\r\nHost: " + host_header
                         + b"\r\nConnection: close\r\n\r\n")
            head = (await asyncio.wait_for(reader.read(4096), 10)).decode()
        finally:
            writer.close()
        assert head.startswith("HTTP/1.1 308")
        location = next(line for line in head.split("\r\n") if line.startswith("Location:"))
        assert location == f"Location: https://127.0.0.1:{door.port}/?fontsize=12"


def test_a_redirect_never_carries_an_unusual_path_elsewhere() -> None:
    assert https.redirect_target("10.0.0.5", 8080, "/?fontsize=12") \
        == "https://10.0.0.5:8080/?fontsize=12"
    assert https.redirect_target("10.0.0.5", 8080, "//evil.example/%0d%0a") \
        == "https://10.0.0.5:8080/"
    assert https.redirect_target("::1", 8080, "/") == "https://[::1]:8080/"


async def test_silent_connections_are_closed_and_capped_per_address(host, door) -> None:
    port = https.HttpsPort(lambda: asyncio.Protocol(), lambda: asyncio.Protocol(),
                           ssl.create_default_context(), first_byte_wait=1.0)
    await port.start("127.0.0.1", 0)
    socks: list[socket.socket] = []
    try:
        for _ in range(https.MAX_PENDING_PER_ADDRESS + 1):
            s = socket.create_connection(("127.0.0.1", port.port), timeout=10)
            socks.append(s)
        await poll(lambda: port.dropped == 1, 10, "the ninth silent connection dropped")
        assert sum(port.pending.values()) == https.MAX_PENDING_PER_ADDRESS
        # Saying nothing for first_byte_wait (1 s) closes the others: each reads end-of-file.
        await poll(lambda: not port.pending, 10, "the silent connections closed")
        for s in socks:
            assert await asyncio.to_thread(s.recv, 1) == b""
        assert port.tls_count == port.plain_count == 0
    finally:
        for s in socks:
            s.close()
        await port.stop()


@needs_chromium
async def test_a_browser_that_does_not_trust_the_hosts_key_gets_no_page(host, door,
                                                                      tmp_path) -> None:
    other = "".join(reversed(host.fingerprint))  # some other key's pin
    async with Chromium(tmp_path / "wary", trust=tls.spki_base64(other)) as browser:
        page = await browser.new_page()
        with pytest.raises(CDPError, match="ERR_CERT_AUTHORITY_INVALID"):
            await page.goto(f"https://127.0.0.1:{door.port}/")
    assert door.sessions == {}


def tls_records(stream: bytes) -> list[int]:
    """The record types of a byte stream that is nothing but TLS records (AssertionError at the
    first byte that is not)."""
    types, at = [], 0
    while at < len(stream):
        head = stream[at:at + 5]
        assert len(head) == 5 and head[0] in TLS_RECORD_TYPES and head[1:3] in (b"\3\1", b"\3\3"), \
            f"not a TLS record at byte {at}: {bytes(stream[at:at + 24])!r}"
        length = int.from_bytes(head[3:5], "big")
        assert length <= 16384 + 256, f"a TLS record of {length} bytes at byte {at}"
        types.append(head[0])
        at += 5 + length
    return types


@needs_chromium
async def test_an_eavesdropper_on_a_browser_guest_reads_only_tls_records(host, door,
                                                                        tmp_path) -> None:
    spy = Tap(door.port, keep=True)  # a relay keeping every byte each way, per connection
    port = await spy.start()
    try:
        table = host.lobby.create_table("toy", 3, {})
        host.lobby.add_bot(table, None, "heuristic")
        host.lobby.add_bot(table, None, "heuristic")
        async with Chromium(tmp_path / "guest", trust=tls.spki_base64(host.fingerprint)) as b:
            page = await b.new_page()
            await join(page, f"https://127.0.0.1:{port}/", "Ysolde", host.room_code)
            await page.type("s")
            await wait_screen(page, "You are Ysolde, seated at table")
            await page.type("g")
            await poll(lambda: host.lobby.tables[table].status == "playing", 15, "the start")
            state = host.lobby.state_of(table)
            hand = set(state["hands"][seat_of(host, table, "Ysolde")])
            await wait_cards(page, hand)  # the hand is on the guest's screen…
    finally:
        await spy.stop()
    assert spy.streams, "the browser never came through the relay"
    wire = b"".join(bytes(up) + bytes(down) for up, down in spy.streams)
    for up, down in spy.streams:  # …and on the wire only as TLS application data
        for stream in (up, down):
            types = tls_records(bytes(stream))
            assert types.count(0x16) <= 1, "a handshake record after the first flight"
    assert b"Ysolde" not in wire and host.room_code.encode() not in wire
    assert b"GET " not in wire and b"HTTP/1.1" not in wire
    assert len(spy.streams) >= 2  # the page and its websocket at least
