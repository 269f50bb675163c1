"""The host dashboard shows player names literally: markup in a name never runs there."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from textual.widgets import DataTable, RichLog

from client.session import Session
from host.dashboard import Dashboard
from host.server import Host
from tests.host.test_dashboard import wait_for

pytestmark = [pytest.mark.timeout(60), pytest.mark.one_loop(
    "the dashboard is a Textual app: asyncio's loop, also where the host has uvloop")]


def screen_text(app: Any) -> str:
    """What the app's screen shows, as plain text (from its SVG screenshot)."""
    svg = app.export_screenshot()
    return html.unescape(re.sub(r"<[^>]+>", "", svg)).replace("\xa0", " ")


async def test_a_name_with_markup_shows_literally_on_the_dashboard(tmp_path) -> None:
    host = Host("Dash", tmp_path / "cfg", tmp_path / "data", bot_delay=0, open=True,
                games=["toy"])
    app = Dashboard(host)
    async with app.run_test(size=(100, 24)) as pilot:
        await pilot.pause()
        s = await Session.connect("127.0.0.1", host.port, name="[@click=app.quit]Mal[/]",
                                  config_dir=tmp_path / "mal", accept_new=True)
        try:
            await s.send({"type": "create", "game": "toy", "seats": 2, "options": {}})
            await wait_for(pilot, lambda: app.rows)
            app.refresh_tables()
            await pilot.pause()
            app.query_one(RichLog).clear()  # its "connected" line names Mal literally too
            await pilot.pause()
            assert "[@click=app.quit]Mal[/]" in screen_text(app)  # in the seats table
            await pilot.click(DataTable, offset=(40, 1))
            await pilot.pause()
            assert app.is_running
        finally:
            await s.aclose()
        await pilot.press("q")
        await pilot.pause()
