"""The game log and the table chat, interleaved in one scrolling pane."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widgets import RichLog


class GameLog(RichLog):
    """Shows each log event once (events carry their number ``n``) and chat lines as they come."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, wrap=True, markup=False, max_lines=400, min_width=16)
        self._seen = -1

    def add_events(self, events: list[dict[str, Any]]) -> None:
        """Append the events not shown yet (the view repeats its last few each time)."""
        for event in events:
            n = event.get("n", -1)
            if isinstance(n, int) and n <= self._seen:
                continue
            self._seen = max(self._seen, n if isinstance(n, int) else self._seen)
            self.write(Text(str(event.get("text", ""))))

    def add_chat(self, sender: str, text: str, channel: str = "table") -> None:
        """Append one chat line, marked as chat so it stands apart from the rules' log."""
        line = Text()
        tag = "» " if channel != "witches" else "☾ "
        line.append(f"{tag}{sender}: ", style="bold cyan")
        line.append(text)
        self.write(line)

    def add_note(self, text: str) -> None:
        """Append a line from the client itself (a refusal, a lost connection)."""
        self.write(Text(f"! {text}", style="bold red"))
