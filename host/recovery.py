"""Table journals on the host: written as the game goes, read back after a crash.

:class:`Recorder` turns the core's journal effects (``TableStarted``, ``Accepted``,
``TableOver``) into records of one append-only journal per table game
(``<data dir>/journals/<time>-t<table>-<random>.journal``, format in :mod:`host.journal`). The
records are written (``os.write``, one per journal) before :meth:`Recorder.record` returns —
or, for the batched host, held and written by :meth:`Recorder.write`, which the shell calls
before any frame of the tick leaves — so no seat ever sees a view whose action is not in the
file (a ``kill -9`` of the host loses nothing anyone saw); a writer thread
(:class:`host.journal.Syncer`) fsyncs the written records as a group every few milliseconds,
and a new journal's file and directory too, off the event loop, so a power cut can cost the
actions of the last ~20 ms (see the README).

:meth:`Recorder.recover` reloads every unfinished journal into the lobby after a restart: the
table is dealt again from the journal's seed and every step re-applied (its public-events digest
checked), human seats stay bound to their players' identity keys (who may resume them without the
room code), host-side bot seats come back as bots. A torn last record is dropped with a log line.
Seat changes during play (a bot standing in for an absent player, the player's return) are
``seats`` records, and the running deadline a ``timer`` record (its key and when it ends), so a
restarted host seats everyone alike and lets the timer run out at the same moment (at once if
that moment passed while the host was down); a table's watching rules are ``watch`` records
(:mod:`host.watchers`). The tables still seating are kept in ``journals/seating`` (rewritten,
atomically, when they change — the shell coalesces bursts; their watching rules with them) and
brought back too.
No play without a journal: if a record of a table cannot be written (or the writer thread's
fsync of it fails), that journal is closed, nothing more is written to it, and
``halt(table, why)`` stops the table before the tick that would show the unwritten step (the
host stops taking its actions and tells its players); what is on disk is a clean prefix of the
game (a torn last record at worst), so a restarted host resumes the table from its last written
step. Files from disk are untrusted input: a journal that cannot be read, checked or replayed
is set aside (renamed ``NAME.journal.set-aside-REASON``, logged) and every other game is served;
a table still seating whose record does not check is left out (:mod:`host.journalcheck`).
Once a finished game's journal is closed with its end record synced, ``finished(path)`` is
called on the loop's thread (the club indexes it then, :mod:`host.club.history`).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgpack

from hexnet import rng
from hexnet.fairness import commitment, events_digest
from hexnet.games import get_game
from host.core import (
    Accepted,
    Effect,
    SeatsChanged,
    SetTimer,
    TableOver,
    TableStarted,
    WatchRulesChanged,
)
from host.journal import Journal, JournalContents, JournalError, Syncer, read_journal
from host.journalcheck import Unusable, check_journal, check_seating, set_aside
from host.table import MAX_HOST_STEPS, Seat, Table, absent_run
from protocol.journalfile import pack_record
from protocol.paths import private_dir, tighten, write_private

SEATING_FILE = "seating"
_RECORDED = frozenset({TableStarted, Accepted, SeatsChanged, SetTimer, WatchRulesChanged,
                       TableOver})

if TYPE_CHECKING:
    from host.lobby import Lobby


class Recorder:
    """The journals of one host's tables, in ``data_dir/journals``."""

    def __init__(self, data_dir: Path, log: Callable[[str], None],
                 halt: Callable[[int, str], None] | None = None) -> None:
        self.dir = Path(data_dir) / "journals"
        self.log = log
        self.halt = halt
        self.journals: dict[int, Journal] = {}
        self.lost: dict[int, str] = {}  # table → why its journal could not be written
        self._failed: deque[tuple[Journal, str]] = deque()  # fsyncs failed (writer thread)
        self._loop: asyncio.AbstractEventLoop | None = None
        self.syncer: Syncer | None = None
        self.unjournaled: set[int] = set()  # tables told once that they play unjournaled
        self._held: dict[int, list[bytes]] = {}  # table → records packed, not yet written
        # called on the loop with a finished game's journal once its end is durable and closed
        self.finished: Callable[[Path], None] | None = None
        if self.dir.is_dir():  # journals of an older hexnet may be readable by others
            private_dir(self.dir)
            for path in self.dir.glob("*.journal"):
                tighten(path, 0o600)

    def path_of(self, table: int) -> Path | None:
        """The journal file of ``table`` while its game runs."""
        journal = self.journals.get(table)
        return journal.path if journal else None

    def record(self, effects: list[Effect], hold: bool = False) -> None:
        """Write the journal records among ``effects``, in order (fsynced by the writer
        thread) — with ``hold``, keep them for :meth:`write` (the batched host writes a tick's
        records at once). A table whose record cannot be written is halted (see the module
        doc); ``lost`` names it."""
        self._check_failed()
        for e in effects:
            if type(e) not in _RECORDED or e.table in self.lost:
                continue
            try:
                if isinstance(e, TableStarted):
                    self._start(e)
                elif isinstance(e, Accepted):
                    self._append(e.table, {"kind": "step", "seat": e.seat, "action": e.action,
                                           "digest": e.digest or _digest(e),
                                           "state_id": e.state_id})
                elif isinstance(e, SeatsChanged):
                    if e.table in self.journals:
                        self._append(e.table, {"kind": "seats", "seats": e.seats})
                elif isinstance(e, SetTimer):
                    if e.table in self.journals:
                        self._append(e.table, {"kind": "timer", "key": e.key,
                                               "ends": time.time() + e.seconds})
                elif isinstance(e, WatchRulesChanged):
                    if e.table in self.journals:
                        self._append(e.table, {"kind": "watch", "allowed": e.allowed,
                                               "delay": e.delay})
                elif isinstance(e, TableOver):
                    self._append(e.table, {"kind": "end", "outcome": e.outcome,
                                           "ended": time.time()})  # the club's rating order
                    self._write(e.table)
                    journal = self.journals.pop(e.table, None)
                    if journal is not None:
                        self._syncer().close_after(journal, self._when_durable(journal.path))
            except (OSError, JournalError) as exc:
                self._failed_write(e.table, exc, isinstance(e, TableOver))
        if not hold:
            self.write()

    def write(self) -> None:
        """Write every record held (one ``os.write`` per journal)."""
        for table in list(self._held):
            try:
                self._write(table)
            except (OSError, JournalError) as exc:
                self._failed_write(table, exc, False)

    def _write(self, table: int) -> None:
        records = self._held.pop(table, None)
        journal = self.journals.get(table)
        if records and journal is not None:
            journal.write(b"".join(records))
            self._syncer().dirty(journal)

    def _failed_write(self, table: int, exc: OSError | JournalError, end: bool) -> None:
        why = f"{exc.strerror or exc}" if isinstance(exc, OSError) else str(exc)
        if end:  # every step is on disk: a restart adds the end
            self.log(f"table {table}: JOURNAL WRITE FAILED: end record: {why}")
            journal = self.journals.pop(table, None)
            if journal is not None:
                self._syncer().close_after(journal)
        else:
            self._lose(table, why)

    def _when_durable(self, path: Path) -> Callable[[], None]:
        """(For the writer thread) what tells ``finished`` on the loop that ``path`` is
        closed with its end synced."""
        def tell() -> None:
            if self.finished is not None and self._loop is not None:
                with contextlib.suppress(RuntimeError):  # (the loop is closed: the host stopped)
                    self._loop.call_soon_threadsafe(self.finished, path)
        return tell

    def _fsync_failed(self, journal: Journal, why: str) -> None:
        """(The writer thread) an fsync failed: the table is halted on the loop's thread, at
        once if the loop is known, else before the next records are written."""
        self._failed.append((journal, why))
        if self._loop is not None:
            with contextlib.suppress(RuntimeError):  # (the loop is closed: the host stopped)
                self._loop.call_soon_threadsafe(self._check_failed)

    def _check_failed(self) -> None:
        while self._failed:
            journal, why = self._failed.popleft()
            table = next((t for t, j in self.journals.items() if j is journal), None)
            if table is not None:
                self._lose(table, f"fsync: {why}")

    def _lose(self, table: int, why: str) -> None:
        """The journal of ``table`` cannot be written: close it and stop the table."""
        self._held.pop(table, None)
        journal = self.journals.pop(table, None)
        if journal is not None:
            self._syncer().close_after(journal)
        self.lost[table] = why
        self.log(f"table {table}: JOURNAL WRITE FAILED: {why}; the table is stopped (no play "
                 "without a journal)")
        if self.halt is not None:
            self.halt(table, f"The host could not write table {table}'s journal ({why}), so "
                             "the table is stopped; the host keeps what was written.")

    def _start(self, e: TableStarted) -> None:
        private_dir(self.dir)
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
        path = self.dir / f"{stamp}-t{e.table}-{secrets.token_hex(3)}.journal"
        old = self.journals.pop(e.table, None)
        if old is not None:
            old.close()
        self._held.pop(e.table, None)
        # written at once, fsynced (file and directory) by the writer thread: off the loop
        journal = self.journals[e.table] = Journal.create(path, {
            "game": e.game, "players": e.players, "options": e.options, "seed": e.seed,
            "salt": e.salt,
            "commitment": commitment(e.seed, e.salt, e.options) if e.salt else "",
            "rng": rng.ALGORITHM,
            "table": e.table, "seats": e.seats, "started": time.time()}, sync=False)
        self._syncer().created(journal)
        self.log(f"table {e.table}: journal {path}")

    def _append(self, table: int, record: dict[str, Any]) -> None:
        journal = self.journals.get(table)
        if journal is None:
            if table not in self.unjournaled:  # said once, not once per step
                self.unjournaled.add(table)
                while len(self.unjournaled) > 4096:
                    self.unjournaled.pop()
                self.log(f"table {table}: no journal open; its game is not recorded (a crash "
                         "of the host loses it)")
            return
        self._held.setdefault(table, []).append(pack_record(record))

    def _syncer(self) -> Syncer:
        if self.syncer is None:
            with contextlib.suppress(RuntimeError):  # (no loop: tools, tests)
                self._loop = asyncio.get_running_loop()
            self.syncer = Syncer(self.log, failed=self._fsync_failed)
        return self.syncer

    def write_seating(self, tables: list[dict[str, Any]]) -> None:
        """Keep the tables still seating (atomically; nothing if there are none)."""
        path = self.dir / SEATING_FILE
        try:
            if not tables:
                path.unlink(missing_ok=True)
                return
            private_dir(self.dir)
            write_private(path, msgpack.packb(tables, use_bin_type=True))
        except OSError as exc:
            self.log(f"tables seating not kept: {exc}")

    def read_seating(self) -> list[dict[str, Any]]:
        """The tables :meth:`write_seating` kept ([] if none or unreadable)."""
        path = self.dir / SEATING_FILE
        try:
            tables = msgpack.unpackb(path.read_bytes(), raw=False, strict_map_key=True)
        except FileNotFoundError:
            return []
        except (OSError, ValueError, msgpack.UnpackException) as exc:
            set_aside(path, "unreadable", f"tables seating unreadable: {exc}", self.log)
            return []
        if not isinstance(tables, list):
            set_aside(path, "refused", "tables seating is not a list", self.log)
            return []
        kept = []
        for record in tables:
            try:
                check_seating(record)
            except JournalError as exc:
                self.log(f"a table still seating not brought back: {exc}")
                continue
            kept.append(record)
        return kept

    def close(self) -> None:
        """Write what is held, sync and close every open journal (they stay unfinished on
        disk, to be recovered)."""
        self.write()
        if self.syncer is not None:
            self.syncer.stop()
            self.syncer = None
        for journal in self.journals.values():
            journal.close()
        self.journals.clear()

    # -- after a restart -----------------------------------------------------------------
    def recover(self, lobby: Lobby) -> list[int]:
        """Reload every unfinished journal into ``lobby``; the ids of the tables resumed. A
        journal that cannot be read, checked (:mod:`host.journalcheck`) or replayed is set
        aside — renamed with the reason, logged — and every other game is served."""
        resumed = []
        started: dict[int, float] = {}  # each journal's table (its id then) and start time
        for path in sorted(self.dir.glob("*.journal")) if self.dir.is_dir() else []:
            try:
                table_id = self._recover_one(path, lobby, started)
            except Unusable as exc:
                set_aside(path, exc.slug, f"journal {path.name}: {exc.why}", self.log)
                continue
            if table_id is not None:
                resumed.append(table_id)
        seating = lobby.restore_seating(self._still_seating(started))
        if seating:
            self.log(f"tables {', '.join(map(str, seating))}: still seating, brought back")
        return resumed

    def _still_seating(self, started: dict[int, float]) -> list[dict[str, Any]]:
        """The tables kept as seating (:meth:`read_seating`) less those that started after
        the list was written — their journals say so (``started``: table id → start time): the
        list is rewritten at most every :data:`host.dispatch.SEATING_EVERY`, and a crash
        between a table's start and that rewrite would bring it back twice, playing and
        seating. The list is kept again without them."""
        records = self.read_seating()
        try:
            written = (self.dir / SEATING_FILE).stat().st_mtime
        except OSError:
            return records
        kept = []
        for rec in records:
            tid = rec.get("id")
            if type(tid) is int and started.get(tid, float("-inf")) >= written:
                self.log(f"table {tid}: started after the tables seating were last kept (its "
                         "journal says so); not brought back as seating")
                continue
            kept.append(rec)
        if len(kept) < len(records):  # kept without them (no ghost once their journals go)
            self.write_seating(kept)
        return kept

    def _recover_one(self, path: Path, lobby: Lobby, started: dict[int, float]) -> int | None:
        """Resume the table of one journal; its id, or None if its game is over (its table
        and start time noted in ``started`` either way). :class:`Unusable` if the file does
        not survive reading, checking or replaying."""
        try:
            contents = read_journal(path)
        except JournalError as exc:
            raise Unusable("unreadable", f"unreadable: {exc}") from exc
        head = contents.header if isinstance(contents.header, dict) else {}
        tid, at = head.get("table"), head.get("started")
        if type(tid) is int and type(at) in (int, float):
            started[tid] = max(started.get(tid, float("-inf")), float(at))
        if contents.finished:
            return None
        if contents.torn:
            self.log(f"journal {path.name}: a torn last record (cut off mid-write) was dropped")
        try:
            check_journal(contents)
        except JournalError as exc:
            raise Unusable("refused", f"not what a host writes: {exc}") from exc
        try:
            table = rebuild_table(contents, self.log)
        except Exception as exc:  # noqa: BLE001 - whatever a crafted game makes the engine do
            raise Unusable("unplayable", f"cannot be replayed: {type(exc).__name__}: "
                           f"{str(exc)[:160]}") from exc
        journal = Journal.reopen(contents)
        if table.status == "over":  # the crash came between the last step and the end
            journal.append({"kind": "end", "outcome": table.engine.outcome(table.state),
                            "ended": time.time()})
            journal.close()
            self.log(f"journal {path.name}: game was over; end record added")
            return None
        old_id = table.id
        lobby.resume_table_id(table)
        self.journals[table.id] = journal
        timer = None
        if contents.timer is not None:
            left = float(contents.timer.get("ends", 0.0)) - time.time()
            timer = (str(contents.timer.get("key")), left)
        lobby.restore_watch_rules(table.id, contents.watch)  # before the lobby lists it
        lobby.resume_table(table, timer)
        moved = f" (was table {old_id})" if old_id != table.id else ""
        self.log(f"table {table.id}{moved}: {table.game_name} recovered from {path.name} "
                 f"at step {len(table.history)}")
        return table.id


def _digest(e: Accepted) -> str:
    return events_digest(e.events)


def rebuild_table(contents: JournalContents, log: Callable[[str], None]) -> Table:
    """The table a journal describes, replayed to its last recorded step."""
    h = contents.header
    if h.get("rng") != rng.ALGORITHM:
        raise ValueError(f"its generator {h.get('rng', 'splitmix64')!r} is not this hexnet's "
                         f"{rng.ALGORITHM!r}")
    engine = get_game(h["game"])
    seats = [Seat.from_record(info) for info in contents.seats or h["seats"]]
    table = Table(int(h["table"]), h["game"], engine, seats, dict(h["options"]))
    table.start(bytes(h["seed"]), bytes(h["salt"]))
    for i, step in enumerate(contents.steps, 1):
        table.act(step["seat"], step["action"])
        if step.get("digest") is not None and table.digests[-1] != step["digest"]:
            log(f"table {table.id}: step {i} replays with other public events than recorded "
                "(was the game's code changed?)")
    # its absent seats' moves had gone round without an end: it waits, not 10,000 more
    table.stalled = absent_run(table.history) >= MAX_HOST_STEPS
    return table
