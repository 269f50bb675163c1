"""The client's screens, and the registry game → table screen.

One screen module per game; a game without its own screen gets the generic :class:`TableScreen`,
which lists the legal actions (so every game is playable by keyboard from day one).
"""

from __future__ import annotations

from client.lazy import load
from client.screens.table_base import TableScreen

TABLE_SCREENS: dict[str, str] = {
    "hexenhammer": "client.screens.hexenhammer:HexenhammerScreen",
    "fang": "client.screens.fang:FangScreen",
    "hranice": "client.screens.hranice:HraniceScreen",
}


def table_screen_for(game: str) -> type[TableScreen]:
    """The table screen class registered for ``game`` (the generic one if none is)."""
    target = TABLE_SCREENS.get(game)
    if target is None:
        return TableScreen
    return load(target)
