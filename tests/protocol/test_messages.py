"""Schemas: every message type checked on receipt, unknown fields and types refused."""

from __future__ import annotations

import pytest

from protocol.errors import ProtocolError
from protocol.messages import validate

GOOD_C2H = [
    {"type": "hello", "version": 1, "name": "Ada", "nonce": b"n" * 16, "identity": b"i" * 32},
    {"type": "auth", "proof": None, "signature": b"s" * 64},
    {"type": "create", "game": "hexenhammer", "seats": 4, "options": {"x": [1, {"y": 2}]}},
    {"type": "sit", "table": 1, "seat": None},
    {"type": "leave"},
    {"type": "add_bot", "table": 1, "seat": 2, "policy": "random"},
    {"type": "start", "table": 1},
    {"type": "act", "table": 1, "state_id": 7, "action": {"type": "play", "card": "c1"}},
    {"type": "chat", "text": "hi", "channel": "table"},
    {"type": "ping", "t": 1.5},
]


@pytest.mark.parametrize("msg", GOOD_C2H, ids=lambda m: m["type"])
def test_valid_client_messages_pass(msg: dict) -> None:
    assert validate(msg, "c2h") is msg


@pytest.mark.parametrize("msg, code", [
    ({"type": "nope"}, "unknown_type"),
    ({"type": "welcome", "version": 1}, "unknown_type"),
    ({"type": "sit", "table": 1}, "bad_message"),
    ({"type": "sit", "table": 1, "seat": None, "extra": 1}, "bad_message"),
    ({"type": "sit", "table": True, "seat": None}, "bad_message"),
    ({"type": "hello", "version": 1, "name": "", "nonce": b"n" * 16, "identity": b"i" * 32},
     "bad_message"),
    ({"type": "hello", "version": 1, "name": "x" * 25, "nonce": b"n" * 16,
      "identity": b"i" * 32}, "bad_message"),
    ({"type": "hello", "version": 1, "name": "A", "nonce": "n" * 16, "identity": b"i" * 32},
     "bad_message"),
    ({"type": "act", "table": 1, "state_id": 1, "action": {"type": "p", "x": [1]}},
     "bad_message"),
    ({"type": "act", "table": 1, "state_id": 1, "action": {"card": "c"}}, "bad_message"),
    ({"type": "chat", "text": "x" * 301, "channel": "table"}, "bad_message"),
    ({"type": "chat", "text": "hi", "channel": "shout"}, "bad_message"),
    ({"type": "add_bot", "table": 1, "seat": 2, "policy": "genius"}, "bad_message"),
    ({"type": "create", "game": "g", "seats": 4, "options": {"a": {"b": {"c": {"d": {
        "e": {"f": {"g": 1}}}}}}}}, "bad_message"),
])
def test_invalid_client_messages_are_refused_with_a_code(msg: dict, code: str) -> None:
    with pytest.raises(ProtocolError) as info:
        validate(msg, "c2h")
    assert info.value.code == code
    assert info.value.message.endswith(".")
