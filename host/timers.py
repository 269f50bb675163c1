"""Everything the host does later (part of the asyncio shell): each table's deadline timer, the
delayed calls — a host bot's turn after ``bot_delay``, the grace periods of lost and idle seats —,
bots that think in worker threads, and the sweep of expired tables.

A bot's turn: quick policies answer at once; a policy that ``thinks`` (search) runs in a worker
thread (at most :data:`THINKERS` at once), on a copy of its view and a generator of its own, so
the host (and a local player's screen) stays responsive; its choice is applied if still current.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import msgpack

from host.lobby import Lobby

# bots thinking at once (search bots): every bot of the largest table (Fang's 12), so each
# answers within its think budget, measured from when it was asked, even when all are asked at
# once (they share the CPU and the interpreter lock: fewer playouts each, no queue; with 4 at
# once eleven hard bots at a 12-seat vote answered after 1.5 s, 2.6 s at worst, for a 0.5 s budget)
THINKERS = 12


class Timers:
    """The host's pending timers and delayed calls, and its pool of thinking bots."""

    def __init__(self, lobby: Lobby, *, bot_delay: float, absent_after: float | None,
                 log: Callable[[str], None]) -> None:
        self.lobby = lobby
        self.bot_delay = bot_delay
        self.absent_after = absent_after
        self.log = log
        self.stopped = False  # the host is stopping: nothing more is scheduled or applied
        self._tables: dict[int, asyncio.TimerHandle] = {}
        self._later: set[asyncio.Handle] = set()
        self._thinkers: ThreadPoolExecutor | None = None
        self._sweep: asyncio.Task[None] | None = None

    def open(self) -> None:
        """(The host starts, again perhaps) Schedule again."""
        self.stopped = False

    def start_sweep(self) -> None:
        """The sweep of expired tables runs from now on."""
        self._sweep = asyncio.create_task(self._sweep_loop())

    def stop(self) -> None:
        """Nothing scheduled runs any more; a thinking bot finishes its move, nobody applies
        it."""
        self.stopped = True
        if self._thinkers is not None:
            self._thinkers.shutdown(wait=False, cancel_futures=True)
            self._thinkers = None
        if self._sweep is not None:
            self._sweep.cancel()
            self._sweep = None
        for handle in list(self._tables.values()) + list(self._later):
            handle.cancel()
        self._tables.clear()
        self._later.clear()

    # -- table timers (host.core.SetTimer, CancelTimer) -----------------------------------
    def set(self, table: int, key: str, seconds: float) -> None:
        """(Re)start ``table``'s timer: after ``seconds``, ``lobby.timeout(table, key)``."""
        self.cancel(table)
        self._tables[table] = asyncio.get_running_loop().call_later(
            seconds, self._fire, table, key)

    def cancel(self, table: int) -> None:
        old = self._tables.pop(table, None)
        if old:
            old.cancel()

    def _fire(self, table: int, key: str) -> None:
        self._tables.pop(table, None)
        self.lobby.timeout(table, key)

    # -- delayed calls -----------------------------------------------------------------------
    def later(self, delay: float, fn: Callable[..., None], *args: Any) -> None:
        """Call ``fn(*args)`` after ``delay`` seconds (soon if 0)."""
        loop = asyncio.get_running_loop()

        def run() -> None:
            self._later.discard(handle)
            fn(*args)

        handle = loop.call_later(delay, run) if delay > 0 else loop.call_soon(run)
        self._later.add(handle)

    def seat_lost(self, table: int, seat: int) -> None:
        """(host.core.SeatDisconnected) The grace periods of a seat whose player went away."""
        if self.absent_after is not None:
            self.later(self.absent_after, self.lobby.absent_if_gone, table, seat)
        again = self.lobby.presence.reconnect_for
        if self.absent_after is None or self.absent_after > again:
            self.later(again, self.lobby.stopped_reconnecting, table, seat)

    def bot_turn(self, table: int, seat: int, state_id: int, pause: float = 0.0,
                 delay: float | None = None) -> None:
        """(host.core.BotTurn) The bot in ``seat`` moves after ``delay`` (None: ``bot_delay``,
        the host's), at least the game's ``pause``."""
        self.later(max(self.bot_delay if delay is None else delay, pause), self._bot_turn,
                   table, seat, state_id)

    def _bot_turn(self, table: int, seat: int, state_id: int) -> None:
        asked = self.lobby.bot_question(table, seat, state_id)
        if asked is None:
            return
        view, legal, policy, table_rng = asked
        if not getattr(policy, "thinks", False):
            self.lobby.bot_turn(table, seat, state_id)
            return
        own_rng = random.Random(table_rng.getrandbits(64))
        frozen = msgpack.unpackb(msgpack.packb([view, legal]), raw=False, strict_map_key=False)
        if self._thinkers is None:
            self._thinkers = ThreadPoolExecutor(THINKERS, thread_name_prefix="hexnet-bot")
        thinking = asyncio.get_running_loop().run_in_executor(self._thinkers, policy, *frozen,
                                                              own_rng)

        def done(future: asyncio.Future[Any]) -> None:
            if self.stopped:
                return
            action = None if future.cancelled() or future.exception() else future.result()
            self.lobby.bot_answer(table, seat, state_id, action)

        thinking.add_done_callback(done)

    async def _sweep_loop(self) -> None:
        """Now and then: open tables nobody sits at expire."""
        every = max(0.05, min(30.0, self.lobby.registry.table_expiry / 4))
        while True:
            await asyncio.sleep(every)
            for tid in self.lobby.expire_tables():
                self.log(f"table {tid}: nobody sat at it for "
                         f"{self.lobby.registry.table_expiry:g} s; removed")
