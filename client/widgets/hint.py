"""A dialog's key hint ("Enter pick · Esc cancel") that a tap also carries out: web guests have
a finger, not an Esc key."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.widgets import Label


def tap_hint(text: str, action: str, parts: dict[str, str] | None = None) -> Label:
    """A ``hint`` label showing ``text`` literally; a click on it runs ``action`` (e.g.
    ``screen.cancel``), except on the first occurrence of each of ``parts``' substrings, which
    runs that part's own action (``{"↓": "screen.page(1)"}``; a part not in ``text``, e.g. in
    a translation that words it otherwise, is left to ``action``)."""
    shown = Text(text, style=Style.from_meta({"@click": action}))
    for part, own in (parts or {}).items():
        start = text.find(part) if part else -1
        if start >= 0:
            shown.stylize(Style.from_meta({"@click": own}), start, start + len(part))
    return Label(shown, classes="hint")
