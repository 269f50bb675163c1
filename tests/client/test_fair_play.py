"""The client shows the link and the fairness of a game: a lost connection reads
"reconnecting" at the head of the table's status line until it is back, and the results say
"Fair play verified ✓" once the host's reveal replays to what the table saw; a table the host
stacked says so at the table, in the lobby and on the results screen."""

from __future__ import annotations

from typing import Any

from textual.widgets import Static

from client.screens.hexenhammer import HexenhammerScreen
from client.screens.lobby import game_text
from client.screens.results import ResultsScreen
from tests.client.conftest import (
    host_with_table,
    passing_until,
    player_app,
    sit_and_start,
    wait_until,
)
from tests.client.test_flow import LAST_TRIAL


async def test_a_lost_link_reads_reconnecting_then_the_results_say_fair_play_verified(
        tmp_path: Any) -> None:
    h, table = await host_with_table(tmp_path, "Fairhaus", "hexenhammer", 3,
                                     {"scenario": LAST_TRIAL}, seed=2)
    app = player_app(h, tmp_path)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await sit_and_start(pilot, app, HexenhammerScreen)
            status = screen.query_one("#status", Static)
            # a table the host stacked says so at the table and in the lobby
            await wait_until(pilot, lambda: f"Hexenhammer #{table} ⚠ stacked" in str(
                status.content), what=lambda: f"the stacked note, not {status.content}")
            entry = next(t for t in app.lobby_screen.lobby["tables"] if t["id"] == table)
            assert game_text(entry) == "Hexenhammer ⚠ stacked"
            app.session._writer.transport.abort()  # the Wi-Fi drops
            await wait_until(pilot, lambda: "reconnecting" in str(status.content),
                             what="the reconnecting note")
            await wait_until(pilot, lambda: "reconnecting" not in str(status.content)
                             and app.session.reconnects == 1, what="the link back")
            over = passing_until(app, screen, lambda: isinstance(app.screen, ResultsScreen))
            await wait_until(pilot, over, 30, "the results")
            line = await wait_until(  # (the results screen composes its lines a frame later)
                pilot, lambda: app.screen.query("#fair-play").first(Static)
                if app.screen.query("#fair-play") else None, what="the fair-play line")
            commitment = h.lobby.tables[table].commitment
            await wait_until(pilot, lambda: "verified ✓" in str(line.content),
                             what=lambda: f"the verdict, not {line.content}")
            assert str(line.content) == (f"Fair play verified ✓ (commitment {commitment[:16]}…)"
                                         " — ⚠ stacked by the host, not shuffled")
    finally:
        await h.stop()
