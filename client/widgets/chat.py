"""The one-line chat box every screen with a chat uses: hidden until opened, Enter sends,
Esc closes; the screen decides the channel and where the keyboard goes afterwards."""

from __future__ import annotations

from dataclasses import dataclass

from textual.binding import Binding
from textual.message import Message
from textual.widgets import Input

MAX_CHAT = 300


class ChatInput(Input):
    """Posts :class:`ChatInput.Said` with the stripped text (possibly empty) when Enter closes
    it, and :class:`ChatInput.Closed` when Esc does."""

    BINDINGS = [Binding("escape", "close", "Close", show=False)]

    @dataclass
    class Said(Message):
        text: str

    class Closed(Message):
        pass

    def __init__(self, placeholder: str, id: str) -> None:  # noqa: A002 - Textual's name
        super().__init__(placeholder=placeholder, id=id, max_length=MAX_CHAT)

    def on_mount(self) -> None:
        self.display = False

    def open(self) -> None:
        """Show the box and take the keyboard."""
        self.display = True
        self.focus()

    def _hide(self) -> None:
        self.value = ""
        self.display = False

    def action_close(self) -> None:
        self._hide()
        self.post_message(self.Closed())

    async def action_submit(self) -> None:
        text = self.value.strip()[:MAX_CHAT]
        self._hide()
        self.post_message(self.Said(text))
