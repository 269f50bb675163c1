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


def test_the_act_fast_path_accepts_only_what_the_act_schema_accepts() -> None:
    """``plain_act`` (one pass by exact types) against the schema, on acts built at random
    from valid and invalid pieces: whatever it accepts, the schema accepts, and it accepts the
    plain acts clients send."""
    import random

    from protocol.messages import C2H, _check_fields, plain_act

    rnd = random.Random(4)
    good = [0, 1, -1, 1 << 31, -(1 << 31), True, None, "", "c17", "x" * 64]
    bad = [(1 << 31) + 1, -(1 << 31) - 1, 1 << 62, (1 << 62) + 1, "x" * 65, 1.5, b"b", [], {}]
    values = good + bad
    accepted = refused = 0
    for _ in range(20_000):
        pool = good if rnd.random() < 0.6 else values
        action = {rnd.choice(["type", "card", "target", "x" * 65, 3]
                             if rnd.random() < 0.1 else ["type", "card", "target", "sign"]):
                  rnd.choice(pool) for _ in range(rnd.randrange(0, 10))}
        if rnd.random() < 0.7:
            action["type"] = rnd.choice(["play", "pass", 7])
        msg = {"type": "act", "table": rnd.choice(pool), "state_id": rnd.choice(pool),
               "action": action if rnd.random() < 0.9 else rnd.choice(values)}
        if rnd.random() < 0.3:
            msg["pad"] = rnd.choice([b"", bytes(200), "pad", None])
        if rnd.random() < 0.05:
            msg[rnd.choice(["extra", "table"])] = 1
        if rnd.random() < 0.05:
            del msg[rnd.choice(["table", "state_id", "action"])]
        try:
            _check_fields({k: v for k, v in msg.items() if k not in ("type", "pad")},
                          C2H["act"], "act")
            schema = isinstance(msg.get("pad", b""), bytes)
        except ProtocolError:
            schema = False
        if plain_act(msg):
            assert schema, msg
            accepted += 1
        else:
            refused += 1
    assert accepted > 300 and refused > 1000
    assert plain_act({"type": "act", "table": 3, "state_id": 41, "pad": bytes(180),
                      "action": {"type": "play", "card": "c17", "sign": -1, "x": None}})
