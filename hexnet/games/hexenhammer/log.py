"""The game log: human sentences, each public or for some seats only.

Public events carry no ``to`` key at all, so a view can hand them out without copying; private
ones carry ``to`` (their audience), which is stripped when they are shown.
"""

from __future__ import annotations

from typing import Any

from hexnet.engine import Event, State

LOG_LENGTH = 40


def say(state: State, text: str, to: list[int] | None = None, **fields: Any) -> Event:
    """Append a sentence to the log, for everyone (``to=None``) or only the seats in ``to``."""
    event: Event = {"n": len(state["log"]), "text": text, **fields}
    if to is not None:
        event["to"] = to
    state["log"].append(event)
    return event


def log_for(state: State, seat: int | None) -> list[Event]:
    """The last events ``seat`` may see, in order, audience stripped (the view is built after
    every action, so public events are shared, not copied: treat views as read-only)."""
    out = []
    for event in reversed(state["log"]):
        if "to" in event:
            if seat is None or seat not in event["to"]:
                continue
            event = event.copy()
            del event["to"]
        out.append(event)
        if len(out) == LOG_LENGTH:
            break
    out.reverse()
    return out
