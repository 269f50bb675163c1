"""The client of ``hexnet replay JOURNAL``: the hexnet app with one screen, the replay, and no
host. Help (``?``), the language (F2, Ctrl+P) and the styles are the client's own; closing the
replay (Esc) ends the program."""

from __future__ import annotations

from typing import Any

from client.app import HexnetApp
from client.replay.screen import DEFAULT_SPEED, replay_screen
from hexnet.i18n import _
from hexnet.replay import Replay


class ReplayApp(HexnetApp):
    """Shows ``replay`` (checked: ``verdict`` says how) until the viewer closes it."""

    def __init__(self, replay: Replay, verdict: str = "", speed: float = DEFAULT_SPEED,
                 lang: str | None = None) -> None:
        super().__init__(lang=lang)
        self.replay = replay
        self.replay_view = replay_screen(replay, verdict, speed=speed)

    def begin(self) -> None:
        """No host to find: the replay is the first screen; closing it ends the app."""
        self.push_screen(self.replay_view, callback=lambda _result: self.exit())

    def back_to_lobby(self) -> None:
        """There is no lobby: back to the replay (from its results)."""
        while self.screen is not self.replay_view and len(self.screen_stack) > 2:
            self.pop_screen()

    async def send(self, msg: dict[str, Any]) -> None:
        self.notify(_("This is a replay: nothing is sent."), severity="warning")
