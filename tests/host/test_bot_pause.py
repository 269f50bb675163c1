"""Host bots honour the game's bot_pause (issue 26, item 4): in Hexenhammer's panic a bot's
card does not follow the last card's window at once when a person sits at the table, so the
person can get a card in; a table of bots alone plays on at the host's bot delay."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from host.core import Accepted
from host.server import Host

ROWS = [["theresa", "heinbichl", "berta"], ["karl", "maria", "luitger"],
        ["raphael", "bertram", "markwart"]]
PANIC = {"villagers": ROWS, "phase": 2, "inquisitor": 1, "turn": 1,
         "hands": [["spende:1"], ["spende:1", "spende:2", "spende:1"], ["spende:2", "spende:1"]]}


async def gaps(tmp_path: Any, person: bool) -> list[float]:
    """Seconds between a panic card's window closing and the next card a bot plays."""
    host = Host("Pause", tmp_path / "cfg", tmp_path / "data", open=True, bot_delay=0.05,
                absent_after=None, recover=False)
    seen: list[tuple[float, Any]] = []
    host.add_listener(lambda effects: seen.extend(
        (time.monotonic(), e) for e in effects if isinstance(e, Accepted)))
    await host.start(bind="127.0.0.1", port=0)
    try:
        tid = host.lobby.create_table("hexenhammer", 3, {"scenario": PANIC,
                                                         "reaction_seconds": 2}, seed=3)
        if person:  # a person who is away: the game passes for them at once
            host.lobby.place(tid, 0, "Ada", b"\1" * 32)
        else:
            host.lobby.add_bot(tid, 0, "heuristic")
        for seat in (1, 2):
            host.lobby.add_bot(tid, seat, "heuristic")
        host.lobby.start(tid)
        table = host.lobby.tables[tid]
        end = time.monotonic() + 30
        # (until the panic ends or two bot cards have followed a window: enough to judge)
        while (table.state["phase"] == 2 and len(after_windows(seen)) < 2
               and time.monotonic() < end):
            await asyncio.sleep(0.02)
    finally:
        await host.stop()
    return after_windows(seen)


def after_windows(seen: list[tuple[float, Any]]) -> list[float]:
    """The gaps before each card a bot played right after a window's last answer (a pass, or
    the host's for the absent)."""
    return [when - before for (before, prev), (when, e) in zip(seen, seen[1:], strict=False)
            if e.action.get("type") == "play" and e.seat in (1, 2)
            and prev.action.get("type") in ("pass", "absent", "timeout")]


@pytest.mark.timeout(60)
async def test_a_bots_panic_card_waits_for_the_people_at_the_table(tmp_path) -> None:
    with_person = await gaps(tmp_path / "a", person=True)
    bots_only = await gaps(tmp_path / "b", person=False)
    assert with_person and min(with_person) >= 3.9, with_person
    assert bots_only and max(bots_only) < 1.0, bots_only
