"""The host dashboard, driven with Textual's Pilot (real host on 127.0.0.1, port 0)."""

from __future__ import annotations

import asyncio

import pytest
from textual.widgets import DataTable, RichLog

from client.session import Session
from host.dashboard import Dashboard
from host.server import Host

pytestmark = [pytest.mark.timeout(60), pytest.mark.one_loop(
    "the dashboard is a Textual app: asyncio's loop, also where the host has uvloop")]


async def test_dashboard_shows_code_and_seats_and_its_keys_work(tmp_path) -> None:
    host = Host("Dash", tmp_path / "cfg", tmp_path / "data", bot_delay=0,
                games=["hexenhammer", "toy"])
    app = Dashboard(host)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        info = str(app.query_one("#info").render())
        assert host.room_code in info and host.fingerprint_human in info
        await pilot.press("n")
        await wait_for(pilot, lambda: len(app.rows) == 4)  # the coalesced lobby update came
        assert host.lobby.tables[1].status == "open"
        for _ in range(4):
            await pilot.press("b", "down")
        await wait_for(pilot, lambda: [s.kind for s in host.lobby.tables[1].seats] == ["bot"] * 4)
        await pilot.press("k")  # no human there: refused, logged, nothing changes
        await pilot.pause()
        assert log_lines(app)[-1] == "kick: Seat 3 at table 1 has no human."
        assert [s.kind for s in host.lobby.tables[1].seats] == ["bot"] * 4
        await pilot.press("a")  # the same for absent
        await pilot.pause()
        assert log_lines(app)[-1] == "absent: Seat 3 at table 1 has no human."
        assert not any(s.absent for s in host.lobby.tables[1].seats)
        await pilot.press("s")
        await pilot.pause()
        assert host.lobby.tables[1].status in ("playing", "over")
        await pilot.press("q", "q")  # (while the game runs the first q only asks)
        await pilot.pause()
    assert host.reception.server is None


async def test_a_marks_the_selected_player_absent_and_back_and_k_kicks_them(tmp_path) -> None:
    host = Host("Dash", tmp_path / "cfg", tmp_path / "data", bot_delay=0, games=["toy"])
    app = Dashboard(host)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        tid = host.lobby.create_table("toy", 3)
        ada = await Session.connect("127.0.0.1", host.port, name="Ada", code=host.room_code,
                                    config_dir=tmp_path / "ada", accept_new=True)
        try:
            await ada.send({"type": "sit", "table": tid, "seat": 0})
            seat = host.lobby.tables[tid].seats[0]
            await wait_for(pilot, lambda: seat.kind == "human" and len(app.rows) == 3)
            assert app.rows[0] == (tid, 0)  # the cursor is on Ada's row
            await pilot.press("a")
            # (the dashboard redraws with the coalesced lobby update, a moment after the change)
            await wait_for(pilot, lambda: seat.absent and row_text(app, 0)[-1] == "absent")
            await pilot.press("a")
            await wait_for(pilot, lambda: not seat.absent and row_text(app, 0)[-1] == "online")
            await pilot.press("k")
            await wait_for(pilot, lambda: seat.kind == "empty")
            error = None
            while error is None:
                msg = await ada.next_message(10)
                assert msg is not None, "Ada was never told"
                error = msg if msg["type"] == "error" else None
            assert error["code"] == "kicked"
            await wait_for(pilot, lambda: not host.connections)
        finally:
            await ada.aclose()
        await pilot.press("q")
        await pilot.pause()


def log_lines(app: Dashboard) -> list[str]:
    """The dashboard's log, one string a line."""
    return [line.text for line in app.query_one(RichLog).lines]


def row_text(app: Dashboard, row: int) -> list[str]:
    return [str(cell) for cell in app.query_one(DataTable).get_row_at(row)]


async def wait_for(pilot, check, seconds: float = 20, what=None) -> None:
    """Let the app run until ``check()`` holds (failing after ``seconds``; ``what()``, if
    given, says what was there instead)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while not check():
        assert loop.time() < end, ("the dashboard never got there"
                                   + (f": {what()}" if what is not None else ""))
        await pilot.pause(0.02)


async def test_leaving_the_dashboard_any_way_stops_the_host(tmp_path) -> None:
    host = Host("Dash", tmp_path / "cfg", tmp_path / "data", games=["toy"])
    app = Dashboard(host)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert host.reception.server is not None
        app.exit(0)
        await pilot.pause()
    assert host.reception.server is None


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


async def test_T_starts_the_hosts_tournament(tmp_path) -> None:  # noqa: N802 - the key
    host = Host("Dash", tmp_path / "cfg", tmp_path / "data", bot_delay=30, games=["hranice"])
    app = Dashboard(host, tournament={"game": "hranice", "fmt": "swiss", "size": 4,
                                      "rounds": 1, "bots": 4})
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert app.director.status == "registering" and not host.lobby.tables
        await pilot.press("T")
        await pilot.pause()
        assert app.director.status == "playing"
        (table,) = host.lobby.tables.values()
        assert table.status == "playing"
        assert [s.name for s in table.seats] == [f"host bot {i}" for i in (1, 2, 3, 4)]
        await pilot.press("q")
        await pilot.pause()
    assert host.reception.server is None


async def test_the_seats_read_reconnecting_for_a_dropped_link_and_disconnected_for_a_bye(
        tmp_path) -> None:
    host = Host("Dash", tmp_path / "cfg", tmp_path / "data", bot_delay=0, games=["toy"],
                open=True, absent_after=50)
    app = Dashboard(host)
    async with app.run_test(size=(100, 24)) as pilot:
        await pilot.pause()
        tid = host.lobby.create_table("toy", 2)
        ada = await Session.connect("127.0.0.1", host.port, name="Ada",
                                    config_dir=tmp_path / "ada", accept_new=True)
        bob = await Session.connect("127.0.0.1", host.port, name="Bob",
                                    config_dir=tmp_path / "bob", accept_new=True)
        try:
            await ada.send({"type": "sit", "table": tid, "seat": 0})
            await bob.send({"type": "sit", "table": tid, "seat": 1})
            seats = host.lobby.tables[tid].seats
            await wait_for(pilot, lambda: all(s.kind == "human" for s in seats))
            host.lobby.start(tid)
            ada._writer.transport.abort()  # Ada's link drops: no bye
            await bob.aclose()  # Bob closes his client: bye
            await wait_for(pilot, lambda: len(app.rows) == 2
                           and row_text(app, 0)[-1].startswith("reconnecting (")
                           and row_text(app, 1)[-1].startswith("disconnected ("))
            assert row_text(app, 0)[-1].endswith(" s to absent)")
        finally:
            await ada.aclose()
            await bob.aclose()
        await pilot.press("q", "q")
        await pilot.pause()


async def test_T_is_on_the_key_bar_while_the_tournament_takes_entrants(tmp_path) -> None:  # noqa: N802
    """Issue 26, item 5: the organiser's T is offered at 80 columns (the table keys wait for
    a table) and goes once the tournament has started."""
    from tests.client.conftest import screen_text

    host = Host("Dash", tmp_path / "cfg", tmp_path / "data", bot_delay=30, games=["hranice"])
    app = Dashboard(host, tournament={"game": "hranice", "fmt": "swiss", "size": 4,
                                      "rounds": 1, "bots": 4})
    def key_bar() -> str:
        return screen_text(app).splitlines()[-1]

    async with app.run_test(size=(80, 24)) as pilot:
        # the host is up and its bots have entered: the tournament takes entrants
        await wait_for(pilot, lambda: "tournament: press T to start it" in log_lines(app))
        await wait_for(pilot, lambda: "q Quit" in key_bar())  # the key bar is drawn
        bar = key_bar()
        assert "T Start tournament" in bar and "k Kick" not in bar, bar
        await pilot.press("T")
        # started, and its tables on the dashboard (the host's coalesced lobby update came)
        await wait_for(pilot, lambda: app.director.status == "playing" and len(app.rows) == 4)
        # the key bar drawn again for them: the table keys, T gone
        await wait_for(pilot, lambda: "k Kick" in key_bar(), what=key_bar)
        bar = key_bar()
        assert "Start tournament" not in bar and "q Quit" in bar, bar
        await pilot.press("q")
        await pilot.pause()
