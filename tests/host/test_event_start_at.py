"""``--start-at TIME``: the organiser's clock time, read as local time (today, or tomorrow once
it has passed) or an ISO date and time; a host tournament starts when it is due. A real host on
127.0.0.1; the start is polled for, never slept on."""

from __future__ import annotations

import datetime as dt
import time

import pytest

from host.event import Director
from host.server import Host
from host.tourney_cli import parse_start_at
from tests.waiting import eventually

pytestmark = pytest.mark.timeout(60)


def test_start_at_reads_a_clock_time_today_or_tomorrow_and_an_iso_time() -> None:
    now = dt.datetime(2026, 12, 1, 19, 30, 0).timestamp()  # local time
    assert parse_start_at("20:00", now) == dt.datetime(2026, 12, 1, 20, 0).timestamp()
    assert parse_start_at("19:15:30", now) == dt.datetime(2026, 12, 2, 19, 15, 30).timestamp()
    assert parse_start_at("2026-12-24T18:00", now) == dt.datetime(2026, 12, 24, 18,
                                                                   0).timestamp()
    assert parse_start_at("2026-12-24T18:00+00:00", now) == dt.datetime(
        2026, 12, 24, 18, 0, tzinfo=dt.UTC).timestamp()


async def test_a_tournament_starts_when_its_start_at_is_due(tmp_path) -> None:
    host = Host("Due", tmp_path / "cfg", tmp_path / "data", open=True, bot_delay=0.5,
                games=["hranice"])
    director = Director(host, game="hranice", fmt="swiss", size=4, rounds=1, bots=4,
                        start_at=time.time() + 0.5)
    director.load()
    await host.start("127.0.0.1", 0)
    try:
        director.begin()  # four entrants and no --start-when: only the time starts it
        await eventually(lambda: director.status == "playing", "the start at its time")
        assert len(director.tables) == 1
    finally:
        director.close()
        await host.stop()
