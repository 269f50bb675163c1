"""The chat box: Esc closes it without sending, Enter sends the stripped text and closes it."""

from textual.widgets import DataTable

from client.widgets.chat import ChatInput
from tests.client.harness import ScreenApp


async def test_escape_closes_the_lobby_chat_without_sending_and_gives_back_the_tables() -> None:
    app = ScreenApp("lobby")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("c")
        box = app.screen.query_one(ChatInput)
        assert box.display and box.has_focus
        await pilot.press("h", "i", "escape")
        assert not box.display and box.value == ""
        assert isinstance(app.focused, DataTable)
        assert app.sent == []


async def test_enter_sends_the_table_chat_stripped_and_closes_the_box() -> None:
    app = ScreenApp("your_turn")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("c", "space", "h", "i", "space", "enter")
        await pilot.pause()
        assert app.sent == [{"type": "chat", "text": "hi", "channel": "table"}]
        assert not app.screen.query_one(ChatInput).display
