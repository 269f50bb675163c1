"""What the host's asyncio shell does with the core's effects, done by hand for the sans-I/O
tests: host bots' turns, secret steps' ticks (:class:`host.core.Cadence`), and a table's timer
when nothing else is pending (time jumps to it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from host.core import BotTurn, Cadence, CancelTimer, SetTimer
from host.lobby import Lobby


class Shell:
    """Carries out the effects a :class:`tests.host.test_lobby.Recorder` collected."""

    def __init__(self, lb: Lobby, take: Callable[[], list[Any]]) -> None:
        self.lb = lb
        self.take = take
        self.timers: dict[int, str] = {}  # table → the key of its running timer
        self.effects: list[Any] = []  # every effect seen, in order

    def step(self, fire_timers: bool = True) -> bool:
        """Carry out what is pending: bot turns, then ticks, else (``fire_timers``) a timer.
        Whether anything was done."""
        effects = self.take()
        self.effects += effects
        turns, ticks = [], []
        for e in effects:
            if isinstance(e, SetTimer):
                self.timers[e.table] = e.key
            elif isinstance(e, CancelTimer):
                self.timers.pop(e.table, None)
            elif isinstance(e, BotTurn):
                turns.append(e)
            elif isinstance(e, Cadence):
                ticks.append(e.table)
        before = {tid: t.version for tid, t in self.lb.tables.items()}
        for t in turns:
            self.lb.bot_turn(t.table, t.seat, t.state_id)
        for table in dict.fromkeys(ticks):
            self.lb.cadence(table)
        moved = any(t.version != before.get(tid) for tid, t in self.lb.tables.items())
        if turns or moved:
            return True
        if fire_timers and self.timers:  # nothing else will happen: its time has come
            table, key = self.timers.popitem()
            self.lb.timeout(table, key)
            return True
        return bool(ticks)

    def tick(self, table: int) -> None:
        """One tick of ``table``'s secret step, if it is in one (the effects it made are kept
        for :meth:`step`)."""
        self.lb.cadence(table)
