"""A progress bar on stderr for long runs (``selfplay``, ``tournament``).

On a terminal it redraws one line in place (at most ten times a second); when asked for where
stderr is not a terminal (``--progress`` into a file or pipe) it writes a plain line at every
tenth of the way instead. Lines printed through :meth:`Progress.say` appear above the bar.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

BAR = 24
REDRAW = 0.1  # seconds between two drawings of the bar


class Progress:
    """``done`` of ``total`` items (``unit``: games, tables), with rate and time left."""

    def __init__(self, total: int, unit: str = "games", enabled: bool | None = None,
                 stream: TextIO | None = None) -> None:
        self.total, self.unit = max(0, total), unit
        self.stream = stream if stream is not None else sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.enabled = self.tty if enabled is None else enabled
        self.done = 0
        self.started = time.perf_counter()
        self._drawn_at = 0.0
        self._tenths = 0
        self._showing = False

    def advance(self, n: int = 1) -> None:
        """``n`` more items are done."""
        self.done += n
        if not self.enabled:
            return
        if self.tty:
            now = time.perf_counter()
            if now - self._drawn_at >= REDRAW or self.done >= self.total:
                self._drawn_at = now
                self._draw()
        elif self.total and self.done * 10 // self.total > self._tenths:
            self._tenths = self.done * 10 // self.total
            self.stream.write(self.line() + "\n")
            self.stream.flush()

    def line(self) -> str:
        """The bar as text: ``[#####-----]  412/1000 games  41%  52.3 games/s  11 s left``."""
        elapsed = max(time.perf_counter() - self.started, 1e-9)
        rate = self.done / elapsed
        share = self.done / self.total if self.total else 1.0
        filled = round(BAR * share)
        left = f"  {(self.total - self.done) / rate:.0f} s left" if rate > 0 and share < 1 else ""
        return (f"[{'#' * filled}{'-' * (BAR - filled)}] {self.done}/{self.total} {self.unit}"
                f"  {share:.0%}  {rate:.1f} {self.unit}/s{left}")

    def _draw(self) -> None:
        self.stream.write("\r\033[K" + self.line())
        self.stream.flush()
        self._showing = True

    def say(self, text: str, out: TextIO | None = None) -> None:
        """Print ``text`` (on stdout by default) without tearing the bar."""
        out = out if out is not None else sys.stdout
        if self._showing:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self._showing = False
        out.write(text + "\n")
        out.flush()
        if self.enabled and self.tty and self.done:
            self._draw()

    def close(self) -> None:
        """Finish the bar's line (it stays on screen, complete)."""
        if self._showing:
            self._draw()
            self.stream.write("\n")
            self.stream.flush()
            self._showing = False
