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
    log = state["log"]
    window = 2 * LOG_LENGTH
    while True:
        tail = log[-window:]
        out = [e if "to" not in e else _stripped(e) for e in tail
               if "to" not in e or (seat is not None and seat in e["to"])]
        if len(out) >= LOG_LENGTH or len(tail) == len(log):
            return out[-LOG_LENGTH:]
        window *= 4


def _stripped(event: Event) -> Event:
    public = event.copy()
    del public["to"]
    return public
