"""A moment in which keys wait: a prompt that changed under the cursor ignores them briefly.

When the question a seat answers changes — a reaction window opens, a die-roll prompt replaces
the window just as ``p`` is pressed, a list of choices is redrawn with other entries — a key
already on its way would answer the new question by accident. For :data:`GUARD_SECONDS` after
such a change the answering keys do nothing; the screen shows it (``⏸`` before the prompt, the
keys dimmed in the bottom bar) and draws itself again when the moment is over. The guard never
delays an answer for longer than that: the host's countdown keeps running.
"""

from __future__ import annotations

import time

GUARD_SECONDS = 0.6
PAUSED = "⏸"  # shown while keys wait


class KeyGuard:
    """Armed by a change of prompt; ``active`` for :data:`GUARD_SECONDS` afterwards."""

    def __init__(self) -> None:
        self._until = 0.0

    def arm(self, seconds: float | None = None) -> None:
        """Keys wait from now for ``seconds`` (default :data:`GUARD_SECONDS`)."""
        self._until = time.monotonic() + (GUARD_SECONDS if seconds is None else seconds)

    @property
    def active(self) -> bool:
        """Whether keys wait now."""
        return time.monotonic() < self._until
