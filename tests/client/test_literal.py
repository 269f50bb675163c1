"""Player strings render literally: markup in another player's name or chat is shown as text
and never runs (an ``[@click=app.quit]`` chat line clicked leaves the app running)."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import DataTable

from client.app import HexnetApp
from client.screens.lobby import LobbyScreen
from client.session import Session
from client.widgets.log import GameLog
from host.server import Host
from tests.client.conftest import log_text, wait_until
from tests.host.test_dashboard_names import screen_text

# the host's own name carries markup too
pytestmark = [pytest.mark.timeout(60), pytest.mark.host_name("[blink]Haus[/]")]

EVIL_NAME = "[b red]Mal[/]"
EVIL_CHAT = "[@click=app.quit]click me[/] [bold]x[/bold] [link=http://x]y[/link]"


async def test_markup_in_names_and_chat_shows_literally_and_does_not_run(
        open_host: Host, tmp_path: Any) -> None:
    app = HexnetApp(target=("127.0.0.1", open_host.port), name="[i]Bea[/i]",
                    config_dir=str(tmp_path / "bea"), fingerprint=open_host.fingerprint)
    mal = await Session.connect("127.0.0.1", open_host.port, name=EVIL_NAME,
                                config_dir=tmp_path / "mal", accept_new=True)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            lobby = await wait_until(pilot, lambda: app.lobby and isinstance(
                app.screen, LobbyScreen) and app.screen, what="the lobby")
            assert "[blink]Haus[/]" in str(lobby.query_one("#lobby-status").render())
            await mal.send({"type": "create", "game": "hexenhammer", "seats": 3,
                            "options": {}})
            table = lobby.query_one("#tables", DataTable)
            await wait_until(pilot, lambda: table.row_count == 1, what="Mal's table")
            # the lobby's table row, as drawn (polled: drawing follows the row by a frame)
            await wait_until(pilot, lambda: EVIL_NAME in screen_text(app), what="Mal's row")
            assert "You are [i]Bea[/i]" in str(lobby.query_one("#lobby-you").render())

            await mal.send({"type": "chat", "text": EVIL_CHAT, "channel": "lobby"})
            log = lobby.query_one("#lobby-chat", GameLog)
            await wait_until(pilot, lambda: "click me" in log_text(log), what="the chat")
            assert f"{EVIL_NAME}: {EVIL_CHAT}" in " ".join(log_text(log).split())  # wrapped
            region = log.region
            for y in range(region.y, region.y + min(region.height, 6)):
                await pilot.click(offset=(region.x + 12, y))
            await pilot.pause()  # every click handled (the app is idle again)
            assert app.is_running and isinstance(app.screen, LobbyScreen)
    finally:
        await mal.aclose()
