"""Large print: at 60×20 (a big font, a zoomed browser) each game's table still shows what a
player needs — every villager, player or cat with its numbers, your hand, the question and its
keys — and no "too small" notice; the suspicion bars give way to their numbers."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

import pytest

from tests.client import hranice_views, views
from tests.client.conftest import screen_text, wait_until
from tests.client.harness import ScreenApp
from tests.client.test_fang_screen import day_view

pytestmark = pytest.mark.usefixtures("frozen_clock")
LARGE = (60, 20)


async def shown(app: ScreenApp, size: tuple[int, int] = LARGE) -> str:
    async with app.run_test(size=size) as pilot:
        await wait_until(pilot, lambda: app.table_screen is not None
                         and app.screen is app.table_screen, 5, "the table")
        await pilot.pause(0.2)
        assert app.too_small_notice is None
        return screen_text(app)


async def test_hexenhammer_at_60x20_shows_every_villager_your_hand_and_the_question() -> None:
    view, _legal = views.your_turn_view()
    text = await shown(ScreenApp("your_turn"))
    rows = text.splitlines()
    for v in view["villagers"]:  # each villager's row with its suspicion, whole
        row = next(r for r in rows if v["id"].capitalize() in r.replace("ö", "o"))
        assert f" {v['suspicion']} " in row, row
    assert "▒" not in text and "█" not in text  # no bars: no room for them
    for card in ("Verleumdung +1", "Falsches Zeugnis +3", "Ableugnung -2"):
        assert f"▶ {card}" in text
    assert "Your turn:" in text and "Inquisition" in text
    assert "score" in text


async def test_hranice_at_60x20_shows_every_player_your_hand_and_the_question() -> None:
    view, _legal = hranice_views.table_view()
    text = await shown(ScreenApp("table", game="hranice", source=hranice_views))
    for name in view["players"][1:]:
        assert name in text
    assert "▶ you" in text
    assert "▶ Žebrák 1" in text and "Pyre 0/3" in text
    assert "Your turn (2 actions left)" in text


async def test_fang_at_60x20_shows_the_whole_village_the_cats_and_the_choices() -> None:
    source: Any = SimpleNamespace(day_view=day_view)
    view, _legal = day_view()
    text = await shown(ScreenApp("day", game="fang", source=source))
    assert "Tonight:" in text and "Witches' spells" in text  # the village's last lines too
    for name in view["players"][1:]:
        assert name in text
    assert "Where do you go today?" in text and "Wald → Pilz" in text


async def test_at_80x24_the_suspicion_bars_are_back() -> None:
    text = await shown(ScreenApp("your_turn"), (80, 24))
    assert "▒" in text and "█" in text and "Suspicion ▒stake" in text


async def test_the_suspicion_bars_are_drawn_for_the_game_areas_width_as_laid_out() -> None:
    """The game area's width changes a layout after the terminal's size (the screen's
    breakpoint classes narrow the side pane then): the bars follow the width laid out, whatever
    changed it — here a wider side pane leaves 43 columns, room for the half bar only."""
    app = ScreenApp("your_turn")

    def bar() -> str:
        row = next(r for r in screen_text(app).splitlines() if "Katharina" in r)
        found = re.search("[▒█▓·]+", row)
        return found.group() if found else ""

    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: app.screen is app.table_screen and len(bar()) == 18,
                         5, lambda: f"the 18-cell bar, not {bar()!r}")
        app.table_screen.query_one("#side").styles.width = 36
        await wait_until(pilot, lambda: len(bar()) == 9, 5,
                         lambda: f"the 9-cell bar, not {bar()!r}")
