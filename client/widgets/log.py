"""The game log and the table chat, interleaved in one scrolling pane.

Log events arrive as data (a message key and its arguments); the screen that owns the pane says
how one reads (``text_of``), in the reader's language. The pane keeps what it showed, so a
language switch (:meth:`GameLog.rerender`) writes every line again in the new language.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual.widgets import RichLog

from client import palette

MAX_LINES = 400
TextOf = Callable[[dict[str, Any]], str]


class GameLog(RichLog):
    """Shows each log event once (events carry their number ``n``) and chat lines as they come.
    It takes no focus: Tab leaves ↑↓ on the hand or the list of choices (issue 26: focus went
    to the log with no sign of it); PgUp/PgDn page it (the table screen's keys)."""

    can_focus = False

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id, wrap=True, markup=False, max_lines=MAX_LINES, min_width=16)
        self._seen = -1
        self._chat_seen = -1
        self._lines: list[dict[str, Any] | Text] = []  # events (data) and chat/notes (text)
        self._text_of: TextOf = lambda event: str(event.get("key", ""))
        self._wrapped_at = 0  # the width the lines were wrapped at

    def on_resize(self) -> None:
        """A narrower or wider pane (the screen's breakpoints): wrap every line again."""
        width = self.scrollable_content_region.width
        if self._wrapped_at and width != self._wrapped_at and self._lines:
            self.rerender()
        self._wrapped_at = width

    def add_events(self, events: list[dict[str, Any]], text_of: TextOf | None = None) -> None:
        """Append the events not shown yet (the view repeats its last few each time), each
        written as ``text_of(event)`` says."""
        if text_of is not None:
            self._text_of = text_of
        for event in events:
            n = event.get("n", -1)
            if isinstance(n, int) and n <= self._seen:
                continue
            self._seen = max(self._seen, n if isinstance(n, int) else self._seen)
            self._keep(event)
            self.write(Text(self._text_of(event)))

    def add_chat(self, sender: str, text: str, channel: str = "table",
                 number: int | None = None) -> None:
        """Append one chat line, marked as chat so it stands apart from the rules' log. A
        numbered line (a table's, which the host resends after a reconnect) shows once."""
        if number is not None:
            if number <= self._chat_seen:
                return
            self._chat_seen = number
        line = Text()
        tag = "» " if channel != "witches" else "☾ "
        line.append(tag, style=palette.style("chat"))
        line.append(f"{sender}: ", style="bold")
        line.append(text)
        self._keep(line)
        self.write(line)

    def add_note(self, text: str, warning: bool = True) -> None:
        """Append a line from the client itself: a warning (a refusal, a lost connection) or,
        with ``warning=False``, news (a replay's check)."""
        # the mark is coloured, the words bold: a wrapped line's rest carries no colour
        line = Text(style="bold")
        line.append("! " if warning else "✓ ", style=palette.style("warning" if warning
                                                                    else "news"))
        line.append(text)
        self._keep(line)
        self.write(line)

    def reset(self) -> None:
        """Forget every line (a replay stepping back starts the pane afresh)."""
        self._seen = -1
        self._lines = []
        self.clear()

    def rerender(self, text_of: TextOf | None = None) -> None:
        """Write every kept line again (the events in the current words)."""
        if text_of is not None:
            self._text_of = text_of
        self.clear()
        for line in self._lines:
            self.write(line if isinstance(line, Text) else Text(self._text_of(line)))

    def _keep(self, line: dict[str, Any] | Text) -> None:
        self._lines.append(line)
        del self._lines[:max(0, len(self._lines) - MAX_LINES)]
