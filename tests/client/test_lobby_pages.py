"""A lobby of hundreds of tables is shown a page at a time (issue 10)."""

from __future__ import annotations

from textual.widgets import DataTable

from client.screens.lobby import PAGE
from tests.client.harness import LOBBY, ScreenApp


def many_tables(n: int, you: int | None = None) -> dict:
    entry = LOBBY["tables"][1]
    return {"type": "lobby", "tables": [{**entry, "id": i} for i in range(1, n + 1)],
            "you": {"name": "Ada", "table": you, "seat": 0 if you else None, "open": True}}


async def test_the_lobby_lists_one_page_of_tables_and_pages_with_brackets() -> None:
    app = ScreenApp("lobby")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.lobby_screen
        screen.update_lobby(many_tables(45))
        await pilot.pause()
        rows = screen.query_one(DataTable)
        assert rows.row_count == PAGE and screen.selected_table() == 1
        assert "page 1/3" in str(screen.query_one("#lobby-you").render())
        await pilot.press("right_square_bracket")
        await pilot.press("right_square_bracket")
        assert rows.row_count == 45 - 2 * PAGE and screen.selected_table() == 2 * PAGE + 1
        await pilot.press("right_square_bracket")  # no page past the last
        assert "page 3/3" in str(screen.query_one("#lobby-you").render())
        await pilot.press("pageup")
        assert screen.selected_table() == PAGE + 1


async def test_sitting_at_a_table_shows_its_page() -> None:
    app = ScreenApp("lobby")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.lobby_screen.update_lobby(many_tables(70, you=55))
        await pilot.pause()
        assert "page 3/4" in str(app.lobby_screen.query_one("#lobby-you").render())


async def tap_action(pilot, widget, action: str) -> None:
    """A tap on the first cell of ``widget`` that a tap on runs ``action``."""
    region = widget.region
    cells = [(x, y) for y in range(region.y, region.bottom) for x in range(region.x, region.right)
             if pilot.app.screen.get_style_at(x, y).meta.get("@click") == action]
    assert cells, f"nothing in {widget} to tap for {action}"
    await pilot.click(offset=cells[0])
    await pilot.pause()


async def test_by_touch_a_tap_on_a_page_bracket_pages_and_on_w_watch_it_watches() -> None:
    app = ScreenApp("lobby")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = app.lobby_screen
        screen.update_lobby(many_tables(45))
        await pilot.pause()
        line = screen.query_one("#lobby-you")
        await tap_action(pilot, line, "screen.page(1)")
        assert "page 2/3" in str(line.render()) and screen.selected_table() == PAGE + 1
        await tap_action(pilot, line, "screen.page(-1)")
        assert "page 1/3" in str(line.render())
        await tap_action(pilot, line, "screen.tap_key('w')")
        assert app.sent == [{"type": "watch", "table": 1}]


async def test_at_80_columns_a_tables_options_wrap_and_every_seat_stays_on_screen() -> None:
    """Seen in tmux (issue 14, items 3 and 8): a table created with a pace read "Hexenhammer
    (pace relaxed, panic_seconds 90, reaction_seconds 20)" and pushed the status and seats
    columns off an 80-column lobby."""
    import copy

    from tests.client.conftest import screen_text

    lobby = copy.deepcopy(LOBBY)
    lobby["tables"][1]["options"] = {"pace": "relaxed", "panic_seconds": 90,
                                     "reaction_seconds": 20}
    lobby["tables"][1]["seats"][1] = {"seat": 1, "name": "Bartholomew", "kind": "human",
                                      "connected": True, "absent": False}
    app = ScreenApp("lobby")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.lobby_screen.update_lobby(lobby)
        await pilot.pause(0.3)
        text = screen_text(app)
    assert all(len(line) <= 80 for line in text.splitlines())
    flat = " ".join(text.split())
    assert "4/4 Ada, bot-1, Cora?, bot-3" in flat and "2/3 Eve, Bartholomew, —" in flat
    assert "playing" in flat and "open" in flat
    assert "reaction window 20 s)" in flat  # the options wrap; nothing is cut
