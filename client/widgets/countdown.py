"""A countdown driven by the view's ``deadline`` (the host times it; we only show it)."""

from __future__ import annotations

import math
import time
from typing import Any

from textual.widgets import Static

# Tests replace this to freeze the clock.
CLOCK = time.monotonic


class Countdown(Static):
    """Seconds left of the engine's current deadline, counted from when its view arrived."""

    DEFAULT_CSS = "Countdown { width: auto; }"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self._key: str | None = None
        self._seconds = 0.0
        self._since = 0.0

    def on_mount(self) -> None:
        self.set_interval(0.5, self._tick)

    def set_deadline(self, deadline: dict[str, Any] | None) -> None:
        """Follow ``deadline`` (``key``, ``seconds``); a new key restarts the count."""
        if not deadline:
            self._key = None
        elif deadline.get("key") != self._key:
            self._key = deadline.get("key")
            self._seconds = float(deadline.get("seconds") or 0)
            self._since = CLOCK()
        self._tick()

    @property
    def remaining(self) -> int | None:
        """Whole seconds left, or None when nothing is timed."""
        if self._key is None:
            return None
        return max(0, math.ceil(self._seconds - (CLOCK() - self._since)))

    def _tick(self) -> None:
        left = self.remaining
        self.display = left is not None  # no blank block in front of the prompt
        self.update("" if left is None else f"⏱ {left}s")
