"""Frames: length prefix, caps, strict decoding."""

from __future__ import annotations

import asyncio
import struct

import msgpack
import pytest

from protocol import frames
from protocol.errors import FrameTooLarge, ProtocolError


def test_round_trip_keeps_bytes_and_strings_apart() -> None:
    msg = {"type": "hello", "nonce": b"\x00" * 16, "name": "Ada"}
    data = frames.encode(msg)
    assert struct.unpack(">I", data[:4])[0] == len(data) - 4
    assert frames.decode(data[4:]) == msg


@pytest.mark.parametrize("payload, code", [
    (msgpack.packb([1, 2]), "bad_frame"),
    (msgpack.packb({"x": 1}), "bad_message"),
    (msgpack.packb({"type": 3}), "bad_message"),
    (msgpack.packb({1: "a", "type": "x"}), "bad_frame"),
    (msgpack.packb({"type": "x", "e": msgpack.ExtType(1, b"ab")}), "bad_frame"),
    (b"\xc1", "bad_frame"),
    (msgpack.packb({"type": "x"}) + b"\x00", "bad_frame"),
    (b"\x91" * 5000 + b"\x80", "bad_frame"),
])
def test_strict_decoding_refuses_anything_but_a_typed_map(payload: bytes, code: str) -> None:
    with pytest.raises(ProtocolError) as info:
        frames.decode(payload, cap=1 << 20)
    assert info.value.code == code


def test_a_lying_length_header_is_refused_before_reading() -> None:
    async def go() -> None:
        reader = asyncio.StreamReader()
        reader.feed_data(struct.pack(">I", 5000) + b"x" * 10)
        with pytest.raises(FrameTooLarge):
            await frames.read_frame(reader, frames.PRE_AUTH_MAX)
    asyncio.run(go())


def test_encode_refuses_a_message_over_the_cap() -> None:
    with pytest.raises(ValueError):
        frames.encode({"type": "chat", "text": "x" * 5000}, cap=frames.PRE_AUTH_MAX)
