"""The tabs of the one-column layout (:mod:`client.layout`): a table's parts — the hand, the
board, the log — are pages, and a tab (three cells tall: a finger's size) shows one."""

from __future__ import annotations

from dataclasses import dataclass

from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Static


class PageTab(Static):
    """One tab: its page's name; a tap shows the page."""

    def __init__(self, page: str, label: str) -> None:
        super().__init__(label, markup=False, classes="page-tab")
        self.page = page

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(PageTabs.Chosen(self.page))


class PageTabs(Horizontal):
    """A row of tabs, the current one in bold reverse (it reads without colour)."""

    current: reactive[str] = reactive("")

    @dataclass
    class Chosen(Message):
        """A tab was tapped."""

        page: str

    def __init__(self, pages: list[tuple[str, str]], *, id: str | None = None) -> None:  # noqa: A002
        super().__init__(id=id)
        self.pages = pages

    def compose(self) -> ComposeResult:
        for page, label in self.pages:
            yield PageTab(page, label)

    def watch_current(self, page: str) -> None:
        for tab in self.query(PageTab):
            tab.set_class(tab.page == page, "-current")
