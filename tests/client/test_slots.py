"""A client's schedule at a secret step (client/slots.py, issue 22): one frame a slot, whatever
the seat does — its action when one waits, else its chat, else a cover — from a random first
slot until the step closes; an action that never got its slot is dropped with a local "too late";
a whisper outside any step waits for the next one.

The schedules run on a real event loop whose clock is virtual (:class:`VirtualClock`): it moves
only when the loop has nothing to run, jumping to the next timer, so the times at which frames
leave are exactly the schedule's, whatever the speed or load of the machine running the test."""

from __future__ import annotations

import asyncio
import random
import selectors
from collections.abc import Coroutine
from typing import Any, TypeVar

import pytest

from client.slots import Slots
from tests.waiting import eventually

EVERY = 0.1
STEP = {"key": "s7", "every": EVERY}
T = TypeVar("T")


class _Jumping(selectors.DefaultSelector):
    """A selector that never waits for a timer: with no I/O ready it moves its loop's clock on
    by the wait instead (waiting for I/O alone, with no timer set, it blocks as usual)."""

    def __init__(self, clock: list[float]) -> None:
        super().__init__()
        self.clock = clock

    def select(self, timeout: float | None = None) -> list[Any]:
        events = super().select(None if timeout is None else 0)
        if not events and timeout:
            self.clock[0] += timeout
        return events


class VirtualClock(asyncio.SelectorEventLoop):
    """An asyncio event loop on a virtual clock (starting at 0): callbacks, tasks and I/O as
    usual; time passes only while the loop would otherwise wait for its next timer."""

    def __init__(self) -> None:
        self.clock = [0.0]
        super().__init__(_Jumping(self.clock))

    def time(self) -> float:
        return self.clock[0]


def on_virtual_clock(main: Coroutine[Any, Any, T]) -> T:
    loop = VirtualClock()
    try:
        return loop.run_until_complete(main)
    finally:
        loop.close()


class Wire:
    """What the schedule sends, with the loop's time."""

    def __init__(self) -> None:
        self.sent: list[tuple[float, dict[str, Any]]] = []

    async def send(self, msg: dict[str, Any]) -> None:
        self.sent.append((asyncio.get_running_loop().time(), msg))


def test_a_step_sends_one_frame_a_slot_with_the_action_in_its_slot() -> None:
    async def run() -> tuple[float, int, list[tuple[float, dict[str, Any]]]]:
        wire = Wire()
        slots = Slots(wire.send, random.Random(1))
        opened = asyncio.get_running_loop().time()
        assert slots.frame(3, STEP) == []
        await eventually(lambda: len(wire.sent) >= 4, "four slots with nothing to say")
        taken = len(wire.sent)
        act = {"type": "act", "table": 3, "state_id": 9, "action": {"type": "pass"}}
        assert slots.take(act)  # it waits for the next slot...
        assert slots.take({"type": "chat", "text": "hm", "channel": "table"})
        await eventually(lambda: len(wire.sent) >= taken + 5, "five slots more")
        slots.frame(3, None)  # the step closes
        await eventually(lambda: not slots.tasks, "the step's clock stopped")
        return opened, taken, wire.sent

    opened, taken, sent = on_virtual_clock(run())
    times = [t for t, _ in sent]
    kinds = [m["type"] for _, m in sent]
    assert taken == 4 and len(times) == 9  # none after the step closed
    assert 0 <= times[0] - opened < EVERY  # the first slot within a period...
    gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
    assert gaps == pytest.approx([EVERY] * 8), gaps  # ...then one a period
    # the action in the next slot, the chat line in the one after, in place of a cover each
    assert kinds == ["cover"] * 4 + ["act", "chat"] + ["cover"] * 3
    assert {m["key"] for _, m in sent if m["type"] == "cover"} == {"s7"}


def test_an_action_still_waiting_when_the_step_closes_is_dropped_as_too_late() -> None:
    async def run() -> None:
        wire = Wire()
        slots = Slots(wire.send, random.Random(2))
        slots.frame(3, {"key": "s1", "every": 2.0})  # (its first slot: up to 2 s away)
        act = {"type": "act", "table": 3, "state_id": 4, "action": {"type": "pass"}}
        assert slots.take(act)
        told = slots.frame(3, None)
        assert [(m["type"], m["code"]) for m in told] == [("rejected", "too_late")]
        await eventually(lambda: not slots.tasks, "the step's clock stopped")
        assert wire.sent == []  # never sent late: a frame after the close would single it out
        assert not slots.take(dict(act))  # outside a step an action leaves at once

    on_virtual_clock(run())


def test_a_whisper_outside_a_step_waits_for_the_next_step() -> None:
    async def run() -> None:
        wire = Wire()
        slots = Slots(wire.send, random.Random(3))
        whisper = {"type": "chat", "text": "Wald", "channel": "witches"}
        assert slots.take(whisper)  # held: no step open
        assert not slots.take({"type": "chat", "text": "hi", "channel": "table"})  # public: now
        assert not slots.tasks and wire.sent == []  # no clock runs that could send it
        slots.frame(3, STEP)
        await eventually(lambda: wire.sent, "the step's first slot")
        slots.close()
        assert [m for _, m in wire.sent] == [whisper]

    on_virtual_clock(run())


@pytest.mark.parametrize("every", [0.0, -1.0, 99.0])
def test_a_hosts_slot_period_is_kept_within_bounds(every: float) -> None:
    async def run() -> float:
        slots = Slots(Wire().send)
        slots.frame(1, {"key": "s1", "every": every})
        period = slots.steps[1].every
        slots.close()
        return period

    assert 0.05 <= asyncio.run(run()) <= 2.0
