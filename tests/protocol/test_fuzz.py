"""Fuzzing the decoder and the schemas: only the protocol's own error ever comes out."""

from __future__ import annotations

import contextlib

import msgpack
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol import frames, messages
from protocol.errors import ProtocolError

values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.floats()
    | st.text(max_size=20) | st.binary(max_size=40),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=5),
    max_leaves=30)
TYPES = sorted(set(messages.C2H) | set(messages.H2C)) + ["nope"]


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=300))
def test_random_bytes_raise_only_protocol_errors(data: bytes) -> None:
    with contextlib.suppress(ProtocolError):
        frames.decode(data)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(TYPES), st.dictionaries(st.text(max_size=10), values, max_size=6),
       st.sampled_from(["c2h", "h2c"]))
def test_random_maps_validate_or_raise_protocol_errors(kind, body, direction) -> None:
    msg = {**body, "type": kind}
    raw = msgpack.packb(msg, use_bin_type=True)
    try:
        messages.validate(frames.decode(raw), direction)
    except ProtocolError as exc:
        assert exc.code in ("bad_message", "unknown_type", "bad_frame")


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 200), st.binary(min_size=1, max_size=1))
def test_mutated_valid_frames_raise_only_protocol_errors(pos: int, byte: bytes) -> None:
    good = msgpack.packb({"type": "act", "table": 1, "state_id": 3,
                          "action": {"type": "play", "card": "c1"}}, use_bin_type=True)
    bad = bytearray(good)
    bad[pos % len(bad)] = byte[0]
    with contextlib.suppress(ProtocolError):
        messages.validate(frames.decode(bytes(bad)), "c2h")
