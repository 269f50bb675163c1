"""Coming back after a lost connection (issue 6): when to dial again and which failures are worth
another try. The session (:mod:`client.session`) hands in how to dial and where to announce.

The host is dialled again after 0.5, 1, 2, 4, 4, … s (:data:`BACKOFF`) until the reconnect
window ends; each attempt is announced as ``{"type": "connection", "state": "reconnecting",
"attempt": n, "message": why}``. A changed host key or a refused code is raised (retrying cannot
cure it); any other failure of an attempt (a refused or dropped connection, a broken handshake,
no answer in time) waits for the next.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from client.errors import BadRoomCode, FingerprintMismatch, SessionError

BACKOFF = (0.5, 1.0, 2.0, 4.0)  # then 4 s between attempts


async def come_back(dial: Callable[[float], Awaitable[None]],
                    drop: Callable[[], None],
                    announce: Callable[[dict[str, Any]], None],
                    stopped: Callable[[], bool], give_up: float, why: str) -> int | None:
    """Dial again with backoff until ``give_up`` (a ``time.monotonic()`` instant); the attempt
    that worked, or None once the window is over or ``stopped()``.

    ``dial(seconds)`` connects and logs in again within ``seconds``; ``drop()`` abandons what a
    failed attempt left open; ``announce`` posts each attempt for the player. A refusal that
    retrying cannot cure (changed key, bad code) is raised."""
    attempt = 0
    while not stopped() and time.monotonic() < give_up:
        delay = BACKOFF[min(attempt, len(BACKOFF) - 1)]
        attempt += 1
        announce({"type": "connection", "state": "reconnecting", "attempt": attempt,
                  "message": why})
        await asyncio.sleep(min(delay, max(0.0, give_up - time.monotonic())))
        try:
            await dial(max(1.0, give_up - time.monotonic()))
        except (FingerprintMismatch, BadRoomCode):
            raise
        except (SessionError, OSError, TimeoutError) as exc:
            why = str(exc) or type(exc).__name__
            drop()
            continue
        return attempt
    return None
