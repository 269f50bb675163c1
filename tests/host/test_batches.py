"""Work handed to a thread in batches (host/batches.py): put from a running event loop, the
thread is woken in the loop's next round — after the round's work, never in the middle of it —
and put from outside a loop, at once."""

from __future__ import annotations

import asyncio
import threading

from host.batches import BatchThread
from tests.waiting import DEADLINE, eventually, eventually_sync


def _thread(at_once: int = 1 << 30) -> tuple[BatchThread[int], list[list[int]], threading.Event]:
    """A batch thread recording what it handles, asleep for want of work."""
    handled: list[list[int]] = []
    done = threading.Event()

    def handle(items: list[int]) -> None:
        handled.append(items)
        done.set()
    batches = BatchThread("test-batches", handle, every=0.0, at_once=at_once)
    eventually_sync(lambda: batches._idle, "the thread asleep for want of work")  # noqa: SLF001
    return batches, handled, done


def _woken(batches: BatchThread[int]) -> bool:
    return batches._wake.is_set()  # noqa: SLF001


def test_a_put_from_the_loop_wakes_the_thread_only_after_the_loops_round() -> None:
    batches, handled, _ = _thread()

    async def main() -> bool:
        batches.put(1)
        batches.put(2)
        woken_in_round = _woken(batches)  # (this round still runs: the wake waits for the next)
        await eventually(lambda: handled, "the batch handled after the round")
        return woken_in_round
    assert asyncio.run(main()) is False
    batches.stop(5.0)
    assert handled == [[1, 2]]


def test_a_put_outside_any_loop_wakes_the_thread_at_once() -> None:
    batches, handled, done = _thread()
    batches.put(7)
    assert done.wait(DEADLINE)
    batches.stop(5.0)
    assert handled == [[7]]


def test_enough_waiting_wakes_the_thread_at_once_even_from_the_loop() -> None:
    batches, handled, done = _thread(at_once=3)

    async def main() -> bool:
        for i in range(3):
            batches.put(i)
        return done.wait(DEADLINE)  # (inside the round: no later round needed)
    assert asyncio.run(main())
    batches.stop(5.0)
    assert handled == [[0, 1, 2]]


def test_a_wake_left_to_a_loop_that_ended_does_not_hold_up_later_puts() -> None:
    batches, handled, _ = _thread()
    loop = asyncio.new_event_loop()

    def put_and_end() -> None:
        batches.put(1)
        loop.stop()  # (the loop ends before its next round: the wake never runs there)
    loop.call_soon(put_and_end)
    loop.run_forever()
    loop.close()
    batches.put(2)  # from outside any loop: at once, whatever was left due
    eventually_sync(lambda: sum(len(b) for b in handled) == 2, "both items handled")
    batches.stop(5.0)
    assert [i for b in handled for i in b] == [1, 2]
