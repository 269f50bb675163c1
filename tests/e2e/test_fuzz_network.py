"""Fuzzing a live host over TLS after authentication: random bytes, mutated valid frames and
lying headers on several connections. The host answers only with its own errors (or closes that
connection), never fails internally, and keeps serving a well-behaved client meanwhile."""

from __future__ import annotations

import asyncio
import contextlib
import random
import struct

import pytest

from client.session import ConnectionLost, Session
from host.server import Host
from protocol import messages
from tests.e2e.test_refusals import next_of
from tests.protocol.test_fuzz_frames import GOOD

pytestmark = pytest.mark.timeout(60)
KNOWN = {"bad_message", "unknown_type", "bad_frame", "too_large", "unexpected", "rate_limited",
         "no_table", "not_seated", "unknown_game", "bad_seats", "bad_options", "empty",
         "not_open", "table_full", "no_seat", "seat_taken", "bad_policy", "seats_empty",
         "playing", "no_channel", "too_many_tables", "idle", "replaced", "local_only",
         "host_only"}


def garbage(r: random.Random) -> bytes:
    """One hostile write: a framed random payload, a mutated valid frame, or a lying header."""
    kind = r.randrange(4)
    if kind == 0:
        payload = r.randbytes(r.randrange(1, 200))
    elif kind == 1:
        payload = bytearray(r.choice(list(GOOD.values())))
        for _ in range(r.randint(1, 4)):
            payload[r.randrange(len(payload))] = r.randrange(256)
        payload = bytes(payload)
    elif kind == 2:  # a length that lies (shorter or longer than what follows)
        payload = r.choice(list(GOOD.values()))
        return struct.pack(">I", max(0, len(payload) + r.randint(-5, 5))) + payload
    else:
        payload = r.choice(list(GOOD.values()))
    return struct.pack(">I", len(payload)) + payload


async def hammer(h: Host, cfg, seed: int) -> list[str]:
    """One connection's worth of garbage; the error codes it got back."""
    r = random.Random(seed)
    s = await Session.connect("127.0.0.1", h.port, name=f"fuzz{seed}", config_dir=cfg,
                              accept_new=True, code=h.room_code,
                              identity_file=f"fuzz{seed}.pem")
    codes: list[str] = []
    try:
        for _ in range(40):
            s._writer.write(garbage(r))
        await s._writer.drain()
        with contextlib.suppress(TimeoutError, ConnectionLost):
            async with asyncio.timeout(1.5):
                while True:
                    msg = await s.next_message()
                    messages.validate(msg, "h2c")
                    if msg["type"] == "error":
                        codes.append(msg["code"])
    finally:
        await s.aclose()
    return codes


async def test_garbage_after_authentication_gets_only_protocol_errors(dirs) -> None:
    lines: list[str] = []
    h = Host("Fuzz", dirs["host_cfg"], dirs["host_data"], games=["toy"], bot_delay=0,
             log=lines.append)
    await h.start("127.0.0.1", 0)
    try:
        witness = await Session.connect("127.0.0.1", h.port, name="witness", accept_new=True,
                                        config_dir=dirs["client2"], code=h.room_code)
        results = await asyncio.gather(*(hammer(h, dirs["client"], seed) for seed in range(6)))
        codes = [c for got in results for c in got]
        assert len(codes) > 20 and set(codes) <= KNOWN, set(codes) - KNOWN
        assert not [ln for ln in lines if "internal error" in ln]
        await witness.send({"type": "chat", "text": "still here?", "channel": "lobby"})
        for _ in range(50):  # (a fuzzed frame may have been a valid lobby chat)
            if (await next_of(witness, "chat"))["text"] == "still here?":
                break
        else:
            raise AssertionError("the witness's chat never came back")
        await witness.aclose()
    finally:
        await h.stop()
