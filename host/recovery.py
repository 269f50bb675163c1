"""Table journals on the host: written as the game goes, read back after a crash.

:class:`Recorder` turns the core's journal effects (``TableStarted``, ``Accepted``,
``TableOver``) into records of one append-only journal per table game
(``<data dir>/journals/<time>-t<table>-<random>.journal``, format in :mod:`host.journal`). Each
record is fsynced before :meth:`Recorder.record` returns, and the shell calls it before it queues
any message of the same batch of effects — so no seat ever sees a view whose action is not on
disk.

:meth:`Recorder.recover` reloads every unfinished journal into the lobby after a restart: the
table is dealt again from the journal's seed and every step re-applied (its public-events digest
checked), human seats stay bound to their players' identity keys (who may resume them without the
room code), host-side bot seats come back as bots. A torn last record is dropped with a log line.
A journal that cannot be read or replayed is left untouched and not recovered (a log line says
why). No play without a journal: if a record of a table cannot be written, that journal is
closed, nothing more is written to it, and ``halt(table, why)`` stops the table (the host stops
taking its actions and tells its players why); what is on disk is a clean prefix of the game
(a torn last record at worst), so a restarted host resumes the table from its last written step
— the step no seat was shown.
Not journaled (and so not recovered): tables still seating, seat changes during play (a bot
replacing an absent human), the time already run on a timer (it restarts from full length).
"""

from __future__ import annotations

import contextlib
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hexnet.engine import IllegalAction
from hexnet.fairness import commitment, events_digest
from hexnet.games import get_game
from host.core import Accepted, Effect, TableOver, TableStarted
from host.journal import Journal, JournalContents, JournalError, read_journal
from host.table import Seat, Table

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

    def path_of(self, table: int) -> Path | None:
        """The journal file of ``table`` while its game runs."""
        journal = self.journals.get(table)
        return journal.path if journal else None

    def record(self, effects: list[Effect]) -> None:
        """Write (and fsync) the journal records among ``effects``, in order. A table whose
        record cannot be written is stopped (see the module doc); ``lost`` names it."""
        for e in effects:
            if not isinstance(e, (TableStarted, Accepted, TableOver)) or e.table in self.lost:
                continue
            try:
                if isinstance(e, TableStarted):
                    self._start(e)
                elif isinstance(e, Accepted):
                    self._append(e.table, {"kind": "step", "seat": e.seat, "action": e.action,
                                           "digest": _digest(e), "state_id": e.state_id})
                else:
                    self._append(e.table, {"kind": "end", "outcome": e.outcome})
                    journal = self.journals.pop(e.table, None)
                    if journal is not None:
                        journal.close()
            except (OSError, JournalError) as exc:
                if isinstance(e, TableOver):  # every step is on disk: a restart adds the end
                    self.log(f"table {e.table}: JOURNAL WRITE FAILED: end record: {exc}")
                else:
                    self._lose(e.table, f"{exc.strerror or exc}" if isinstance(exc, OSError)
                               else str(exc))

    def _lose(self, table: int, why: str) -> None:
        """The journal of ``table`` cannot be written: close it and stop the table."""
        journal = self.journals.pop(table, None)
        if journal is not None:
            with contextlib.suppress(OSError):
                journal.close()
        self.lost[table] = why
        self.log(f"table {table}: JOURNAL WRITE FAILED: {why}; the table is stopped (no play "
                 "without a journal)")
        if self.halt is not None:
            self.halt(table, f"The host could not write table {table}'s journal ({why}), so "
                             "the table is stopped; the host keeps what was written.")

    def _start(self, e: TableStarted) -> None:
        self.dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
        path = self.dir / f"{stamp}-t{e.table}-{secrets.token_hex(3)}.journal"
        old = self.journals.pop(e.table, None)
        if old is not None:
            old.close()
        self.journals[e.table] = Journal.create(path, {
            "game": e.game, "players": e.players, "options": e.options, "seed": e.seed,
            "salt": e.salt, "commitment": commitment(e.seed, e.salt) if e.salt else "",
            "table": e.table, "seats": e.seats, "started": time.time()})
        self.log(f"table {e.table}: journal {path}")

    def _append(self, table: int, record: dict[str, Any]) -> None:
        journal = self.journals.get(table)
        if journal is None:
            self.log(f"table {table}: no journal open; {record['kind']} record not written")
            return
        journal.append(record)

    def close(self) -> None:
        """Close every open journal (they stay unfinished on disk, to be recovered)."""
        for journal in self.journals.values():
            journal.close()
        self.journals.clear()

    # -- after a restart -----------------------------------------------------------------
    def recover(self, lobby: Lobby) -> list[int]:
        """Reload every unfinished journal into ``lobby``; the ids of the tables resumed."""
        resumed = []
        for path in sorted(self.dir.glob("*.journal")) if self.dir.is_dir() else []:
            try:
                contents = read_journal(path)
            except JournalError as exc:
                self.log(f"journal {path.name}: unreadable, not recovered: {exc}")
                continue
            if contents.finished:
                continue
            if contents.torn:
                self.log(f"journal {path.name}: a torn last record (cut off mid-write) was "
                         "dropped")
            try:
                table = rebuild_table(contents, self.log)
            except (KeyError, TypeError, ValueError, IllegalAction) as exc:
                self.log(f"journal {path.name}: cannot be replayed, not recovered: {exc}")
                continue
            journal = Journal.reopen(contents)
            if table.status == "over":  # the crash came between the last step and the end
                journal.append({"kind": "end", "outcome": table.engine.outcome(table.state)})
                journal.close()
                self.log(f"journal {path.name}: game was over; end record added")
                continue
            old_id = table.id
            lobby.resume_table_id(table)
            self.journals[table.id] = journal
            lobby.resume_table(table)
            moved = f" (was table {old_id})" if old_id != table.id else ""
            self.log(f"table {table.id}{moved}: {table.game_name} recovered from {path.name} "
                     f"at step {len(table.history)}")
            resumed.append(table.id)
        return resumed


def _digest(e: Accepted) -> str:
    return events_digest(e.events)


def rebuild_table(contents: JournalContents, log: Callable[[str], None]) -> Table:
    """The table a journal describes, replayed to its last recorded step."""
    h = contents.header
    engine = get_game(h["game"])
    seats = []
    for info in h["seats"]:
        seat = Seat(kind=str(info["kind"]), name=str(info["name"]), policy=info.get("policy"))
        identity = info.get("identity")
        seat.identity = bytes(identity) if identity is not None else None
        seats.append(seat)
    table = Table(int(h["table"]), h["game"], engine, seats, dict(h["options"]))
    table.start(int(h["seed"]), bytes(h["salt"]))
    for i, step in enumerate(contents.steps, 1):
        table.act(step["seat"], step["action"])
        if step.get("digest") is not None and table.digests[-1] != step["digest"]:
            log(f"table {table.id}: step {i} replays with other public events than recorded "
                "(was the game's code changed?)")
    return table
