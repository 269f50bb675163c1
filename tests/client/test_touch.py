"""By touch alone (web guests): the dialogs that Esc closes also close with a tap on their hint,
a long list pages with a tap on the ↓/↑ of its hint, the room code joins with a tap on "Enter
join", and the guest's name screen has a button."""

from __future__ import annotations

from textual.app import App
from textual.widgets import Label, OptionList

from client.app import HexnetApp
from client.screens.code import CodeScreen
from client.screens.help import HelpScreen
from client.screens.name import NameScreen
from client.screens.picker import Picker


class Host(App):
    CSS_PATH = HexnetApp.CSS_PATH  # the client's own layout: a long list keeps its hint in view

    def __init__(self) -> None:
        super().__init__()
        self.results: list[object] = []


async def tap_hint(pilot, screen, words: str) -> None:
    """Click the hint label of ``screen`` where ``words`` start."""
    hint = screen.query(".hint").last(Label)
    text = str(hint.render())
    await pilot.click(hint, offset=(text.index(words) + (len(words) > 1), 0))
    await pilot.pause()


async def test_a_tap_on_esc_cancel_closes_a_picker_with_nothing_chosen() -> None:
    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(Picker("Which card?", [("Spende +1", "c1")]), app.results.append)
        await pilot.pause()
        await tap_hint(pilot, app.screen, "Esc cancel")
        assert app.results == [None] and not isinstance(app.screen, Picker)


async def test_a_tap_on_esc_close_closes_the_help() -> None:
    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(HelpScreen("Lobby", [("n", "New")]))
        await pilot.pause()
        await tap_hint(pilot, app.screen, "Esc close")
        assert not isinstance(app.screen, HelpScreen)


async def test_the_name_screen_joins_by_a_tap_on_its_button_and_refuses_a_blank_name() -> None:
    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(NameScreen("127.0.0.1:7878"), app.results.append)
        await pilot.pause()
        await pilot.click("#name-join")
        await pilot.pause()
        assert app.results == [] and "Type a name" in str(
            app.screen.query_one("#name-problem", Label).render())
        await pilot.click("#name-input")  # the first tap moved the focus to the button
        await pilot.press("space", "A", "d", "a", "space")
        await pilot.click("#name-join")
        await pilot.pause()
        assert app.results == ["Ada"]


async def test_taps_on_the_down_arrow_page_a_long_list_to_its_last_entry() -> None:
    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(Picker("Which card?", [(f"card {i}", i) for i in range(60)]),
                        app.results.append)
        await pilot.pause()
        box = app.screen.query_one(OptionList)
        assert box.highlighted == 0 and box.max_scroll_y > 0  # longer than the screen
        for _ in range(60 // box.size.height + 1):
            await tap_hint(pilot, app.screen, "↓")
        assert box.highlighted == 59 and box.scroll_offset.y == box.max_scroll_y
        await tap_hint(pilot, app.screen, "↑")
        assert 0 < box.highlighted < 59
        assert app.results == []  # paging picks nothing


async def test_a_tap_on_enter_join_joins_with_the_code_typed_and_esc_cancel_cancels() -> None:
    app = Host()
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(CodeScreen("127.0.0.1:7878"), app.results.append)
        await pilot.pause()
        await tap_hint(pilot, app.screen, "Enter join")  # nothing typed: nothing happens
        assert app.results == [] and isinstance(app.screen, CodeScreen)
        await pilot.press(*"ABCDE-FGHJK")
        await tap_hint(pilot, app.screen, "Enter join")
        assert app.results == ["ABCDE-FGHJK"]
        app.push_screen(CodeScreen("127.0.0.1:7878"), app.results.append)
        await pilot.pause()
        await tap_hint(pilot, app.screen, "Esc cancel")
        assert app.results == ["ABCDE-FGHJK", None]
