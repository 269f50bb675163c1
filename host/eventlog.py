"""The headless host's log, off the event loop: each table's public events as plain lines in one
language, and a writer thread that writes every log line.

:class:`EventLog` is a listener on the host's effects (:meth:`host.server.Host.add_listener`):
after every change it picks the public events the table's log gained since the last lines it
wrote (never a private one: the host's screen may be in sight of a player) and hands them on as
:class:`Lines` — worded by :func:`hexnet.i18n.render`, in English or the language ``hexnet host
--lang`` names, only when the lines are read (on the writer's thread, not the loop's).

:class:`LineWriter` queues lines and writes them on a thread of its own, in batches, so the loop
never waits for its output: a reader that stops reading (a full pipe) blocks only that thread.
At most :data:`MAX_QUEUED` lines wait; past that new lines are dropped, counted, and the count
is written as a line of its own once the output takes lines again.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Collection, Iterator
from typing import Any, TextIO

from hexnet.games import available
from hexnet.i18n import render
from hexnet.i18n.render import prepare as prepare_words
from host.batches import BatchThread
from host.core import Accepted, LobbyError, TableStarted

MAX_QUEUED = 20_000  # log lines that may wait for the output before new ones are dropped
WRITE_EVERY = 0.25  # seconds: lines are written in batches at most this often (each batch wakes
# the writer thread, ~100 µs of CPU on a VM: at 0.05 s it woke at almost every change of a table)


class Lines:
    """Log lines of tables' events, worded when read: ``table N: <event>`` for each."""

    __slots__ = ("lang", "tables")

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.tables: list[tuple[int, str, list[str], list[dict[str, Any]]]] = []

    def __len__(self) -> int:
        return sum(len(events) for *_, events in self.tables)

    def __iter__(self) -> Iterator[str]:
        for table, game, players, events in self.tables:
            for event in events:
                yield f"table {table}: {render(game, event, players, self.lang)}"


class EventLog:
    """Calls ``write(lines)`` with ``table N: <event>`` lines (:class:`Lines`) after each
    batch of effects that brought public events."""

    def __init__(self, state_of: Callable[[int], dict[str, Any] | None],
                 write: Callable[[Collection[str]], None], lang: str = "en") -> None:
        self.state_of = state_of
        self.write = write
        self.lang = lang
        self.shown: dict[int, int] = {}  # table → log index of the next event to show

    def prepare(self) -> None:
        """Load every game and what wording its events needs now, at start-up, not at its
        first table: importing a game there stalled the loop (Fang's brings numpy: 0.1–0.2 s),
        and wording its first lines held the interpreter lock on the writer's thread as long."""
        for game in available():  # (imports each game)
            prepare_words(game, self.lang)

    def __call__(self, effects: list[Any]) -> None:
        started: set[int] = set()
        tables: dict[int, int] = {}  # table → events its accepted actions brought
        for e in effects:
            kind = type(e)
            if kind is Accepted:
                tables[e.table] = tables.get(e.table, 0) + len(e.events)
            elif kind is TableStarted:
                started.add(e.table)
                tables.setdefault(e.table, 0)
        lines = Lines(self.lang)
        for table, brought in tables.items():
            try:
                state = self.state_of(table)
            except LobbyError:  # the table is gone
                continue
            if state is None:
                continue
            log = state["log"]
            if table in self.shown or table in started:
                first = self.shown.get(table, 0)
            else:  # a table recovered from its journal: from this change on
                first = len(log) - brought
            self.shown[table] = len(log)
            public = [e for e in log[first:] if "to" not in e]
            if public:
                lines.tables.append((table, state["game"], state["players"], public))
        if lines.tables:
            self.write(lines)


class LineWriter:
    """Writes log lines to ``stream`` on a thread of its own (:class:`host.batches.
    BatchThread`), each with the time it was queued (``HH:MM:SS``), in batches at most every
    :data:`WRITE_EVERY` seconds; :meth:`put` never blocks. :meth:`close` writes what is left
    (for at most ``grace`` seconds) and ends the thread."""

    def __init__(self, stream: TextIO, max_queued: int = MAX_QUEUED, grace: float = 2.0,
                 every: float = WRITE_EVERY) -> None:
        self.stream = stream
        self.max_queued = max_queued
        self.grace = grace
        self.dropped = 0
        self._queued = 0  # lines put and not yet written (changed under the lock)
        self._lock = threading.Lock()  # for the counts only: the writer takes it per batch
        self._closed = False
        self._thread: BatchThread[tuple[float, Collection[str]]] = BatchThread(
            "log-writer", self._write, every)

    def line(self, line: str) -> None:
        """Queue one line."""
        self.put((line,))

    def put(self, lines: Collection[str]) -> None:
        """Queue ``lines`` (worded, if they are :class:`Lines`, on the writer's thread; written
        within :data:`WRITE_EVERY`); past :data:`MAX_QUEUED` lines waiting they are dropped and
        counted."""
        count = len(lines)
        with self._lock:
            if self._closed:
                return
            if self._queued + count > self.max_queued:
                self.dropped += count
                return
            self._queued += count
        self._thread.put((time.time(), lines))

    def _write(self, items: list[tuple[float, Collection[str]]]) -> None:
        """(The thread) One batch: its lines, then — if lines were dropped — how many."""
        out: list[str] = []
        stamps: dict[int, str] = {}
        count = 0
        for at, lines in items:
            stamp = stamps.get(int(at))
            if stamp is None:
                stamp = stamps[int(at)] = time.strftime("%H:%M:%S", time.localtime(at))
            out += [f"{stamp} {line}" for line in lines]
            count += len(lines)
        with self._lock:
            dropped, self.dropped = self.dropped, 0
        if dropped:
            out.append(f"{time.strftime('%H:%M:%S')} {dropped} log lines dropped: the output "
                       "did not keep up")
        with contextlib.suppress(OSError, ValueError):  # (a closed or broken output)
            self.stream.write("".join(line + "\n" for line in out))
            self.stream.flush()
        with self._lock:
            self._queued -= count

    def close(self) -> None:
        """Write what is queued (bounded by ``grace``) and end the writer."""
        with self._lock:
            self._closed = True
        self._thread.stop(self.grace)
