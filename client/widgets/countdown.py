"""A countdown driven by the view's ``deadline`` (the host times it; we only show it).

Whatever a host sends as ``seconds`` is survived: a value that is not a finite number (NaN, a
string, a list) shows no countdown, and a number is held within 0 … :data:`LONGEST` seconds
(negative counts as 0, infinite or huge as the longest)."""

from __future__ import annotations

import math
import time
from typing import Any

from textual.widgets import Static

# Tests replace this to freeze the clock.
CLOCK = time.monotonic
LONGEST = 99_999.0  # seconds: the most a countdown shows
RESUME_LEAST = 3.0  # seconds a held deadline has at least when it runs on (host/pause.py)


def clock(left: int, mark: str = "⏱") -> str:
    """The countdown as read: ``⏱ 45s`` under a minute, ``⏱ 59:59`` under an hour (m:ss),
    ``⏱ 1:05 h`` beyond (h:mm) — never ``⏱ 3599s``; ``mark`` ⏸ while it is held."""
    if left < 60:
        return f"{mark} {left}s"
    if left < 3600:
        return f"{mark} {left // 60}:{left % 60:02d}"
    return f"{mark} {left // 3600}:{left % 3600 // 60:02d} h"


def seconds_of(value: Any) -> float | None:
    """A deadline's ``seconds`` as a number to count down from, or None if it is none."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if math.isnan(value):
        return None
    return min(max(float(value), 0.0), LONGEST)


class Countdown(Static):
    """Seconds left of the engine's current deadline, counted from when its view arrived."""

    DEFAULT_CSS = "Countdown { width: auto; }"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self._key: str | None = None
        self._seconds = 0.0
        self._since = 0.0
        self._held: float | None = None  # seconds left while the table's clock is held

    def on_mount(self) -> None:
        self.set_interval(0.5, self._tick)

    def set_deadline(self, deadline: dict[str, Any] | None) -> None:
        """Follow ``deadline`` (``key``, ``seconds``); a new key restarts the count."""
        seconds = seconds_of(deadline.get("seconds")) if isinstance(deadline, dict) else None
        if seconds is None:
            self._key = None
        elif deadline.get("key") != self._key:
            self._key = deadline.get("key")
            self._seconds = seconds
            self._since = CLOCK()
            if self._held is not None:  # a new deadline while the clock is held waits whole
                self._held = seconds
        self._tick()

    def hold(self, on: bool) -> None:
        """Hold the count (the host paused the table's bots and its clock) or let it run on
        from where it stood — at least :data:`RESUME_LEAST` seconds, as the host gives."""
        if on and self._held is None:
            self._held = max(0.0, self._seconds - (CLOCK() - self._since))
        elif not on and self._held is not None:
            self._seconds, self._since = max(self._held, RESUME_LEAST), CLOCK()
            self._held = None
        self._tick()

    @property
    def remaining(self) -> int | None:
        """Whole seconds left, or None when nothing is timed."""
        if self._key is None:
            return None
        if self._held is not None:
            return math.ceil(self._held)
        return max(0, math.ceil(self._seconds - (CLOCK() - self._since)))

    def _tick(self) -> None:
        left = self.remaining
        self.display = left is not None  # no blank block in front of the prompt
        self.update("" if left is None else clock(left, "⏸" if self._held is not None else "⏱"))
