"""An app showing one screen from a fixed view, without a host: for snapshots and for looking.

Run ``python -m tests.client.harness [your_turn|reaction|over|lobby] [en|hu|de|cs]`` to see it in a
terminal.
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import Any

from client.app import HexnetApp
from client.screens import table_screen_for
from tests.client import views

LOBBY = {
    "type": "lobby",
    "tables": [
        {"id": 1, "game": "hexenhammer", "title": "Hexenhammer", "status": "playing",
         "seats_total": 4, "seats": [
             {"seat": 0, "name": "Ada", "kind": "human", "connected": True, "absent": False},
             {"seat": 1, "name": "bot-1", "kind": "bot", "connected": True, "absent": False},
             {"seat": 2, "name": "Cora", "kind": "human", "connected": False, "absent": False},
             {"seat": 3, "name": "bot-3", "kind": "bot", "connected": True, "absent": False}]},
        {"id": 2, "game": "hexenhammer", "title": "Hexenhammer", "status": "open",
         "seats_total": 3, "seats": [
             {"seat": 0, "name": "Eve", "kind": "human", "connected": True, "absent": False},
             {"seat": 1, "name": "", "kind": "empty", "connected": False, "absent": False},
             {"seat": 2, "name": "", "kind": "empty", "connected": False, "absent": False}]},
    ],
    "you": {"name": "Ada", "table": None, "seat": None, "open": True},
}


class ScreenApp(HexnetApp):
    """Shows ``what`` (a view name from ``source``, or ``lobby``) at a ``game`` table over the
    lobby (filled in with ``LOBBY`` when ``show_lobby``); records what it would send."""

    def __init__(self, what: str, game: str = "hexenhammer", source: ModuleType = views,
                 show_lobby: bool = True, lang: str = "en") -> None:
        super().__init__(target=None, name="Ada", lang=lang)
        self.what, self.game, self.source, self.show_lobby = what, game, source, show_lobby
        self.sent: list[dict[str, Any]] = []

    def begin(self) -> None:
        self.push_screen(self.lobby_screen)
        if self.show_lobby:
            self.lobby_screen.set_connection("Hexhaus · key ABCD-EFGH-IJKL-MNOP · you are Ada")
            self.lobby_screen.update_lobby(LOBBY)
        if self.what == "lobby":
            return
        view, legal = getattr(self.source, f"{self.what}_view")()
        self.views[1] = (view, legal)
        self._opened.add(1)
        screen = table_screen_for(self.game)(1)
        screen.update_view(view, legal)
        self.table_screen = screen
        self.push_screen(screen)

    async def send(self, msg: dict[str, Any]) -> None:
        self.sent.append(msg)


if __name__ == "__main__":
    ScreenApp(sys.argv[1] if len(sys.argv) > 1 else "your_turn",
              lang=sys.argv[2] if len(sys.argv) > 2 else "en").run()
