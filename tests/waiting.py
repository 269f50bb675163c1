"""Waiting in tests without letting the clock decide a verdict: poll a condition until it holds,
failing only when a generous deadline passes (a slow, loaded machine waits longer; it never
changes the answer). No test sleeps to let something happen."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")
DEADLINE = 30.0  # seconds: far beyond what any condition here needs on an idle machine
EVERY = 0.02
NO_TABLE = 1 << 31  # a table id no test's host ever reaches (the protocol's highest)


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


async def answered(session: Any, what: str, seconds: float = DEADLINE) -> None:
    """Wait until the host has handled everything ``session`` (a :class:`client.session.
    Session`) sent so far: a host handles one connection's requests in order, so its answer to
    one more — a request to watch a table that does not exist, refused to that connection
    alone, changing nothing — comes after all of them (and after their journal records: the
    host writes what it holds before any answer leaves). Messages read meanwhile are
    consumed; AssertionError naming ``what`` if no answer came within ``seconds``."""
    await session.send({"type": "watch", "table": NO_TABLE})
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while (left := end - loop.time()) > 0:
        msg = await session.next_message(left)
        if msg is not None and msg["type"] == "error" and msg["code"] == "no_table":
            return
    raise AssertionError(f"{what}: no answer within {seconds:g} s")
