"""The layouts by terminal size (client/layout.py) at each game's table: one column at 45×30
(a phone upright: pages behind tabs, rows and keys three cells tall), the room used at 120×40
(the board and the log grow, the cards at stake get a pane); below 40×20 too small."""

from __future__ import annotations

import pytest
from textual.widgets._footer import FooterKey

from client.widgets.cards import CardList
from client.widgets.pages import PageTab
from tests.client import hranice_views, test_fang_screen, views
from tests.client.conftest import screen_text, wait_until
from tests.client.harness import ScreenApp

FINGER_ROWS = 3  # 3 rows of a 14–16 px font: ≥ 44 CSS px

# (game, views module, the view's name, a word only its board page shows)
TABLES = [("hexenhammer", views, "your_turn", "Suspicion"),
          ("hranice", hranice_views, "table", "Council"),
          ("fang", test_fang_screen, "day", "Curse")]


async def opened(pilot, app: ScreenApp):
    screen = await wait_until(pilot, lambda: getattr(app.screen, "view", None) and app.screen,
                              5, "the table")
    await pilot.pause(0.3)
    return screen


@pytest.fixture(params=TABLES, ids=[t[0] for t in TABLES])
def table(request: pytest.FixtureRequest) -> tuple[ScreenApp, str]:
    """Each game's table screen from a fixed view, and a word only its game area shows."""
    game, source, what, board_word = request.param
    return ScreenApp(what, game=game, source=source), board_word


async def test_a_table_at_45_columns_is_one_column_of_pages_with_finger_sized_rows_and_keys(
        table: tuple[ScreenApp, str]) -> None:
    app, board_word = table
    async with app.run_test(size=(45, 30)) as pilot:
        screen = await opened(pilot, app)
        assert app.has_class("narrow") and app.too_small_notice is None
        tabs = list(screen.query(PageTab))
        assert [t.region.height for t in tabs] == [FINGER_ROWS] * 3
        assert all(t.region.width >= 13 for t in tabs)
        def tiles() -> list[FooterKey]:
            keys = [k for k in screen.query(FooterKey) if k.display]
            return keys if keys and all(k.region.height == FINGER_ROWS for k in keys) else []

        keys = await wait_until(pilot, tiles, 5, "the keys as tiles three cells tall")
        assert all(k.region.right <= 45 for k in keys), "a key tile off the screen"
        first = screen.PAGES[0][0]
        for page, _label in screen.PAGES:  # each page by its tab, shown alone
            tab = next(t for t in tabs if t.page == page)
            await pilot.click(tab)
            await pilot.pause(0.2)
            assert screen.page == page, (tab.region, tab.page, [t.region for t in tabs])
            shown = {name: screen.query_one(sel).display and screen.query_one(sel).region.height
                     > 0 for name, sel in (("game", "#game-area"), ("log", "#log"))}
            assert shown["game"] == (page == "game"), (page, shown)
            assert shown["log"] == (page == "log"), (page, shown)
        await pilot.press("right")  # ← → step through the pages too (round: last → first)
        await pilot.pause(0.2)
        assert screen.page == first
        await pilot.press("left")
        await pilot.pause(0.2)
        assert screen.page == "log"
        await pilot.click(next(t for t in tabs if t.page == "game"))
        await pilot.pause(0.2)
        assert board_word in screen_text(app)  # (read last: a capture spoils later clicks)
        if first == "side" and screen.query(CardList):
            await pilot.click(next(t for t in tabs if t.page == "side"))
            await pilot.pause(0.2)
            hand = screen.query_one(CardList)
            heights = [hand._line_cache.heights[i] for i in range(hand.option_count)]
            assert heights and all(h >= FINGER_ROWS for h in heights), heights


async def test_a_table_at_120_columns_gives_the_board_and_the_log_the_room(
        table: tuple[ScreenApp, str]) -> None:
    app, board_word = table
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, app)
        assert app.has_class("wide") and not app.has_class("narrow")
        side, area = screen.query_one("#side"), screen.query_one("#game-area")
        assert side.region.width >= 48, side.region  # was 34 (33 for the log)
        assert area.region.width + side.region.width == 120
        assert not screen.query(PageTab).first().display or \
            screen.query_one("#pages").region.height == 0
        text = screen_text(app)
        assert board_word in text


async def test_hexenhammer_at_120_columns_draws_the_bar_double_and_the_card_at_stake() -> None:
    app = ScreenApp("reaction")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, app)
        text = screen_text(app)
        karl = next(line for line in text.splitlines() if " Karl " in line)
        assert "▒▒▒▒▒▒████████" in karl  # 7 suspicion on a floor of 3, two cells a point
        stake = str(screen.query_one("#at-stake").render())
        assert stake.startswith("At stake: Bela: Falsches Zeugnis +3, Heinbichl accuses Karl")
        # the card's rule text with its value filled in (it read "gains {value} suspicion")
        assert "  Brown, phases 1-3: the accused gains 3 suspicion." in stake.splitlines()
        assert "★ Gegenanklage: Reaction" in stake
        assert screen.query_one("#at-stake").region.height >= 4


@pytest.mark.parametrize("size", [(39, 30), (60, 19)])
async def test_a_terminal_below_40x20_says_it_is_too_small(size: tuple[int, int]) -> None:
    app = ScreenApp("your_turn")
    async with app.run_test(size=size) as pilot:
        await wait_until(pilot, lambda: app.too_small_notice, 3, "the notice")
        assert f"This terminal is {size[0]}×{size[1]}" in app.too_small_notice
        assert "at least 40×20" in app.too_small_notice


@pytest.mark.parametrize(("size", "narrow"), [((45, 30), True), ((59, 24), True),
                                               ((70, 24), False), ((80, 20), False)])
async def test_a_terminal_of_40x20_or_more_plays_without_a_too_small_notice(
        size: tuple[int, int], narrow: bool) -> None:
    """Below 60 columns the one-column layout; from 60×20 the table beside its side pane (in
    large print below 80×24: tests/client/test_large_print.py)."""
    app = ScreenApp("your_turn")
    async with app.run_test(size=size) as pilot:
        await pilot.pause(0.3)
        assert app.too_small_notice is None
        assert app.has_class("narrow") is narrow

