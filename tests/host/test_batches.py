"""Work handed to a thread in batches (host/batches.py): put from a running event loop, the
thread is woken in the loop's next round — after the round's work, never in the middle of it —
and put from outside a loop, at once."""

from __future__ import annotations

import asyncio
import threading
import time

from host.batches import BatchThread


def _thread() -> tuple[BatchThread[int], list[list[int]], threading.Event]:
    handled: list[list[int]] = []
    done = threading.Event()

    def handle(items: list[int]) -> None:
        handled.append(items)
        done.set()
    return BatchThread("test-batches", handle, every=0.0), handled, done


def test_a_put_from_the_loop_wakes_the_thread_only_after_the_loops_round() -> None:
    batches, handled, done = _thread()
    time.sleep(0.05)  # (the thread asleep for want of work)

    async def main() -> tuple[list[list[int]], bool]:
        batches.put(1)
        batches.put(2)
        time.sleep(0.2)  # the rest of the round's work (the GIL free for the thread)
        during = [list(b) for b in handled]
        await asyncio.sleep(0)  # the loop's next round
        woke = await asyncio.to_thread(done.wait, 5.0)
        return during, woke
    during, woke = asyncio.run(main())
    batches.stop(5.0)
    assert during == []
    assert woke
    assert handled == [[1, 2]]


def test_a_put_outside_any_loop_wakes_the_thread_at_once() -> None:
    batches, handled, done = _thread()
    time.sleep(0.05)
    batches.put(7)
    assert done.wait(5.0)
    batches.stop(5.0)
    assert handled == [[7]]


def test_enough_waiting_wakes_the_thread_at_once_even_from_the_loop() -> None:
    handled: list[list[int]] = []
    done = threading.Event()

    def handle(items: list[int]) -> None:
        handled.append(items)
        done.set()
    batches: BatchThread[int] = BatchThread("test-batches", handle, every=0.0, at_once=3)
    time.sleep(0.05)

    async def main() -> bool:
        for i in range(3):
            batches.put(i)
        return done.wait(5.0)  # (inside the round: no later round needed)
    assert asyncio.run(main())
    batches.stop(5.0)
    assert handled == [[0, 1, 2]]


def test_a_wake_left_to_a_loop_that_ended_does_not_hold_up_later_puts() -> None:
    batches, handled, done = _thread()
    time.sleep(0.05)

    loop = asyncio.new_event_loop()

    def put_and_end() -> None:
        batches.put(1)
        loop.stop()  # (the loop ends before its next round: the wake never runs there)
    loop.call_soon(put_and_end)
    loop.run_forever()
    loop.close()
    done.wait(0.2)
    batches.put(2)  # from outside any loop: at once, whatever was left due
    assert done.wait(5.0)
    time.sleep(0.05)
    batches.stop(5.0)
    assert [i for b in handled for i in b] == [1, 2]
