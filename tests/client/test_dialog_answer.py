"""A flow waiting for a dialog's answer may be cancelled at any moment (a newer pick flow of the
same group replaces it: a second card chosen while the first one's list is open) — and the app
must go on. Found under fast keys in a real terminal: ``hexnet play`` exited 0 in the middle of a
game, without a word, when a flow was cancelled while the list of the flow before it was still
being taken away (Textual's ``push_screen_wait`` ran that removal in the cancelled worker, and the
cancellation reached the app's own task). :func:`client.screens.dialog.answer` is the wait every
flow uses."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

from textual import work
from textual.app import App, ComposeResult
from textual.widgets import Static

from client.screens.dialog import answer
from client.screens.picker import Picker

CLIENT = Path(__file__).resolve().parents[2] / "client"


class SlowToGo(Static):
    """A widget that takes a moment to leave (as a busy terminal's would)."""

    async def on_unmount(self) -> None:
        await asyncio.sleep(0.3)


class SlowPicker(Picker):
    def compose(self) -> ComposeResult:
        yield from super().compose()
        yield SlowToGo("…")


class Flows(App[None]):
    """Pick flows as the table runs them: one at a time, a new one cancelling the last, each
    taking its list away when it ends."""

    def __init__(self) -> None:
        super().__init__()
        self.answers: list[Any] = []

    def compose(self) -> ComposeResult:
        yield Static("the table")

    @work(exclusive=True, group="pick")
    async def flow(self, n: int) -> None:
        picker = SlowPicker(f"Flow {n}", [(f"card {n}", n)])
        try:
            self.answers.append(await answer(self, picker))
        finally:
            picker.close(None)


async def test_a_flow_cancelled_while_the_list_before_it_is_taken_away_leaves_the_app_running(
        ) -> None:
    app = Flows()
    async with app.run_test(size=(80, 24)) as pilot:
        app.flow(1)
        await asyncio.sleep(0.2)  # flow 1's list is up
        app.flow(2)  # cancels flow 1, whose list starts going (slowly)
        await asyncio.sleep(0.1)
        app.flow(3)  # cancels flow 2 while flow 1's list is still going
        await asyncio.sleep(1.0)
        assert app.is_running
        assert [type(s).__name__ for s in app.screen_stack] == ["Screen", "SlowPicker"]
        assert str(app.screen.query_one("#picker-title").render()) == "Flow 3"
        await pilot.press("enter")  # flow 3 still answers
        await pilot.pause(0.5)
        assert app.answers == [3]
        assert [type(s).__name__ for s in app.screen_stack] == ["Screen"]


def test_no_client_flow_waits_through_push_screen_wait() -> None:
    """Every dialog's answer is awaited through :func:`client.screens.dialog.answer`."""
    found = [f"{path.relative_to(CLIENT)}:{n}"
             for path in sorted(CLIENT.rglob("*.py"))
             for n, line in enumerate(path.read_text().splitlines(), 1)
             if re.search(r"\.push_screen_wait\(", line)]
    assert found == []
