"""A client's schedule at a secret step (client/slots.py, issue 22), on a real event loop: one
frame a slot, whatever the seat does — its action when one waits, else its chat, else a cover —
from a random first slot until the step closes; an action that never got its slot is dropped
with a local "too late"; a whisper outside any step waits for the next one."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from client.slots import Slots

EVERY = 0.1
STEP = {"key": "s7", "every": EVERY}


class Wire:
    """What the schedule sends, with the loop's time."""

    def __init__(self) -> None:
        self.sent: list[tuple[float, dict[str, Any]]] = []

    async def send(self, msg: dict[str, Any]) -> None:
        self.sent.append((asyncio.get_running_loop().time(), msg))


async def test_a_step_sends_one_frame_a_slot_with_the_action_in_its_slot() -> None:
    wire = Wire()
    slots = Slots(wire.send, random.Random(1))
    opened = asyncio.get_running_loop().time()
    assert slots.frame(3, STEP) == []
    await asyncio.sleep(EVERY * 4.5)
    act = {"type": "act", "table": 3, "state_id": 9, "action": {"type": "pass"}}
    assert slots.take(act)  # it waits for the next slot...
    assert slots.take({"type": "chat", "text": "hm", "channel": "table"})
    await asyncio.sleep(EVERY * 5.5)
    slots.frame(3, None)  # the step closes
    await asyncio.sleep(EVERY * 3)
    slots.close()
    times = [t for t, _ in wire.sent]
    kinds = [m["type"] for _, m in wire.sent]
    assert 8 <= len(times) <= 11 and times[0] - opened < EVERY * 1.5  # first within a period
    gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
    assert all(EVERY * 0.5 < g < EVERY * 2.5 for g in gaps), gaps  # ...then one a period
    assert kinds.count("act") == 1 and kinds.count("chat") == 1  # in place of a cover each
    assert kinds.index("chat") == kinds.index("act") + 1
    assert {m["key"] for _, m in wire.sent if m["type"] == "cover"} == {"s7"}


async def test_an_action_still_waiting_when_the_step_closes_is_dropped_as_too_late() -> None:
    wire = Wire()
    slots = Slots(wire.send, random.Random(2))
    slots.frame(3, {"key": "s1", "every": 2.0})  # (its first slot: up to 2 s away)
    act = {"type": "act", "table": 3, "state_id": 4, "action": {"type": "pass"}}
    assert slots.take(act)
    told = slots.frame(3, None)
    await asyncio.sleep(0.05)
    assert [(m["type"], m["code"]) for m in told] == [("rejected", "too_late")]
    assert wire.sent == []  # never sent late: a frame after the close would single it out
    assert not slots.take(dict(act))  # outside a step an action leaves at once


async def test_a_whisper_outside_a_step_waits_for_the_next_step() -> None:
    wire = Wire()
    slots = Slots(wire.send, random.Random(3))
    whisper = {"type": "chat", "text": "Wald", "channel": "witches"}
    assert slots.take(whisper)  # held: no step open
    assert not slots.take({"type": "chat", "text": "hi", "channel": "table"})  # public: now
    await asyncio.sleep(EVERY * 3)
    assert wire.sent == []
    slots.frame(3, STEP)
    await asyncio.sleep(EVERY * 2.5)
    slots.close()
    assert wire.sent and wire.sent[0][1] == whisper


@pytest.mark.parametrize("every", [0.0, -1.0, 99.0])
def test_a_hosts_slot_period_is_kept_within_bounds(every: float) -> None:
    async def run() -> float:
        slots = Slots(Wire().send)
        slots.frame(1, {"key": "s1", "every": every})
        period = slots.steps[1].every
        slots.close()
        return period

    assert 0.05 <= asyncio.run(run()) <= 2.0
