"""Room-code checks wait in a line per address (issue 23): a wrong-code flood from one address
(fresh keys each) cannot keep a neighbour behind the same NAT address out — an abandoned or
failed attempt gives its turn back at once, the line is bounded, and a right code gets in within
2 s while wrong codes flood at four a second."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Awaitable
from typing import TypeVar

from protocol import auth
from tests.waiting import DEADLINE, eventually

T = TypeVar("T")


async def test_a_right_code_gets_in_within_2_s_while_wrong_codes_flood_from_its_address() -> None:
    rl = auth.RateLimiter()
    verdicts: list[str] = []

    async def wrong() -> None:
        verdict, _ = await rl.check(secrets.token_bytes(32), "nat", lambda: False, limit=5.0)
        verdicts.append(verdict)

    flood: list[asyncio.Task[None]] = []
    began = time.monotonic()
    waits = []
    while time.monotonic() - began < 12:
        flood.append(asyncio.ensure_future(wrong()))  # four wrong codes a second, for 12 s
        await asyncio.sleep(0.25)
        if time.monotonic() - began > 4 * (len(waits) + 1):  # the neighbour at 4, 8, 12 s
            t = time.monotonic()
            verdict, _ = await rl.check(b"neighbour" * 4, "nat", lambda: True, limit=5.0)
            waits.append((verdict, time.monotonic() - t))
    await asyncio.gather(*flood)
    assert [v for v, _ in waits] == ["ok"] * len(waits) and len(waits) >= 2
    assert max(w for _, w in waits) < 2.0, waits
    assert verdicts.count("bad_code") >= 40 and rl.waiting("nat") == 0


async def at_once(check: Awaitable[T]) -> T:
    """The verdict of ``check``, which must come with the limiter's clock standing still
    (AssertionError if none came within the tests' deadline)."""
    try:
        return await asyncio.wait_for(check, DEADLINE)
    except TimeoutError:
        raise AssertionError("the check waited for the limiter's clock to move") from None


class Clock:
    """The limiter's clock, moved by hand: a wait in line lasts until the test moves it on,
    however fast or slow the machine."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


async def test_an_abandoned_attempt_gives_its_turn_back_at_once() -> None:
    clock = Clock()
    rl = auth.RateLimiter(address_free=0, base=0.5, address_max=0.5, clock=clock)
    assert await at_once(rl.check(b"a" * 32, "nat", lambda: False)) == ("bad_code", 0.0)
    # the next check of "nat" waits 0.5 s; three attempts queue, then two are abandoned
    gone = {"b": False, "c": False}
    tasks = {who: asyncio.ensure_future(rl.check(who.encode() * 32, "nat", lambda: False,
                                                 gone=lambda w=who: gone[w]))
             for who in ("b", "c")}
    await eventually(lambda: rl.waiting("nat") == 2, "two attempts in line")
    gone["b"] = gone["c"] = True
    assert [await at_once(tasks[w]) for w in ("b", "c")] == [("gone", 0.0)] * 2
    assert rl.waiting("nat") == 0  # no dead turns left in the line
    clock.now = 0.5  # only the one wrong code's spacing, not three turns
    assert await at_once(rl.check(b"d" * 32, "nat", lambda: True)) == ("ok", 0.0)
    assert await at_once(rl.check(b"f" * 32, "nat", lambda: False)) == ("bad_code", 0.0)
    task = asyncio.ensure_future(rl.check(b"e" * 32, "nat", lambda: True))  # waits for 1.0
    await eventually(lambda: rl.waiting("nat") == 1, "an attempt in line")
    task.cancel()  # a cancelled handshake leaves the line too
    await asyncio.gather(task, return_exceptions=True)
    assert task.cancelled() and rl.waiting("nat") == 0


async def test_the_line_is_bounded_and_a_newcomer_past_it_is_told_busy() -> None:
    clock = Clock()
    rl = auth.RateLimiter(address_free=0, base=0.3, address_max=0.3, queue=2, clock=clock)
    assert await at_once(rl.check(b"a" * 32, "nat", lambda: False)) == ("bad_code", 0.0)
    waiting = [asyncio.ensure_future(rl.check(bytes([i]) * 32, "nat", lambda: False))
               for i in range(2)]
    await eventually(lambda: rl.waiting("nat") == 2, "two attempts in line")
    verdict, seconds = await at_once(rl.check(b"x" * 32, "nat", lambda: True))
    assert verdict == "busy" and 0 < seconds <= 1.0
    assert rl.waiting("other") == 0 and await at_once(
        rl.check(b"y" * 32, "other", lambda: True)) == ("ok", 0.0)  # a line of its own
    for turn in waiting:  # each in line gets its turn as the address's spacing passes
        clock.now += 0.3
        await eventually(turn.done, "the next turn")
    assert [turn.result()[0] for turn in waiting] == ["bad_code", "bad_code"]


async def test_the_next_in_line_moves_up_as_soon_as_the_one_ahead_is_checked() -> None:
    # the line serves an address's codes one per back-off (5 a second), not one per back-off
    # plus a poll: a flood at four a second filled a line that woke its waiters by polling
    clock = Clock()
    rl = auth.RateLimiter(address_free=0, base=0.2, address_max=0.2, clock=clock)
    assert await at_once(rl.check(b"a" * 32, "nat", lambda: False)) == ("bad_code", 0.0)
    first = asyncio.ensure_future(rl.check(b"b" * 32, "nat", lambda: True, poll=0.01))
    second = asyncio.ensure_future(rl.check(b"c" * 32, "nat", lambda: True, poll=3600))
    await eventually(lambda: rl.waiting("nat") == 2, "two attempts in line")
    clock.now = 0.2  # the wrong code's spacing is over: both right codes go in at once
    assert await at_once(first) == ("ok", 0.0)
    assert await at_once(second) == ("ok", 0.0)  # (it did not sleep its hour's poll out)
    assert rl.waiting("nat") == 0
