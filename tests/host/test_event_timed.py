"""A tournament's tables time every decision (issue 13: "absent and timed-out seats play by the
game's absent rules"), so an entrant who is connected but idle cannot hold a round. A real host
on 127.0.0.1 with a real TLS session for the idle entrant; every wait polls against a deadline."""

from __future__ import annotations

import asyncio
import time

import pytest

from client.session import Session
from host.event import TIMED, Director, timed_options
from host.server import Host
from tests.host.test_event_frames import next_of

pytestmark = pytest.mark.timeout(90)


def test_tournament_tables_are_timed_unless_the_organiser_says_otherwise() -> None:
    assert timed_options("hranice", {"variant": "tutorial"}) == {
        "turn_seconds": TIMED["turn_seconds"], "variant": "tutorial"}
    assert timed_options("hranice", {"turn_seconds": 0}) == {"turn_seconds": 0}
    assert timed_options("fang", {}) == {"time_limits": True}
    assert timed_options("fang", {"time_limits": False}) == {"time_limits": False}
    assert timed_options("hexenhammer", {}) == {"turn_seconds": TIMED["turn_seconds"]}


@pytest.mark.parametrize("game,options", [
    ("hranice", {"variant": "tutorial", "reaction_seconds": 2, "turn_seconds": 2}),
    ("hexenhammer", {"reaction_seconds": 2, "panic_seconds": 5, "turn_seconds": 2})])
async def test_a_connected_entrant_who_idles_is_moved_for_by_the_turn_clock(
        tmp_path, game, options) -> None:
    host = Host("Idle", tmp_path / "cfg", tmp_path / "data", open=True, bot_delay=0.0,
                games=[game])
    director = Director(host, game=game, fmt="swiss", size=4, rounds=1, bots=3,
                        start_when=4, options=options)
    director.load()
    await host.start("127.0.0.1", 0)
    director.begin()
    idle = await Session.connect("127.0.0.1", host.port, name="Idle", identity_file=None,
                                 config_dir=str(tmp_path / "idle"), accept_new=True)
    try:
        await idle.send({"type": "enter"})  # and then never acts
        lobby = host.lobby
        end = time.monotonic() + 60
        waited = moved_on = False
        tid = seat = None
        while time.monotonic() < end and not moved_on:
            await asyncio.sleep(0.05)
            if tid is None:
                tid = next(iter(director.tables), None)
                if tid is None:
                    continue
                seat = lobby.tables[tid].seat_of(idle.identity)
            table = lobby.tables[tid]
            assert table.options["turn_seconds"] == 2
            state = lobby.state_of(tid)
            if state is None:
                continue
            timer = table.engine.deadline(state)
            if table.waiting_for() == [seat] and timer is not None and (
                    timer.on_expiry == "turn"):
                waited = True  # a decision of its turn (not a reaction prompt)
            elif waited:
                moved_on = True  # that decision was made by the turn clock
        assert seat is not None and not table.seats[seat].absent
        assert moved_on, "the table still waits on the idle entrant"
    finally:
        await idle.aclose()
        director.close()
        await host.stop()


async def test_a_watcher_follows_a_tournament_table(tmp_path) -> None:
    host = Host("Watched", tmp_path / "cfg", tmp_path / "data", open=True, bot_delay=0.2,
                games=["hranice"])
    director = Director(host, game="hranice", fmt="swiss", size=4, rounds=1, bots=4,
                        start_when=4)
    director.load()
    await host.start("127.0.0.1", 0)
    director.begin()  # four host bots: the event starts at once
    eve = await Session.connect("127.0.0.1", host.port, name="Eve", identity_file=None,
                                config_dir=str(tmp_path / "eve"), accept_new=True)
    try:
        [tid] = list(director.tables)
        await eve.send({"type": "watch", "table": tid})
        await next_of(eve, "watch_view", 20)  # (an AssertionError if none comes)
        assert eve.you.get("watching") == tid
    finally:
        await eve.aclose()
        director.close()
        await host.stop()
