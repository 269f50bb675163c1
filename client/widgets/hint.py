"""A dialog's key hint ("Enter pick · Esc cancel") that a tap also carries out: web guests have
a finger, not an Esc key; and a screen's line of key hints ("n: new table, w: watch it") whose
every clause a tap carries out."""

from __future__ import annotations

import re

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


# "w: watch it" in a line of hints: a one-letter key, a colon, what it does (to a comma, a dash,
# a dot or a bracket)
KEY_CLAUSE = re.compile(r"(?<![\w\[])([a-z]): [^,—·(]+")


def tap_keys(text: str, parts: dict[str, str] | None = None) -> Text:
    """``text`` (a line of hints) whose every ``k: what it does`` clause a tap on which runs
    ``screen.tap_key('k')``, as pressing ``k`` would; each of ``parts``' substrings (its last
    occurrence: the hints end the line, a player's name may come before) runs its own
    action."""
    shown = Text(text)
    for clause in KEY_CLAUSE.finditer(text):
        shown.stylize(Style.from_meta({"@click": f"screen.tap_key({clause.group(1)!r})"}),
                      clause.start(), clause.end())
    for part, own in (parts or {}).items():
        start = text.rfind(part) if part else -1
        if start >= 0:
            shown.stylize(Style.from_meta({"@click": own}), start, start + len(part))
    return shown
