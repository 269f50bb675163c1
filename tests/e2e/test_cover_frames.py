"""The upstream half of the traffic rule over the network (issue 22): while a secret step of a
Fang game is open (the picks and the guard, the witches' window, the evening's powers, the
votes) every seat's client sends on one schedule — one frame a slot, its own action or chat if
one waits, else a cover — so the few who act do not stand out in how many frames they send or
when; and every frame a client sends after auth is a multiple of 256 bytes.

(Before issue 22 the rule was "every seat sends the same number of frames for a step": covers
after a short random delay, owed ones at the close. That count is still equal — now because
everyone sends on the same clock — and the clock is what this test checks.)"""

from __future__ import annotations

import time
from collections import defaultdict
from typing import Any

import pytest

from client.bot import run_bots
from protocol import traffic
from tests.pace import SECRET_EVERY

pytestmark = pytest.mark.timeout(400)


async def test_every_seat_sends_one_frame_a_slot_while_a_secret_step_is_open(host) -> None:
    every = SECRET_EVERY
    arrivals: dict[int, list[tuple[float, str]]] = defaultdict(list)  # conn → (time, type)
    steps: list[tuple[float, str | None]] = []  # (time, the step each publication shows)
    handle, publish = host.lobby.handle, host.lobby.publisher.publish

    def count(conn_id: int, msg: dict[str, Any]) -> None:
        if msg["type"] in ("act", "cover", "chat"):
            arrivals[conn_id].append((time.monotonic(), msg["type"]))
        handle(conn_id, msg)

    def published(table: Any, change: Any, batch: list[Any]) -> list[Any]:
        batch = publish(table, change, batch)
        if table.game_name == "fang" and (not steps or steps[-1][1] != table.step_id):
            steps.append((time.monotonic(), table.step_id))
        return batch

    host.lobby.handle = count
    host.lobby.publisher.publish = published
    checked = 0
    for game_seed in (4, 5, 6):  # a game more while too few steps were long enough to check
        arrivals.clear()
        steps.clear()
        report = await run_bots("127.0.0.1", host.port, game="fang", count=5, seats=5,
                                code=host.room_code,
                                config_dir=str(host.config_dir.parent / f"c{game_seed}"),
                                seed=game_seed, timeout=120, resend=None, pace=(0.05, 0.4))
        assert report.outcome is not None and len(arrivals) == 5
        for (opened, key), (closed, _) in zip(steps, steps[1:], strict=False):
            slots = (closed - opened) / every
            if key is None or slots < 6:
                continue
            counts = {c: sum(1 for t, _ in got if opened < t <= closed + every / 2)
                      for c, got in arrivals.items()}
            for n in counts.values():  # one a slot, whatever the seat did in the step
                assert abs(n - slots) <= 2 + 0.15 * slots, (key, round(slots, 1), counts)
            checked += 1
        if checked >= 5:
            break
    assert checked >= 5, f"only {checked} secret steps long enough to check"
    kinds = {kind for got in arrivals.values() for _, kind in got}
    assert {"act", "cover"} <= kinds


def test_a_padded_client_frame_is_a_multiple_of_the_upstream_class() -> None:
    for text in ("a", "b" * 250, "ü" * 300):
        data = traffic.encode_up({"type": "chat", "text": text, "channel": "table"}, 65536)
        assert len(data) % traffic.UP_CLASS == 0
