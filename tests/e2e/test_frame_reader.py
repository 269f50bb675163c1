"""A logged-in connection's frames are cut out of the bytes as they arrive (issue 25: the host's
``FrameReader`` protocol, no stream task per connection): frames the client sent right behind
its handshake, several frames in one TLS record and a frame split over many records are each
read once, in order; a frame over the cap closes that connection only."""

from __future__ import annotations

import asyncio
import secrets
import struct
from typing import Any

import msgpack
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from host.server import Host
from protocol import PROTOCOL_VERSION, auth, frames, identity, tls
from tests.e2e.test_limits import closed

pytestmark = [pytest.mark.timeout(60), pytest.mark.both_loops]  # the transport's own


@pytest.fixture
async def open_host(dirs):
    h = Host("Frames", dirs["host_cfg"], dirs["host_data"], open=True, games=["toy"],
             bot_delay=0)
    await h.start("127.0.0.1", 0)
    try:
        yield h
    finally:
        await h.stop()


def ping(t: float) -> bytes:
    return frames.encode({"type": "ping", "t": t})


async def read_msg(reader: asyncio.StreamReader) -> dict[str, Any]:
    (length,) = struct.unpack(">I", await reader.readexactly(4))
    return msgpack.unpackb(await reader.readexactly(length), raw=False)


async def login(host: Host, after_auth: bytes = b"") -> tuple[asyncio.StreamReader,
                                                               asyncio.StreamWriter]:
    """A raw TLS client through the handshake; ``after_auth`` goes in the same write as its
    ``auth`` (before the host's ``auth_ok`` could arrive)."""
    reader, writer = await asyncio.open_connection(
        "127.0.0.1", host.port, ssl=tls.client_context(), server_hostname="127.0.0.1")
    key = Ed25519PrivateKey.generate()
    nonce = secrets.token_bytes(16)
    writer.write(frames.encode({"type": "hello", "version": PROTOCOL_VERSION, "name": "raw",
                                "nonce": nonce, "identity": identity.public_bytes(key)}))
    welcome = await read_msg(reader)
    writer.write(frames.encode({"type": "auth", "proof": None, "signature": auth.sign_auth(
        key, welcome["fingerprint"], nonce, welcome["nonce"])}) + after_auth)
    assert (await read_msg(reader))["type"] == "auth_ok"
    return reader, writer


async def pongs(reader: asyncio.StreamReader, count: int) -> list[float]:
    """The ``t`` of the next ``count`` pongs (other messages skipped)."""
    got: list[float] = []
    async with asyncio.timeout(10):
        while len(got) < count:
            msg = await read_msg(reader)
            if msg["type"] == "pong":
                got.append(msg["t"])
    return got


async def test_frames_sent_right_behind_the_handshake_are_each_answered_in_order(
        open_host) -> None:
    reader, writer = await login(open_host, after_auth=ping(1.0) + ping(2.0) + ping(3.0))
    try:
        assert await pongs(reader, 3) == [1.0, 2.0, 3.0]
    finally:
        writer.close()


async def test_several_frames_in_one_record_and_one_frame_over_many_are_each_read_once(
        open_host) -> None:
    reader, writer = await login(open_host)
    try:
        writer.write(b"".join(ping(float(i)) for i in range(5)))  # one write, one TLS record
        assert await pongs(reader, 5) == [0.0, 1.0, 2.0, 3.0, 4.0]
        for byte in ping(9.5):  # a frame split over as many TLS records as it has bytes
            writer.write(bytes([byte]))
            await writer.drain()
        writer.write(ping(10.5)[:3])
        await writer.drain()
        writer.write(ping(10.5)[3:] + ping(11.5))  # a frame's end and the next in one
        assert await pongs(reader, 3) == [9.5, 10.5, 11.5]
    finally:
        writer.close()


async def test_a_frame_over_the_cap_closes_that_connection_only(open_host) -> None:
    reader, writer = await login(open_host)
    other_reader, other_writer = await login(open_host)
    try:
        writer.write(struct.pack(">I", frames.POST_AUTH_MAX + 1) + b"x" * 64)
        async with asyncio.timeout(10):
            while (error := await read_msg(reader))["type"] != "error":
                pass  # (the lobby it was sent on joining)
        assert error["code"] == "too_large"
        assert await closed(reader, 10)
        other_writer.write(ping(7.0))
        assert await pongs(other_reader, 1) == [7.0]
    finally:
        writer.close()
        other_writer.close()
