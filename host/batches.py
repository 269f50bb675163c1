"""Work handed to a thread of its own in batches, without making the event loop wait.

The journal's fsyncs (:class:`host.journal.Syncer`) and the log's writes
(:class:`host.eventlog.LineWriter`) each run on a thread that takes what came, does it, and waits
for more. Handing work over must cost the loop nothing it could wait on: an item goes into a
deque (an append is atomic), and the thread is woken — an event set — only when it sleeps for
want of work, or when enough waits (``at_once``). The thread takes everything that came at most
every ``every`` seconds, so what comes close together is done together.

Put from a running event loop, the wake is left to the loop's next round (``call_soon``): after
the work of the loop's present round — the tick's frames written — not in the middle of it. A
thread woken while the loop works contends with it for the GIL: the loop loses it at its next
system call (a frame's write) and must sleep until it gets it back, a sleep and a wake that cost
more CPU than the whole round's frames on a virtual machine (the bench's host CPU per change).
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class BatchThread(Generic[T]):
    """A daemon thread calling ``handle(items)`` with the items :meth:`put` since its last
    call, at most every ``every`` seconds (at once when ``at_once`` wait); :meth:`stop` hands
    it what is left and ends it."""

    def __init__(self, name: str, handle: Callable[[list[T]], None], every: float,
                 at_once: int = 1 << 30) -> None:
        self.handle = handle
        self.every = every
        self.at_once = at_once
        self.rounds = 0
        self._items: deque[T] = deque()
        self._wake = threading.Event()
        self._idle = False
        # the loop whose next round wakes the thread (a loop that ended before it ran that
        # round leaves it here: the next put wakes the thread anyway)
        self._wake_due: asyncio.AbstractEventLoop | None = None
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def put(self, item: T) -> None:
        """Hand ``item`` over (never waits)."""
        self._items.append(item)
        if len(self._items) >= self.at_once:
            self._wake.set()
        elif self._idle:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:  # (no loop in this thread: at once)
                self._wake.set()
                return
            if self._wake_due is not loop:
                self._wake_due = loop
                loop.call_soon(self._wake_soon)

    def _wake_soon(self) -> None:
        """(The loop's next round) Wake the thread for what was put in the round before."""
        self._wake_due = None
        self._wake.set()

    def _run(self) -> None:
        last = 0.0
        while True:
            self._idle = True  # (first the flag, then the look: an item put meanwhile wakes it)
            if not self._items and not self._stopping:
                self._wake.wait()
            self._idle = False
            self._wake.clear()
            left = last + self.every - time.monotonic()
            if left > 0 and not self._stopping and len(self._items) < self.at_once:
                self._wake.wait(left)  # the window: what comes within it is done with these
            items: list[T] = []
            while self._items:
                items.append(self._items.popleft())
            last = time.monotonic()
            if items:
                self.handle(items)
                self.rounds += 1
            if self._stopping and not self._items:
                return

    def stop(self, timeout: float) -> None:
        """Let the thread handle what is left, then end (waits at most ``timeout``)."""
        self._stopping = True
        self._wake.set()
        self._thread.join(timeout)
