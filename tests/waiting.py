"""Waiting in tests without letting the clock decide a verdict: poll a condition until it holds,
failing only when a generous deadline passes (a slow, loaded machine waits longer; it never
changes the answer). No test sleeps to let something happen."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")
DEADLINE = 30.0  # seconds: far beyond what any condition here needs on an idle machine
EVERY = 0.02


async def eventually(check: Callable[[], T], what: str, seconds: float = DEADLINE) -> T:
    """``check()``'s first truthy value, polled on the running loop; AssertionError naming
    ``what`` if none came within ``seconds``."""
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while True:
        value = check()
        if value:
            return value
        if loop.time() >= end:
            raise AssertionError(f"{what}: not within {seconds:g} s")
        await asyncio.sleep(EVERY)


def eventually_sync(check: Callable[[], T], what: str, seconds: float = DEADLINE) -> T:
    """:func:`eventually` for code outside an event loop (subprocesses, tmux)."""
    end = time.monotonic() + seconds
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() >= end:
            raise AssertionError(f"{what}: not within {seconds:g} s")
        time.sleep(EVERY * 5)
