"""Reconnecting a :class:`client.session.Session` whose connection was lost (issue 6).

The session dials the same host again after 0.5, 1, 2, 4, 4, … s (:data:`BACKOFF`) until its
reconnect window ends, with the same identity key, pinned to the host key it saw first, with the
same room code; each attempt is announced on ``messages()`` as ``{"type": "connection", "state":
"reconnecting", "attempt": n, "message": why}`` and success as ``{"type": "connection",
"state": "connected", "attempt": n}``. A changed host key or a refused code is raised (retrying
cannot cure it).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import TYPE_CHECKING

from client.session import BadRoomCode, FingerprintMismatch, SessionError

if TYPE_CHECKING:
    from client.session import Session

BACKOFF = (0.5, 1.0, 2.0, 4.0)  # then 4 s between attempts


async def come_back(session: Session, why: str) -> bool:
    """Connect again with backoff within the reconnect window; whether it worked. A
    refusal that retrying cannot cure (changed key, bad code) is raised."""
    assert session._dial is not None and session._again is not None
    session._online.clear()
    session.reconnecting = True
    with contextlib.suppress(Exception):
        session._writer.transport.abort()
    give_up = time.monotonic() + (session._reconnect_for or 0)
    attempt = 0
    while not session._closing and time.monotonic() < give_up:
        delay = BACKOFF[min(attempt, len(BACKOFF) - 1)]
        attempt += 1
        session._queue.put_nowait({"type": "connection", "state": "reconnecting",
                                "attempt": attempt, "message": why})
        await asyncio.sleep(min(delay, max(0.0, give_up - time.monotonic())))
        try:
            session._reader, session._writer = await session._dial()
            await asyncio.wait_for(session._again(), max(1.0, give_up - time.monotonic()))
        except (FingerprintMismatch, BadRoomCode):
            raise
        except (SessionError, OSError, TimeoutError) as exc:
            why = str(exc) or type(exc).__name__
            with contextlib.suppress(Exception):
                session._writer.transport.abort()
            continue
        session.reconnecting = False
        session.reconnects += 1
        session._last_error = ""
        session._online.set()
        session._queue.put_nowait({"type": "connection", "state": "connected",
                                "attempt": attempt})
        return True
    return False
