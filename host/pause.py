"""The host's bots held or slowed at one table (part of the sans-I/O core), by the table's
owner (``bots`` {table, paused, delay}) or by the host's own screen.

Rules kept here:
* only the table's creator (or the player a host-made table was made for, ``hexnet play``) and
  the host may do it, and never at a tournament's table: a tournament's rounds wait for nobody;
* a pause stops the host's bots at that table: none is asked, a thinking bot's answer is
  dropped; the players may still act. It stops the table's clock too — a player who pauses the
  bots to explain a rule or fetch a drink expects the reaction window or turn they were in to
  be there when the game goes on, not closed with everyone's default: the running deadline is
  held with the seconds it had left, a new one (a player acted meanwhile) waits whole; when the
  bots go on again the deadline runs on with what it had left, at least :data:`RESUME_LEAST`
  seconds (time to read the table again), and the bots waited on are asked;
* a slow-down sets the delay before each host bot's move at that table (0 to
  :data:`MAX_BOT_DELAY` seconds; None: the host's ``--bot-delay``);
* both are public: every seat's and watcher's view carries ``bots`` (host/render.py), the
  lobby entry too; each change is one frame to every seat. They are not journaled: a restarted
  host plays on at its own pace.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from host.changes import Changes
from host.conn import Conn
from host.core import LobbyError, Outbox
from host.marks import LobbyMarks
from host.playing import RESUME_LEAST, Play
from host.registry import Registry
from host.table import Table

MAX_BOT_DELAY = 10.0  # seconds a table's owner may make each bot move wait


class BotControl:
    """Pauses and slows the host's bots, table by table."""

    def __init__(self, out: Outbox, registry: Registry, changes: Changes, marks: LobbyMarks,
                 play: Play, clock: Callable[[], float],
                 in_event: Callable[[Table], bool]) -> None:
        self.out = out
        self.registry = registry
        self.changes = changes
        self.marks = marks
        self.play = play
        self.clock = clock
        self.in_event = in_event

    def set(self, table_id: int, paused: bool, delay: float | None,
            by: Conn | None = None) -> None:
        """Hold (``paused``) or free the host's bots at ``table_id`` and set their ``delay``
        (None: the host's); ``by`` the connection asking (None: the host itself)."""
        table = self.registry.get(table_id)
        if by is not None and not table.owned_by(by.identity):
            raise LobbyError("not_owner", "Only the player who created this table (or the "
                                          "host) may pause or slow its bots.")
        if self.in_event(table):
            raise LobbyError("tournament", "A tournament's tables keep their pace: their "
                                           "bots are never paused or slowed.")
        if delay is not None and not (math.isfinite(delay) and 0 <= delay <= MAX_BOT_DELAY):
            raise LobbyError("bad_delay", f"A bot's delay is 0–{MAX_BOT_DELAY:g} seconds.")
        if table.status not in ("open", "playing") or (paused and table.status != "playing"):
            raise LobbyError("not_playing", f"Table {table_id} is not playing.")
        if by is not None and not by.budget.spend("ask"):
            raise LobbyError("asks_too_fast", "Too many requests at once; wait a moment.")
        if paused and not table.bots_paused:
            self._hold(table, by.name if by is not None else "")
        elif table.bots_paused and not paused:
            self._go_on(table)
        table.bot_delay = None if delay is None else float(delay)
        if table.state is not None:
            self.changes.of(table).changed = True  # every seat sees it (view part ``bots``)
        self.marks.changed(table)
        self.out.flush()

    def _hold(self, table: Table, by: str) -> None:
        table.bots_paused, table.bots_paused_by = True, by
        self.play.hold_timer(table)

    def _go_on(self, table: Table) -> None:
        table.bots_paused, table.bots_paused_by = False, ""
        if table.timer_key is not None and table.timer_held is not None:
            self.play.run_timer(table, max(table.timer_held, RESUME_LEAST))
        self.play.ask_bots(table)
