"""Host-side search bots think in worker threads: the host keeps answering while they do, and
their choices land on the table they were made for."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from host.server import Host


async def _until(pred: Any, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not pred():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.01)


@pytest.mark.timeout(120)
async def test_a_table_of_thinking_search_bots_plays_to_the_end(tmp_path: Any) -> None:
    host = Host("Search test", tmp_path / "cfg", tmp_path / "data", open=True, mdns=False,
                bot_delay=0.0, recover=False)
    await host.start(bind="127.0.0.1", port=0)
    try:
        tid = host.lobby.create_table("hranice", 2, {"turn_cap": 6}, seed=4)
        host.lobby.add_bot(tid, 0, "search@0.02s")
        host.lobby.add_bot(tid, 1, "search@4p")
        host.lobby.start(tid)
        table = host.lobby.tables[tid]
        ticks = 0

        async def tick() -> None:  # the loop stays free while the bots think
            nonlocal ticks
            while table.status == "playing":
                ticks += 1
                await asyncio.sleep(0.005)

        ticker = asyncio.create_task(tick())
        await _until(lambda: table.status == "over", 100)
        await ticker
        assert table.engine.outcome(table.state)["result"] in ("win", "turn_cap")
        assert len(table.history) > 6 and ticks > len(table.history) // 4
    finally:
        await host.stop()
