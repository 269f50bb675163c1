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


def suspicion_bar(suspicion: int, start: int, cap: int = CAP) -> Text:
    """A ``cap``-cell bar: the stake floor ``start`` shaded, the rise above it solid."""
    suspicion = max(0, min(cap, suspicion))
    start = max(0, min(suspicion, start))
    bar = Text()
    bar.append("▒" * start, style=palette.style("floor"))
    if suspicion >= cap - DANGER:
        bar.append("▓" * (suspicion - start), style=palette.style("danger"))
    else:
        bar.append("█" * (suspicion - start), style=palette.style("rise"))
    bar.append("·" * (cap - suspicion), style=palette.style("rest"))
    return bar
