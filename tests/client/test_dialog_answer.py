"""A flow waiting for a dialog's answer may be cancelled at any moment (a newer pick flow of the
same group replaces it: a second card chosen while the first one's list is open) — and the app
must go on. Found under fast keys in a real terminal: ``hexnet play`` exited 0 in the middle of a
game, without a word, when a flow was cancelled while the list of the flow before it was still
being taken away (Textual's ``push_screen_wait`` ran that removal in the cancelled worker, and the
cancellation reached the app's own task). :func:`client.screens.dialog.answer` is the wait every
flow uses."""

from __future__ import annotations

import asyncio
import contextlib
import re
from pathlib import Path
from typing import Any

from textual import work
from textual.app import App, ComposeResult
from textual.widgets import Static

from client.screens.dialog import answer
from client.screens.picker import Picker
from tests.waiting import eventually

CLIENT = Path(__file__).resolve().parents[2] / "client"


class SlowToGo(Static):
    """A widget that takes its time to leave (as a busy terminal's would): its removal waits
    until the test lets it go."""

    def __init__(self, hold: bool) -> None:
        super().__init__("…")
        self.leaving = asyncio.Event()
        self.let_go = asyncio.Event()
        if not hold:
            self.let_go.set()

    async def on_unmount(self) -> None:
        self.leaving.set()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.let_go.wait(), 10)


class SlowPicker(Picker):
    def __init__(self, title: str, choices: list[tuple[str, Any]], hold: bool) -> None:
        super().__init__(title, choices)
        self.hold = hold

    def compose(self) -> ComposeResult:
        yield from super().compose()
        yield SlowToGo(self.hold)


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
        picker = SlowPicker(f"Flow {n}", [(f"card {n}", n)], hold=n == 1)
        try:
            self.answers.append(await answer(self, picker))
        finally:
            picker.close(None)


async def test_a_flow_cancelled_while_the_list_before_it_is_taken_away_leaves_the_app_running(
        ) -> None:
    app = Flows()

    def title() -> str:
        return str(app.screen.query_one("#picker-title").render())

    async with app.run_test(size=(80, 24)) as pilot:
        app.flow(1)
        await eventually(lambda: isinstance(app.screen, SlowPicker) and app.screen.query(
            "#picker-title") and title() == "Flow 1", "flow 1's list")
        first = app.screen.query_one(SlowToGo)
        app.flow(2)  # cancels flow 1, whose list starts going (and is held going)
        await eventually(first.leaving.is_set, "flow 1's list leaving")
        app.flow(3)  # cancels flow 2 while flow 1's list is still going
        await eventually(lambda: not app.is_running or all(  # flow 3 alone is left
            w.is_running == (w.description == "flow(3)") for w in app.workers
            if w.name == "flow"), "flow 2 cancelled")
        first.let_go.set()
        await eventually(lambda: not app.is_running or (
            [type(s).__name__ for s in app.screen_stack] == ["Screen", "SlowPicker"]
            and app.screen.query("#picker-title") and title() == "Flow 3"), "flow 3's list")
        assert app.is_running
        assert title() == "Flow 3"
        await pilot.press("enter")  # flow 3 still answers
        await eventually(lambda: app.answers, "flow 3's answer")
        assert app.answers == [3]
        await eventually(lambda: len(app.screen_stack) == 1, "flow 3's list gone")


def test_no_client_flow_waits_through_push_screen_wait() -> None:
    """Every dialog's answer is awaited through :func:`client.screens.dialog.answer`."""
    found = [f"{path.relative_to(CLIENT)}:{n}"
             for path in sorted(CLIENT.rglob("*.py"))
             for n, line in enumerate(path.read_text().splitlines(), 1)
             if re.search(r"\.push_screen_wait\(", line)]
    assert found == []
