"""More fuzzing of frames and schemas (test_fuzz.py has random bytes, random maps and one-byte
mutations of one frame): every message type's valid frames mutated in several ways, lying length
headers read from a stream, deep nesting and huge container headers. Only the protocol's own
error ever comes out, and memory stays bounded (tracemalloc peaks)."""

from __future__ import annotations

import asyncio
import struct
import tracemalloc

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from protocol import frames, messages
from protocol.errors import FrameTooLarge, ProtocolError

VALID = {
    "hello": {"version": 1, "name": "Ada", "nonce": b"n" * 16, "identity": b"i" * 32},
    "auth": {"proof": b"p" * 32, "signature": b"s" * 64},
    "create": {"game": "fang", "seats": 5, "options": {"time_limits": True}},
    "sit": {"table": 1, "seat": None},
    "act": {"table": 1, "state_id": 7, "action": {"type": "vote", "seat": 3}},
    "chat": {"text": "hello", "channel": "witches"},
    "view": {"table": 1, "state_id": 3, "view": {"phase": 1}, "log": [{"n": 1, "text": "x"}],
             "legal": [{"type": "pass"}], "chat": [{"from": "Ada", "seat": 0, "text": "hi",
                                                   "channel": "witches"}], "pad": bytes(40)},
    "lobby_delta": {"tables": [], "removed": [3], "you": {"name": "Ada", "table": None,
                                                          "seat": None, "open": True}},
    "cover": {"table": 1, "key": "d1:4:witches"},
    "lobby": {"tables": [{"id": 1, "game": "fang", "title": "Fang", "seats_total": 4,
                          "status": "open", "seats": [{"seat": 0, "name": "Ada",
                                                       "kind": "human", "connected": True,
                                                       "absent": False}]}],
              "you": {"name": "Ada", "table": 1, "seat": 0, "open": False}},
    "error": {"code": "bad_code", "message": "no"},
}
DIRECTION = {k: ("c2h" if k in messages.C2H else "h2c") for k in VALID}
GOOD = {k: msgpack.packb({"type": k, **v}, use_bin_type=True) for k, v in VALID.items()}
CODES = {"bad_message", "unknown_type", "bad_frame", "too_large"}


def decode_and_validate(payload: bytes, direction: str, cap: int = frames.POST_AUTH_MAX) -> None:
    """Decode + validate; only ProtocolError (with a known code) may escape."""
    try:
        messages.validate(frames.decode(payload, cap), direction)
    except ProtocolError as exc:
        assert exc.code in CODES and exc.message


def test_every_sample_frame_is_valid() -> None:
    for kind, raw in GOOD.items():
        assert messages.validate(frames.decode(raw), DIRECTION[kind])["type"] == kind


mutation = st.tuples(st.sampled_from(["flip", "insert", "delete", "truncate", "splice"]),
                     st.integers(0, 10_000), st.binary(min_size=1, max_size=8))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(GOOD)), st.lists(mutation, min_size=1, max_size=4))
def test_mutated_frames_of_every_type_raise_only_protocol_errors(kind, muts) -> None:
    data = bytearray(GOOD[kind])
    for op, pos, blob in muts:
        pos %= max(1, len(data))
        if op == "flip":
            if data:  # an earlier truncate may have left nothing to flip
                data[pos] ^= blob[0] or 1
        elif op == "insert":
            data[pos:pos] = blob
        elif op == "delete":
            del data[pos:pos + len(blob)]
        elif op == "truncate":
            del data[pos:]
        else:  # splice in part of another type's frame
            other = GOOD[sorted(GOOD)[blob[0] % len(GOOD)]]
            data[pos:pos + len(blob)] = other[: len(blob) * 4]
    decode_and_validate(bytes(data), DIRECTION[kind])
    decode_and_validate(bytes(data), DIRECTION[kind], frames.PRE_AUTH_MAX)


def read_from(data: bytes, cap: int) -> dict:
    async def go() -> dict:
        reader = asyncio.StreamReader(limit=cap * 2)
        reader.feed_data(data)
        reader.feed_eof()
        return await frames.read_frame(reader, cap)
    return asyncio.run(go())


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(sorted(GOOD)), st.integers(-40, 2**32 - 1))
def test_lying_length_headers_read_from_a_stream(kind, claimed) -> None:
    payload = GOOD[kind]
    length = len(payload) + claimed if claimed < 0 else claimed
    length = max(0, min(length, 2**32 - 1))
    try:
        read_from(struct.pack(">I", length) + payload, frames.POST_AUTH_MAX)
    except FrameTooLarge:
        assert length > frames.POST_AUTH_MAX
    except asyncio.IncompleteReadError:  # the stream ended before the length it claimed
        assert length > len(payload)
    except ProtocolError as exc:
        assert exc.code in CODES


def test_a_ten_megabyte_lying_header_costs_no_memory() -> None:
    tracemalloc.start()
    try:
        with pytest.raises(FrameTooLarge):
            read_from(struct.pack(">I", 10 * 1024 * 1024) + b"\x00" * 64, frames.POST_AUTH_MAX)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 512 * 1024


@pytest.mark.parametrize("header", [
    b"\xdd\xff\xff\xff\xff",  # array32 of 4 294 967 295 items
    b"\xdf\xff\xff\xff\xff",  # map32 of as many pairs
    b"\xdb\xff\xff\xff\xff",  # str32 of 4 GiB
    b"\xc6\xff\xff\xff\xff",  # bin32 of 4 GiB
    b"\xdc\xff\xff",          # array16 of 65 535 items
])
def test_huge_container_headers_are_refused_without_allocating(header: bytes) -> None:
    payload = b"\x81\xa4type\xa4chat\xa4text" + header + b"\x00" * 100
    tracemalloc.start()
    try:
        with pytest.raises(ProtocolError) as info:
            frames.decode(payload)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert info.value.code == "bad_frame"
    assert peak < 1024 * 1024


@pytest.mark.parametrize("depth", [13, 200, 5_000, 60_000])
def test_deep_nesting_is_refused(depth: int) -> None:
    nested = b"\x91" * depth + b"\xc0"  # [[[…[nil]…]]]
    payload = b"\x82\xa4type\xa6create\xa7options" + b"\x81\xa1k" + nested
    if len(payload) > frames.POST_AUTH_MAX:
        with pytest.raises(FrameTooLarge):
            frames.decode(payload)
        return
    with pytest.raises(ProtocolError) as info:
        messages.validate(frames.decode(payload), "c2h")
    assert info.value.code in ("bad_frame", "bad_message")


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 64), st.sampled_from(["list", "map"]))
def test_nested_containers_inside_views_validate_or_fail_cleanly(depth, kind) -> None:
    inner: object = 1
    for i in range(depth):
        inner = [inner] if kind == "list" else {f"k{i}": inner}
    msg = {"type": "view", "table": 1, "state_id": 1, "view": {"deep": inner}, "legal": [],
           "log": []}
    raw = msgpack.packb(msg, use_bin_type=True)
    try:
        messages.validate(frames.decode(raw), "h2c")
        assert depth <= 12
    except ProtocolError as exc:
        assert exc.code in ("bad_message", "bad_frame") and depth > 11


def test_many_small_items_up_to_the_cap_decode_in_bounded_memory() -> None:
    raw = msgpack.packb({"type": "view", "table": 1, "view": {"log": [0] * 60_000},
                         "legal": []}, use_bin_type=True)
    assert len(raw) <= frames.POST_AUTH_MAX
    tracemalloc.start()
    try:
        decode_and_validate(raw, "h2c")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 8 * 1024 * 1024
