"""A dialog's key hint ("Enter pick · Esc cancel") that a tap also carries out: web guests have
a finger, not an Esc key."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.widgets import Label


def tap_hint(text: str, action: str) -> Label:
    """A ``hint`` label showing ``text`` literally; a click on it runs ``action`` (e.g.
    ``screen.cancel``)."""
    return Label(Text(text, style=Style.from_meta({"@click": action})), classes="hint")
