"""The upstream half of the traffic rule over the network: at every secret step of a Fang game
(the guard, the witches' window, the evening's powers) every seat's client sends exactly the
step's number of frames — its own acts of the step plus cover frames — so the few who act do
not stand out; and every frame a client sends after auth is a multiple of 256 bytes."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from client.bot import run_bots
from host.render import cover_of
from protocol import traffic

pytestmark = pytest.mark.timeout(150)


async def test_every_seat_sends_the_same_number_of_frames_at_every_secret_step(host) -> None:
    sent: Counter[tuple[str, int]] = Counter()  # (step key, conn) → frames for the step
    frames_of: dict[str, int] = {}
    order: list[str] = []  # step keys in the order they opened
    handle = host.lobby.handle

    seen: set[int] = set()

    def count(conn_id: int, msg: dict[str, Any]) -> None:
        seen.add(conn_id)
        table = host.lobby.tables.get(msg.get("table", -1))
        step = cover_of(table) if table is not None else None
        if step is not None and step["key"] not in frames_of:
            frames_of[step["key"]] = step["frames"]
            order.append(step["key"])
        if msg["type"] == "cover":
            sent[(msg["key"], conn_id)] += 1
        elif (msg["type"] == "act" and step is not None
              and msg["action"].get("type") in step["acts"]):
            sent[(step["key"], conn_id)] += 1
        handle(conn_id, msg)

    host.lobby.handle = count
    report = await run_bots("127.0.0.1", host.port, game="fang", count=5, seats=5,
                            code=host.room_code, config_dir=str(host.config_dir.parent / "c"),
                            seed=4, timeout=120, resend=None)
    assert report.outcome is not None
    conns = seen
    checked = order[:-1]  # the step open at the end may still have covers in flight
    assert checked, "no secret step was played"
    for key in checked:
        assert {sent[(key, c)] for c in conns} == {frames_of[key]}, (key, frames_of[key], {
            c: sent[(key, c)] for c in conns})
    assert any(frames_of[k] == 4 for k in checked)  # a witches' window was among them


def test_a_padded_client_frame_is_a_multiple_of_the_upstream_class() -> None:
    for text in ("a", "b" * 250, "ü" * 300):
        data = traffic.encode_up({"type": "chat", "text": text, "channel": "table"}, 65536)
        assert len(data) % traffic.UP_CLASS == 0
