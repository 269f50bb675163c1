"""``hexnet play`` takes its seat by itself: sit at the prepared table as soon as connected, then
start it once every seat is filled. Every front end (the Textual app, the plain mode) follows
the same steps."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class AutoSeat:
    """Take ``seat`` at ``table`` as soon as connected, then start it (``start``)."""

    table: int
    seat: int = 0
    start: bool = True
    step: str = "sit"  # sit → start → done


def next_message(auto: AutoSeat, lobby: dict[str, Any]) -> dict[str, Any] | None:
    """What to send now that ``lobby`` arrived (None: nothing yet); moves ``auto`` on."""
    you = lobby.get("you") or {}
    table = next((t for t in lobby.get("tables") or [] if t["id"] == auto.table), None)
    if auto.step == "sit":
        auto.step = "start" if auto.start else "done"
        return {"type": "sit", "table": auto.table, "seat": auto.seat}
    if (auto.step == "start" and table is not None and you.get("table") == auto.table
            and table.get("status") == "open"
            and all(s.get("kind") != "empty" for s in table.get("seats") or [])):
        auto.step = "done"
        return {"type": "start", "table": auto.table}
    return None
