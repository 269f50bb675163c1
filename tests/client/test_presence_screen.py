"""Presence and the lobby's keys on the client's screens (issue 14, items 1, 3 and 8), Pilot
against a real host on 127.0.0.1: a player whose client dies reads "reconnecting, absent in N s"
on the table's status line, counting down (one whose client said goodbye: "disconnected"); the
log says it in the reader's language; the lobby offers no bot or start key while your table
plays; a new table asks its pace and the lobby shows its seconds; a table chat line is shown
once after the client reconnects."""

from __future__ import annotations

import re
from typing import Any

import pytest
from textual.widgets import Static

from client.app import HexnetApp
from client.screens.hexenhammer import HexenhammerScreen
from client.screens.lobby import LobbyScreen, game_text, seats_summary
from client.screens.picker import Picker
from client.session import Session
from client.widgets.log import GameLog
from host.server import Host
from tests.client.conftest import log_text, screen_text, wait_until

pytestmark = pytest.mark.timeout(90)


async def table_with_bob(tmp_path: Any, absent_after: float = 30.0
                         ) -> tuple[Host, int, Session, HexnetApp]:
    """A Hexenhammer table of 3: the app's player to sit at seat 0, Bob (a real client) at
    seat 1, a bot at seat 2."""
    h = Host("Presenzhaus", tmp_path / "host-cfg", tmp_path / "host-data", open=True,
             bot_delay=0.0, games=["hexenhammer"], absent_after=absent_after)
    await h.start(bind="127.0.0.1", port=0)
    table = h.lobby.create_table("hexenhammer", 3, {}, seed=3)
    h.lobby.add_bot(table, 2, "heuristic")
    bob = await Session.connect("127.0.0.1", h.port, name="Bob",
                                config_dir=tmp_path / "bob", accept_new=True)
    await bob.send({"type": "sit", "table": table, "seat": 1})
    app = HexnetApp(target=("127.0.0.1", h.port), name="Ada",
                    config_dir=str(tmp_path / "ada"), fingerprint=h.fingerprint)
    return h, table, bob, app


async def test_a_dropped_player_reads_reconnecting_with_a_countdown_on_the_table_and_in_the_log(
        tmp_path: Any) -> None:
    h, table, bob, app = await table_with_bob(tmp_path)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            lobby = await wait_until(pilot, lambda: app.lobby and isinstance(
                app.screen, LobbyScreen) and app.screen, what="the lobby")
            await wait_until(pilot, lambda: h.lobby.tables[table].seats[1].kind == "human")
            await pilot.press("enter")  # sit at seat 0
            await wait_until(pilot, lambda: (app.lobby.get("you") or {}).get("seat") == 0)
            assert lobby.check_action("start", ()) is True  # an open table: g starts it
            await pilot.press("g")
            screen = await wait_until(pilot, lambda: isinstance(app.screen, HexenhammerScreen)
                                      and app.screen, what="the table")
            status = screen.query_one("#status", Static)
            assert "reconnecting" not in str(status.content)
            bob._writer.transport.abort()  # Bob's link dies: no goodbye from his client
            await wait_until(pilot, lambda: "Bob ⟳reconnecting, absent in" in str(status.content),
                             what=lambda: f"Bob reconnecting on the status line: {status.content}")
            # at the head of the one-row line, so 80 columns never cut it off
            assert str(status.content).startswith("Bob ⟳reconnecting, absent in")
            def left() -> int:
                return int(re.search(r"absent in (\d+) s", str(status.content)).group(1))

            first = left()
            assert 15 <= first <= 30
            await wait_until(pilot, lambda: left() < first, 10,
                             what=lambda: f"the countdown moving: {status.content}")
            await wait_until(pilot, lambda: "Bob lost the connection and is reconnecting; "
                             "absent in 30 seconds unless back." in " ".join(
                                 log_text(screen.query_one(GameLog)).split()),
                             what=lambda: log_text(screen.query_one(GameLog))[-400:])
            # back in the lobby while the table plays: no bot, no start
            await pilot.press("l")
            await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen))
            # the lobby's row of one's own table follows its frames (a playing seat gets no
            # lobby updates): playing, Bob reconnecting with the countdown
            row = await wait_until(pilot, lambda: next(
                (line for line in screen_text(app).splitlines() if line.startswith(" 1 ")
                 and "Bob ⟳reconnecting, absent in" in line), None),
                what=lambda: screen_text(app))
            assert "playing" in row and "open" not in row
            assert lobby.check_action("add_bot", ()) is False
            assert lobby.check_action("start", ()) is False
            assert lobby.check_action("sit", ()) is True
    finally:
        await h.stop()


async def test_the_lobby_names_a_disconnected_seat_with_its_seconds_and_a_bot_keeping_one(
        tmp_path: Any) -> None:
    h, table, bob, app = await table_with_bob(tmp_path)
    try:
        ada = await Session.connect("127.0.0.1", h.port, name="Ada",
                                    config_dir=tmp_path / "ada", accept_new=True)
        await ada.send({"type": "sit", "table": table, "seat": 0})
        for _ in range(200):  # bounded: until both sit
            if all(s.kind != "empty" for s in h.lobby.tables[table].seats):
                break
            await ada.next_message(0.05)
        h.lobby.start(table)
        await bob.aclose()  # Bob closes his client: it says goodbye
        for _ in range(200):
            if h.lobby.presence_of(h.lobby.tables[table])[1]["state"] == "disconnected":
                break
            await ada.next_message(0.05)
        entry = next(t for t in h.lobby.tables_info() if t["id"] == table)
        assert seats_summary(entry, since=0.0).startswith("Ada, Bob ⚡disconnected, absent in")
        h.lobby.mark_absent(table, 1)
        h.lobby.add_bot(table, 1, "random")
        entry = next(t for t in h.lobby.tables_info() if t["id"] == table)
        # each bot with the level (or policy) it plays
        assert seats_summary(entry) == "Ada, Bob (random) ⚙ bot plays, bot 3 (heuristic)"
        await ada.aclose()
    finally:
        await h.stop()


async def test_a_new_table_asks_its_pace_and_the_lobby_shows_its_seconds(
        open_host: Host, tmp_path: Any) -> None:
    app = HexnetApp(target=("127.0.0.1", open_host.port), name="Bea",
                    config_dir=str(tmp_path / "bea"), fingerprint=open_host.fingerprint)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.lobby and isinstance(app.screen, LobbyScreen))
        await pilot.press("n")
        seats = await wait_until(pilot, lambda: isinstance(app.screen, Picker) and app.screen)
        await pilot.press("enter")
        pace = await wait_until(pilot, lambda: isinstance(app.screen, Picker)
                                and app.screen is not seats
                                and app.screen.query("#picker-title") and app.screen,
                                what="the pace")
        assert "Which pace?" in str(pace.query_one("#picker-title").render())
        await pilot.press("down", "down", "enter")  # normal, relaxed, quick
        await wait_until(pilot, lambda: (app.lobby.get("you") or {}).get("table") is not None)
        entry = app.lobby["tables"][0]
        assert entry["options"] == {"pace": "quick", "reaction_seconds": 5.0,
                                    "panic_seconds": 30.0}
        # the pace with the seconds it sets (issue 14: "with the seconds shown in the lobby")
        assert game_text(entry) == ("Hexenhammer (quick pace, panic phase 30 s, "
                                    "reaction window 5 s)")
        engine_options = open_host.lobby.tables[entry["id"]].options
        assert engine_options["reaction_seconds"] == 5.0


async def test_a_table_chat_line_is_shown_once_after_the_client_reconnects(
        tmp_path: Any) -> None:
    h, table, bob, app = await table_with_bob(tmp_path)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: app.lobby and isinstance(app.screen, LobbyScreen))
            await wait_until(pilot, lambda: h.lobby.tables[table].seats[1].kind == "human")
            await pilot.press("enter")
            await wait_until(pilot, lambda: (app.lobby.get("you") or {}).get("seat") == 0)
            await pilot.press("g")
            screen = await wait_until(pilot, lambda: isinstance(app.screen, HexenhammerScreen)
                                      and app.screen, what="the table")
            await bob.send({"type": "chat", "text": "mind the frog", "channel": "table"})
            log = screen.query_one(GameLog)
            await wait_until(pilot, lambda: "Bob: mind the frog" in log_text(log))
            app.session._writer.transport.abort()  # the Wi-Fi drops
            await wait_until(pilot, lambda: app.session.reconnects == 1, 20,
                             what="the link back")
            await wait_until(pilot, lambda: app.screen is screen and screen.view)
            await bob.send({"type": "chat", "text": "after", "channel": "table"})
            await wait_until(pilot, lambda: "Bob: after" in log_text(log))
            assert log_text(log).count("Bob: mind the frog") == 1
    finally:
        await bob.aclose()
        await h.stop()
