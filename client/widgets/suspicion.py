"""The suspicion bar: a villager's suspicion on its track to the cap (18).

Drawn with characters, not colour alone, so it reads the same under ``NO_COLOR``: ``█`` up to the
current suspicion, ``▒`` for the part below the stake's floor, ``·`` for the rest.
"""

from __future__ import annotations

from rich.text import Text

CAP = 18


def suspicion_bar(suspicion: int, start: int, cap: int = CAP) -> Text:
    """A ``cap``-cell bar: the stake floor ``start`` shaded, the rise above it solid."""
    suspicion = max(0, min(cap, suspicion))
    start = max(0, min(suspicion, start))
    bar = Text()
    bar.append("▒" * start, style="yellow")
    bar.append("█" * (suspicion - start), style="red" if suspicion >= cap - 3 else "bold yellow")
    bar.append("·" * (cap - suspicion), style="dim")
    return bar
