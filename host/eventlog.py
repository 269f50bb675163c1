"""The headless host's game log: each table's public events as plain lines, in one language.

A listener on the host's effects (:meth:`host.server.Host.add_listener`): after every change it
words the public events the table's log gained since the last lines it wrote (never a private
one: the host's screen may be in sight of a player), rendered by :func:`hexnet.i18n.render`
in English or the language ``hexnet host --lang`` names.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hexnet.i18n import render
from host.core import Accepted, LobbyError, TableStarted


class EventLog:
    """Calls ``write(lines)`` with ``table N: <event>`` lines after each batch of effects."""

    def __init__(self, state_of: Callable[[int], dict[str, Any] | None],
                 write: Callable[[list[str]], None], lang: str = "en") -> None:
        self.state_of = state_of
        self.write = write
        self.lang = lang
        self.shown: dict[int, int] = {}  # table → log index of the next event to show

    def __call__(self, effects: list[Any]) -> None:
        tables = [e.table for e in effects if isinstance(e, TableStarted | Accepted)]
        lines: list[str] = []
        for table in dict.fromkeys(tables):
            try:
                state = self.state_of(table)
            except LobbyError:  # the table is gone
                continue
            if state is None:
                continue
            log = state["log"]
            if table in self.shown or any(isinstance(e, TableStarted) and e.table == table
                                          for e in effects):
                first = self.shown.get(table, 0)
            else:  # a table recovered from its journal: from this change on
                first = len(log) - sum(len(e.events) for e in effects
                                       if isinstance(e, Accepted) and e.table == table)
            self.shown[table] = len(log)
            lines += [f"table {table}: {render(state['game'], e, state['players'], self.lang)}"
                      for e in log[first:] if "to" not in e]
        if lines:
            self.write(lines)
