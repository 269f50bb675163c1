"""What the plain client's desks (:mod:`client.plain.lobby`, :mod:`client.plain.table`) may ask
of the front that owns them (:class:`client.plain.front.PlainClient`): saying lines, asking a
numbered question, running work beside the loop and sending to the host. A protocol, so the
desks need not import the front that imports them."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Protocol


class Front(Protocol):
    games: list[str]
    watchers: dict[int, list[str]]

    def say(self, *lines: str) -> None: ...

    def ask_choice(self, title: str, options: list[tuple[str, Any]],
                   then: Callable[[Any], None]) -> None: ...

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None: ...

    def later(self, seconds: float, make: Callable[[], Awaitable[Any]]) -> None: ...

    def standings(self) -> None: ...

    def fair_play_text(self, table: int) -> str | None: ...

    def secret_step_open(self, table: int) -> bool: ...

    async def send(self, msg: dict[str, Any]) -> None: ...

    async def chat(self, text: str, channel: str) -> None: ...

    async def watch(self, table: int) -> None: ...

    async def look(self, on: bool) -> None: ...
