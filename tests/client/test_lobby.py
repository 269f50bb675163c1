"""Lobby and connection tests against a real embedded host: creating a table by keyboard,
bots, chat at the lobby and at the table, and a refused host key."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Input

from client.app import HexnetApp
from client.screens.hexenhammer import HexenhammerScreen
from client.screens.lobby import LobbyScreen
from client.screens.picker import Picker
from client.widgets.log import GameLog
from host.server import Host
from tests.client.conftest import log_text, wait_until

pytestmark = pytest.mark.timeout(60)


async def test_create_a_table_fill_it_with_bots_chat_and_start(open_host: Host,
                                                               tmp_path: Any) -> None:
    app = HexnetApp(target=("127.0.0.1", open_host.port), name="Bea",
                    config_dir=str(tmp_path / "bea"), fingerprint=open_host.fingerprint)
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await wait_until(pilot, lambda: app.lobby and isinstance(
            app.screen, LobbyScreen) and app.screen, what="the lobby")
        assert "Openhaus" in str(lobby.query_one("#lobby-status").render())

        # n: one game on this host, so straight to the table size; the first is 3 players.
        await pilot.press("n")
        picker = await wait_until(pilot, lambda: isinstance(app.screen, Picker)
                                  and app.screen.query("#picker-title") and app.screen,
                                  what="the seats picker")
        assert "How many seats" in str(picker.query_one("#picker-title").render())
        await pilot.press("enter")
        pace = await wait_until(pilot, lambda: isinstance(app.screen, Picker)
                                and app.screen is not picker
                                and app.screen.query("#picker-title") and app.screen,
                                what="the pace")
        assert "Which pace?" in str(pace.query_one("#picker-title").render())
        await pilot.press("enter")  # normal, the first offered
        await wait_until(pilot, lambda: (app.lobby.get("you") or {}).get("table") is not None,
                         what="seated at the new table")
        table = app.lobby["tables"][0]
        assert table["game"] == "hexenhammer" and table["seats_total"] == 3

        await pilot.press("b", "b")
        await wait_until(pilot, lambda: all(s["kind"] != "empty"
                                            for s in app.lobby["tables"][0]["seats"]),
                         what="two bots seated")

        await pilot.press("c")
        lobby.query_one("#lobby-chat-input", Input).value = "good evening, village"
        await pilot.press("enter")
        await wait_until(pilot, lambda: "Bea: good evening, village" in log_text(
            lobby.query_one("#lobby-chat", GameLog)), what="the lobby chat line")

        await pilot.press("g")
        screen = await wait_until(pilot, lambda: isinstance(app.screen, HexenhammerScreen)
                                  and app.screen, what="the table")
        assert len(screen.view["villagers"]) == 9
        assert len(screen.view["hand"]) > 0

        await pilot.press("c")
        screen.query_one("#chat-input", Input).value = "who burns first?"
        await pilot.press("enter")
        await wait_until(pilot, lambda: "Bea: who burns first?" in log_text(
            screen.query_one(GameLog)), what="the table chat line")


async def test_a_host_with_another_key_is_refused(open_host: Host, tmp_path: Any) -> None:
    wrong = "00" * 32
    app = HexnetApp(target=("127.0.0.1", open_host.port), name="Bea",
                    config_dir=str(tmp_path / "bea"), fingerprint=wrong)
    async with app.run_test(size=(80, 24)) as pilot:
        status = await wait_until(
            pilot, lambda: "Not connected" in str(app.lobby_screen.connection)
            and app.lobby_screen.connection, what="the refusal")
        assert "not the fingerprint you gave" in status
        assert app.session is None and not app.lobby


async def test_losing_the_host_is_shown_and_the_client_reconnects_by_itself(
        tmp_path: Any) -> None:
    host = Host("Kurzhaus", tmp_path / "host-cfg", tmp_path / "host-data", open=True,
                bot_delay=0.0, games=["hexenhammer"])
    port = await host.start(bind="127.0.0.1", port=0)
    app = HexnetApp(target=("127.0.0.1", port), name="Bea", config_dir=str(tmp_path / "bea"),
                    fingerprint=host.fingerprint)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: app.lobby, what="the lobby")
            await host.stop()
            await wait_until(pilot, lambda: "reconnecting" in app.lobby_screen.connection,
                             what="the lost connection shown")
            host = Host("Kurzhaus", tmp_path / "host-cfg", tmp_path / "host-data", open=True,
                        bot_delay=0.0, games=["hexenhammer"])
            await host.start(bind="127.0.0.1", port=port)
            await wait_until(pilot, lambda: app.session is not None and "Kurzhaus" in
                             app.lobby_screen.connection,
                             what=lambda: f"connected again: {app.lobby_screen.connection}")
    finally:
        await host.stop()


async def start_with_two_bots(pilot: Any, app: HexnetApp, host: Host,
                              seed: int | None) -> int:
    """A new Hexenhammer table: the app's player at seat 0, two heuristic bots, started with
    ``g``; its id."""
    tid = host.lobby.create_table("hexenhammer", 3, {}, seed=seed)
    await wait_until(pilot, lambda: any(t["id"] == tid for t in app.lobby.get("tables") or []),
                     what="the table listed")
    await app.send({"type": "sit", "table": tid, "seat": 0})
    for seat in (1, 2):
        host.lobby.add_bot(tid, seat, "heuristic")
    await wait_until(pilot, lambda: (app.lobby.get("you") or {}).get("table") == tid,
                     what="seated")
    await pilot.press("g")
    return tid


async def test_a_player_mid_game_who_opens_the_lobby_sees_the_other_tables_as_they_are(
        open_host: Host, tmp_path: Any) -> None:
    app = HexnetApp(target=("127.0.0.1", open_host.port), name="Bea",
                    config_dir=str(tmp_path / "bea"), fingerprint=open_host.fingerprint)

    def listed(table: int) -> bool:
        return any(t["id"] == table for t in app.lobby.get("tables") or [])

    def bea() -> Any:
        return next(c for c in open_host.lobby.conns.values() if c.name == "Bea")

    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: app.lobby and isinstance(app.screen, LobbyScreen),
                         what="the lobby")
        mine = await start_with_two_bots(pilot, app, open_host, seed=None)
        await wait_until(pilot, lambda: isinstance(app.screen, HexenhammerScreen)
                         and not bea().looking, what="the table, the lobby no longer shown")
        # While Bea plays, the host tells her nothing of the lobby: a new table is not heard of.
        other = open_host.lobby.create_table("hexenhammer", 4, {})
        await wait_until(pilot, lambda: not bea().synced, what="the lobby updates stopped")
        assert not listed(other)
        await pilot.press("l")  # the lobby, mid-game: as it is now, and following it
        await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen) and listed(other),
                         what="the new table in the lobby")
        third = open_host.lobby.create_table("hexenhammer", 5, {})
        await wait_until(pilot, lambda: listed(third), what="a table made while looking")
        await pilot.press("t")  # back to the table: the host stops again
        await wait_until(pilot, lambda: isinstance(app.screen, HexenhammerScreen)
                         and not bea().looking, what="back at the table, not looking")
        assert open_host.lobby.tables[mine].status == "playing"


async def test_a_player_who_kept_the_table_waiting_reads_why_and_comes_back_with_b(
        tmp_path: Any) -> None:
    host = Host("Idlehaus", tmp_path / "host-cfg", tmp_path / "host-data", open=True,
                bot_delay=0.3, games=["hexenhammer"], idle_absent=3.0)
    await host.start(bind="127.0.0.1", port=0)
    app = HexnetApp(target=("127.0.0.1", host.port), name="Bea",
                    config_dir=str(tmp_path / "bea"), fingerprint=host.fingerprint)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: app.lobby and isinstance(app.screen, LobbyScreen),
                             what="the lobby")
            tid = await start_with_two_bots(pilot, app, host, seed=5)
            screen = await wait_until(pilot, lambda: isinstance(app.screen, HexenhammerScreen)
                                      and app.screen, what="the table")
            seat = host.lobby.tables[tid].seats[0]
            # Bea does nothing: once the table has waited on her 3 s she counts as absent.
            await wait_until(pilot, lambda: seat.absent and screen.away(),
                             what="Bea away", timeout=20)
            assert "You were away too long" in str(screen.query_one("#prompt").render())
            assert screen.check_action("back", ()) is True
            # Back: seen as each view arrives (still idle, she is away again 3 s later — a
            # moment a loaded machine can miss between two looks)
            back: list[bool | None] = []
            update = screen.update_view

            def update_and_look(view: dict[str, Any], legal: list[Any]) -> None:
                update(view, legal)
                if not back and not seat.absent and not screen.away():
                    back.append(screen.check_action("back", ()))

            screen.update_view = update_and_look  # type: ignore[method-assign]
            await pilot.press("b")
            await wait_until(pilot, lambda: back, what="Bea back")
            assert back == [False]  # off the key bar again
    finally:
        await host.stop()
