"""Which layout the client's screens take, from the terminal's size.

* ``narrow`` — fewer than :data:`LARGE` columns (60): one column, made for a phone held
  upright (about 40–50 columns at 14–16 px): the hand and the choices as rows three cells
  tall, the table's parts as pages behind tabs, the keys as tiles (each at least 44 CSS px
  tall in a browser).
* ``normal`` — from 60×20 up to :data:`WIDE_FROM` columns: the table beside its side pane, as
  the client was made; below 80×24 (a big font, a zoomed browser) the table screens draw it for
  large print themselves (their ``-large-print`` class: a narrower side pane, no suspicion
  bars, :mod:`client.screens.table_base`).
* ``wide`` — from :data:`WIDE_FROM` columns and :data:`WIDE_ROWS` rows: the board and the log
  share the room, and the cards at stake get a pane of their own.

The app carries the layout's name as a CSS class (``narrow``, ``wide``; none for ``normal``),
so each style sheet says what changes under ``.narrow …`` / ``.wide …`` and nothing else moves.
Below :data:`SMALLEST` the client says the terminal is too small.
"""

from __future__ import annotations

from typing import Literal

Layout = Literal["narrow", "normal", "wide"]
SMALLEST = (40, 20)  # the one-column layout's least
LARGE = (60, 20)  # the side-by-side layout's least (large print: 60–79 columns or 20–23 rows)
WHOLE = (80, 24)  # the side-by-side layout as made
WIDE_FROM, WIDE_ROWS = 110, 30
CLASSES: dict[Layout, str] = {"narrow": "narrow", "normal": "", "wide": "wide"}


def layout_for(width: int, height: int) -> Layout:
    """The layout of a ``width``×``height`` terminal."""
    if width < LARGE[0]:
        return "narrow"
    if width >= WIDE_FROM and height >= WIDE_ROWS:
        return "wide"
    return "normal"


def too_small(width: int, height: int) -> bool:
    """Whether not even the one-column layout fits."""
    return width < SMALLEST[0] or height < SMALLEST[1]
