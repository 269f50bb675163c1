"""A table's time limits, switched by its host (part of the sans-I/O core): an option before
the start, a journaled host action during play (so a restarted host and a replay switch them at
the same moment). Games declare the switch as the option ``time_limits`` (Fang)."""

from __future__ import annotations

from host.core import LobbyError, Outbox
from host.marks import LobbyMarks
from host.playing import Play
from host.registry import Registry
from host.table import accepted


class TimeLimits:
    """Reads and switches the time limits of the tables."""

    def __init__(self, out: Outbox, registry: Registry, marks: LobbyMarks, play: Play) -> None:
        self.out = out
        self.registry = registry
        self.marks = marks
        self.play = play

    def of(self, table_id: int) -> bool | None:
        """Whether the table's time limits are on; None if its game has no such switch."""
        table = self.registry.get(table_id)
        if "time_limits" not in table.engine.options_help:
            return None
        if table.state is None:
            return bool(table.options.get("time_limits", False))
        return bool(table.engine.view(table.state, None).get("time_limits"))

    def switch(self, table_id: int, on: bool) -> None:
        """Switch a table's time limits on or off (LobbyError if its game has none, or it is
        over)."""
        table = self.registry.get(table_id)
        if self.of(table_id) is None:
            raise LobbyError("no_option", f"{table.engine.title} has no time limits to switch.")
        if table.status == "open":
            table.options["time_limits"] = on
        elif table.status == "playing":
            action = {"type": "time_limits", "on": on}
            self.out.emit(accepted(table, None, action, table.act(None, action)))
            self.play.advance(table)
        else:
            raise LobbyError("not_playing", f"Table {table_id} is over.")
        self.marks.changed(table)
        self.out.flush()
