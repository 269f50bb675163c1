"""Players' names in narrow columns: cut to fit, and never cut into the same word.

A column of 7 or 9 cells cuts "host bot 1" and "host bot 2" alike ("host bot…"); a cut that
would make two seats read the same keeps the names' ends instead ("host bo…1", "host bo…2"):
who is who stays readable at 80×24.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len

ELLIPSIS = "…"


def _head(name: str, cells: int) -> str:
    """The start of ``name`` that fits ``cells`` cells."""
    out = ""
    for ch in name:
        if cell_len(out + ch) > cells:
            break
        out += ch
    return out


def _tail(name: str, cells: int) -> str:
    """The end of ``name`` that fits ``cells`` cells."""
    return _head(name[::-1], cells)[::-1]


def cut(name: str, width: int) -> str:
    """``name`` in at most ``width`` cells, ``…`` where it was cut."""
    if cell_len(name) <= width:
        return name
    return _head(name, width - 1) + ELLIPSIS


def fit(names: Sequence[str], width: int) -> list[str]:
    """Each name in at most ``width`` cells; names that differ stay different where the cells
    allow it (the cut moves into the middle, keeping as much of the end as tells them apart)."""
    out = [cut(n, width) for n in names]
    for i, name in enumerate(names):
        clash = [j for j, other in enumerate(names) if out[j] == out[i] and other != name]
        if not clash or out[i] == name:
            continue
        for keep in range(1, width - 1):
            shown = {j: _head(names[j], width - 1 - keep) + ELLIPSIS + _tail(names[j], keep)
                     for j in (i, *clash)}
            if len(set(shown.values())) == len(shown):
                for j, text in shown.items():
                    out[j] = text
                break
    return out
