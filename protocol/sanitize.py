"""Player-provided strings (names, chat) made safe to store, relay and show.

What goes: ANSI/VT escape sequences (CSI ``ESC [ … final``, OSC ``ESC ] … BEL/ST``, other
``ESC x``), every C0/C1 control and DEL, bidi embeddings/overrides/isolates and marks (U+202A–202E,
U+2066–2069, U+200E/200F, U+061C) and every other format (Cf), surrogate, private-use or
unassigned character — except ZERO WIDTH (NON-)JOINER, which emoji and some scripts need. Line and
paragraph separators and runs of whitespace become one space. Lengths count what is left.

Textual/Rich markup (``[bold]``, ``[@click=…]``) is NOT removed here: it is ordinary text; clients
must render every player string literally (``rich.text.Text``, ``markup=False``).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

NAME_MAX = 24
TEXT_MAX = 300

# CSI (7-bit ESC [ and 8-bit U+009B) … final byte; OSC/DCS/PM/APC … BEL or ST; ESC + one char
_ANSI = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?"
    r"|(?:\x1b[\]P^_]|[\x90\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|\x1b[ -~]?")
BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
_KEEP_FORMAT = frozenset("\u200c\u200d")


def _char_ok(c: str) -> bool:
    if c in _KEEP_FORMAT:
        return True
    return unicodedata.category(c)[0] != "C"  # Cc Cf Cs Co Cn (bidi marks are Cf)


def strip_unsafe(text: str) -> str:
    """``text`` without escape sequences and control/format characters (whitespace controls
    such as newline and tab become spaces)."""
    text = _ANSI.sub("", text)
    return "".join(c if _char_ok(c) else (" " if c.isspace() else "") for c in text)


def clean_name(name: str, limit: int = NAME_MAX) -> str:
    """A player name: safe characters only, whitespace collapsed, ≤ ``limit``; "player" if
    nothing is left."""
    return " ".join(strip_unsafe(name).split())[:limit].strip() or "player"


def clean_text(text: str, limit: int = TEXT_MAX) -> str:
    """A chat line: safe characters only, one line, trimmed, ≤ ``limit`` (may be empty)."""
    return " ".join(strip_unsafe(text).split())[:limit].strip()


def is_clean(text: str) -> bool:
    """Whether ``text`` holds nothing :func:`strip_unsafe` would remove."""
    return not _ANSI.search(text) and all(_char_ok(c) for c in text)


_TERMINAL_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f" + "".join(sorted(BIDI)) + "]")


def terminal_safe(obj: Any) -> Any:
    """``obj`` (a decoded message tree) with every string value made harmless for a terminal:
    escape sequences, controls other than newline and tab, and bidi controls removed. Clean
    strings (all a well-behaved host sends) come back unchanged; map keys are kept."""
    if isinstance(obj, str):
        if _TERMINAL_UNSAFE.search(obj) is None:
            return obj
        return _TERMINAL_UNSAFE.sub("", _ANSI.sub("", obj))
    if isinstance(obj, dict):
        return {k: terminal_safe(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [terminal_safe(v) for v in obj]
    return obj
