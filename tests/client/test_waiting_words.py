"""What the table says while nobody is waited on (issue 26, item 5): it said "Waiting for
nobody…" (and "waiting: nobody" in the status line) while the game moved on by itself."""

from __future__ import annotations

import sys
from typing import Any

import pytest

from tests.client import views
from tests.client.conftest import screen_text, wait_until
from tests.client.harness import ScreenApp


def moving_view() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A real view of a table that waits for nobody (the host applies the next step)."""
    view, _legal = views.your_turn_view()
    return {**view, "active": []}, []


@pytest.mark.parametrize("lang,said", [("en", "The game moves on…"),
                                       ("hu", "A játék halad tovább…")])
async def test_a_table_waiting_for_nobody_says_the_game_moves_on(lang: str, said: str) -> None:
    app = ScreenApp("moving", "hexenhammer", sys.modules[__name__], show_lobby=False, lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: app.table_screen is not None
                         and app.screen is app.table_screen, what="the table")
        await pilot.pause()
        text = screen_text(app)
        assert said in text, text
        assert "nobody" not in text and "senki" not in text, text
