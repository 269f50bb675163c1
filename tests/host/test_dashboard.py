"""The host dashboard, driven with Textual's Pilot (real host on 127.0.0.1, port 0)."""

from __future__ import annotations

import pytest

from host.dashboard import Dashboard
from host.server import Host

pytestmark = pytest.mark.timeout(60)


async def test_dashboard_shows_code_and_seats_and_its_keys_work(tmp_path) -> None:
    host = Host("Dash", tmp_path / "cfg", tmp_path / "data", bot_delay=0,
                games=["hexenhammer", "toy"])
    app = Dashboard(host)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        info = str(app.query_one("#info").render())
        assert host.room_code in info and host.fingerprint_human in info
        await pilot.press("n")
        await pilot.pause()
        assert len(app.rows) == 4 and host.lobby.tables[1].status == "open"
        for _ in range(4):
            await pilot.press("b", "down")
        await pilot.pause()
        assert [s.kind for s in host.lobby.tables[1].seats] == ["bot"] * 4
        await pilot.press("k")  # no human there: refused, logged, nothing changes
        await pilot.press("s")
        await pilot.pause()
        assert host.lobby.tables[1].status in ("playing", "over")
        await pilot.press("q", "q")  # (while the game runs the first q only asks)
        await pilot.pause()
    assert host._server is None


async def test_leaving_the_dashboard_any_way_stops_the_host(tmp_path) -> None:
    host = Host("Dash", tmp_path / "cfg", tmp_path / "data", games=["toy"])
    app = Dashboard(host)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert host._server is not None
        app.exit(0)
        await pilot.pause()
    assert host._server is None


async def test_t_switches_a_fang_tables_time_limits(tmp_path) -> None:
    host = Host("Dash", tmp_path / "cfg", tmp_path / "data", bot_delay=0, games=["fang"])
    host.lobby.create_table("fang", 4, {})
    app = Dashboard(host)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("t")
        await pilot.pause()
        assert host.lobby.tables[1].options == {"time_limits": True}
        await pilot.press("t")
        await pilot.pause()
        assert host.lobby.tables[1].options == {"time_limits": False}
        await pilot.press("q")
        await pilot.pause()
