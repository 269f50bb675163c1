"""The client shows the link and the fairness of a game: a lost connection reads
"reconnecting" at the head of the table's status line until it is back, and the results say
"Fair play verified ✓" once the host's reveal replays to what the table saw."""

from __future__ import annotations

from typing import Any

from textual.widgets import Static

from client.app import HexnetApp
from client.screens.results import ResultsScreen
from host.server import Host
from tests.client.conftest import wait_until
from tests.client.test_flow import LAST_TRIAL, table_screen


async def test_a_lost_link_reads_reconnecting_then_the_results_say_fair_play_verified(
        tmp_path: Any) -> None:
    h = Host("Fairhaus", tmp_path / "host-cfg", tmp_path / "host-data", open=True,
             bot_delay=0.0, games=["hexenhammer"])
    await h.start(bind="127.0.0.1", port=0)
    table = h.lobby.create_table("hexenhammer", 3, {"scenario": LAST_TRIAL}, seed=2)
    for seat in (1, 2):
        h.lobby.add_bot(table, seat, "heuristic")
    app = HexnetApp(target=("127.0.0.1", h.port), name="Ada", config_dir=str(tmp_path / "a"),
                    fingerprint=h.fingerprint)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: app.lobby, what="the lobby")
            await pilot.press("enter")
            await wait_until(pilot, lambda: (app.lobby.get("you") or {}).get("seat") == 0)
            await pilot.press("g")
            screen = await wait_until(pilot, lambda: table_screen(app), what="the table")
            status = screen.query_one("#status", Static)
            app.session._writer.transport.abort()  # the Wi-Fi drops
            await wait_until(pilot, lambda: "reconnecting" in str(status.content),
                             what="the reconnecting note")
            await wait_until(pilot, lambda: "reconnecting" not in str(status.content)
                             and app.session.reconnects == 1, what="the link back")
            asked_at = [-1]

            def over() -> bool:
                if isinstance(app.screen, ResultsScreen):
                    return True
                if screen.legal and asked_at[0] != screen.view["state_id"]:
                    asked_at[0] = screen.view["state_id"]
                    app.call_later(screen.action_pass_turn)
                return False

            await wait_until(pilot, over, 30, "the results")
            line = app.screen.query_one("#fair-play", Static)
            commitment = h.lobby.tables[table].commitment
            await wait_until(pilot, lambda: "verified ✓" in str(line.content),
                             what=lambda: f"the verdict, not {line.content}")
            assert str(line.content) == f"Fair play verified ✓ (commitment {commitment[:16]}…)"
    finally:
        await h.stop()
