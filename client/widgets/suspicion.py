"""The suspicion bar: a villager's suspicion on its track to the cap (18).

Drawn with characters, not colour alone, so it reads the same under ``NO_COLOR``: ``█`` up to the
current suspicion, ``▒`` for the part below the stake's floor, ``▓`` instead of ``█`` once it is
3 or less from the top (:data:`DANGER`), ``·`` for the rest; coloured by
:mod:`client.palette`.
"""

from __future__ import annotations

from rich.text import Text

from client import palette

CAP = 18
DANGER = 3  # this close to the top, the bar is drawn ▓ (and coloured as a danger)


def suspicion_bar(suspicion: int, start: int, cap: int = CAP, cells: int | None = None) -> Text:
    """A ``cap``-cell bar: the stake floor ``start`` shaded, the rise above it solid. ``cells``:
    drawn that wide instead (the one-column layout's half, the wide layout's double): a cell
    shows the first point it covers."""
    suspicion = max(0, min(cap, suspicion))
    start = max(0, min(suspicion, start))
    rise = (("▓", palette.style("danger")) if suspicion >= cap - DANGER
            else ("█", palette.style("rise")))
    points = ([("▒", palette.style("floor"))] * start + [rise] * (suspicion - start)
              + [("·", palette.style("rest"))] * (cap - suspicion))
    width = cells or cap
    bar = Text()
    for i in range(width):
        char, style = points[i * cap // width]
        bar.append(char, style=style)
    return bar
