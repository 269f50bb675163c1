"""The host dashboard's keys (issue 14, item 8), driven with Pilot against a real host on
127.0.0.1: ``b`` fills the table's next empty seat whatever row is highlighted, and ``q`` asks
once more while a game runs."""

from __future__ import annotations

import pytest
from textual.widgets import RichLog

from host.dashboard import Dashboard
from host.server import Host
from tests.host.test_dashboard import wait_for

pytestmark = [pytest.mark.timeout(60), pytest.mark.one_loop(
    "the dashboard is a Textual app: asyncio's loop, also where the host has uvloop")]


async def test_b_fills_the_next_empty_seat_not_the_highlighted_one(tmp_path) -> None:
    host = Host("Dash", tmp_path / "cfg", tmp_path / "data", games=["hexenhammer"])
    host.lobby.create_table("hexenhammer", 4, {})
    app = Dashboard(host)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        await pilot.press("down", "down")  # the row of seat 2
        assert app._selected() == (1, 2)
        await pilot.press("b")
        await pilot.pause()
        assert [s.kind for s in host.lobby.tables[1].seats] == ["bot", "empty", "empty",
                                                                "empty"]
        await pilot.press("b")
        await pilot.pause()
        assert [s.kind for s in host.lobby.tables[1].seats] == ["bot", "bot", "empty", "empty"]
        await pilot.press("q")  # nothing runs: quits at once
        await pilot.pause()
    assert host.reception.server is None


def bots_playing(host: Host) -> int:
    """A Hexenhammer table of three host bots, started: its id."""
    table = host.lobby.create_table("hexenhammer", 3, {})
    for _ in range(3):
        host.lobby.add_bot(table)
    host.lobby.start(table)
    return table


async def test_q_asks_again_while_a_game_runs(tmp_path) -> None:
    # bots that think for a minute: the game stays running while the keys are pressed
    host = Host("Dash", tmp_path / "cfg", tmp_path / "data", games=["hexenhammer"],
                bot_delay=60)
    app = Dashboard(host)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        table = bots_playing(host)
        await pilot.pause()
        await pilot.press("q")
        await pilot.pause()
        assert host.reception.server is not None and host.lobby.tables[table].status == "playing"
        lines = "\n".join(str(line.text) for line in app.query_one(RichLog).lines)
        assert "1 game running: press q again to quit anyway" in lines
        await pilot.press("q")
        await pilot.pause()
    assert host.reception.server is None


async def test_p_pauses_the_selected_tables_bots_and_d_slows_them(tmp_path) -> None:
    host = Host("Dash", tmp_path / "cfg", tmp_path / "data", games=["hexenhammer"],
                bot_delay=60)
    app = Dashboard(host)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        table = bots_playing(host)
        await wait_for(pilot, lambda: app.rows)  # the coalesced lobby update drew its rows
        await pilot.press("p")
        await pilot.pause()
        assert host.lobby.tables[table].bots_paused
        assert host.lobby.tables_info()[0]["bots"] == {"paused": True, "by": "",
                                                       "delay": None}
        await pilot.press("d", "d")
        await pilot.pause()
        assert host.lobby.tables[table].bot_delay == 2.0
        await pilot.press("p")
        await pilot.pause()
        assert not host.lobby.tables[table].bots_paused
        lines = "\n".join(str(line.text) for line in app.query_one(RichLog).lines)
        assert "table 1: bots paused" in lines and "table 1: bots' delay 2 s" in lines
        await pilot.press("q", "q")
        await pilot.pause()
