"""A tournament's tables (part of the director, :mod:`host.event`): each round's tables created
and filled (:meth:`host.seating.Seating.place`: an entrant who is away is seated absent and the
game's absent rules answer for them until they connect; a connected one who idles is timed out
by the game's clock), started together, and followed to their ends.

After a restart the drawn round's tables come back from their own journals
(:mod:`host.recovery`) and are found by their journal's name (by table id and entrants if the
host stopped before the event wrote ``journals``; a table that is gone then is seated again and
started); a table whose journal was closed while the host was down counts with the outcome
written there, one that cannot be recovered counts as not finished (no points).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from hexnet.tournament import Round
from host.core import LobbyError
from host.entrants import Registration
from host.event_journal import EventJournal
from host.journal import JournalError
from host.lobby import Lobby
from host.recovery import Recorder
from host.results import Results


class Rounds:
    """The playing tables of the event (table id → round and table number), where each keeps
    its journal, and the options every table of the event gets."""

    def __init__(self, lobby: Lobby, recorder: Recorder | None, game: str,
                 options: dict[str, Any], registration: Registration, results: Results,
                 journal: EventJournal, log: Callable[[str], None]) -> None:
        self.lobby = lobby
        self.recorder = recorder
        self.game = game
        self.options = options
        self.registration = registration
        self.results = results
        self.journal = journal
        self.log = log
        self.tables: dict[int, tuple[int, int]] = {}  # playing table id → (round, table)
        self.journal_of: dict[int, str] = {}  # table id → its game journal
        self.current: list[tuple[int, str]] = []  # this round's (table id, journal)

    def seat_table(self, number: int, index: int, names: tuple[str, ...]) -> int:
        """Create table ``index`` of round ``number`` and seat its entrants (not started)."""
        by_name = {e.name: e for e in self.registration.entrants}
        tid = self.lobby.create_table(self.game, len(names), self.options)
        for seat, name in enumerate(names):
            e = by_name[name]
            self.lobby.place(tid, seat, name, e.identity, e.policy)
        self.tables[tid] = (number, index)
        return tid

    def seat_round(self, rnd: Round) -> list[int]:
        """Create and fill the tables of round ``rnd`` (not started); their ids."""
        return [self.seat_table(rnd.number, i, names) for i, names in enumerate(rnd.tables, 1)]

    def log_round(self, rnd: Round, ids: list[int]) -> None:
        """Say in the log who plays where in round ``rnd`` (at tables ``ids``)."""
        self.log(f"tournament: round {rnd.number} of {self.results.rounds}:")
        for tid, names in zip(ids, rnd.tables, strict=True):
            self.log(f"  table {tid}: {', '.join(names)}")
        if rnd.byes:
            self.log(f"  bye: {', '.join(rnd.byes)}")

    def drawn(self, rnd: Round, ids: list[int]) -> None:
        """Round ``rnd`` is seated at tables ``ids``: it is journaled before they start (their
        journals right after, :meth:`note_journals`: a crash in between finds the tables by
        id, or seats them again)."""
        assert self.results.history is not None
        self.results.history.add_round(rnd)
        self.current = [(tid, "") for tid in ids]
        self.journal.write({"kind": "round", "number": rnd.number,
                            "tables": [list(t) for t in rnd.tables], "byes": list(rnd.byes),
                            "table_ids": ids})

    def start_tables(self, ids: list[int]) -> list[int]:
        """Start the round's tables together; those that cannot start (they count as not
        finished)."""
        failed = []
        for tid in ids:
            try:
                self.lobby.start(tid)
            except LobbyError as exc:
                self.log(f"tournament: table {tid} cannot start: {exc.message}")
                failed.append(tid)
        return failed

    def note_journals(self, number: int) -> None:
        """Journal where the round's tables keep their own journals (known once started)."""
        self.current = [(tid, journal or self.journal_of.get(tid, ""))
                        for tid, journal in self.current]
        self.journal.write({"kind": "journals", "number": number,
                            "table_ids": [tid for tid, _ in self.current],
                            "journals": [journal for _, journal in self.current]})

    def started(self, tid: int) -> None:
        """(A table's ``TableStarted``) Where it keeps its journal."""
        if tid in self.tables:
            path = self.recorder.path_of(tid) if self.recorder is not None else None
            self.journal_of[tid] = str(path) if path else ""

    def ended(self, tid: int, outcome: dict[str, Any] | None) -> tuple[int, int] | None:
        """Table ``tid`` of the event is over (``outcome`` None: it could not play): its game
        is recorded; its (round, table), or None if it is not the event's."""
        where = self.tables.pop(tid, None)
        if where is None or self.results.history is None:
            return None
        number, index = where
        table = self.lobby.tables.get(tid)
        names = self.results.history.rounds[number - 1].tables[index - 1]
        self.results.record(self.results.game_record(
            number, index, tid, names, outcome, self.journal_of.pop(tid, ""),
            table.seed if table else None, table.salt if table else None,
            table.commitment if table else ""))
        return where

    # -- after a restart ---------------------------------------------------------------------
    def find_again(self, number: int) -> list[int]:
        """Round ``number``'s unfinished tables after a restart: each goes on, is recorded as
        its journal ended, or is seated again; the tables that could not start."""
        assert self.results.history is not None
        done = {r.table for r in self.results.history.results if r.round == number}
        names = {}  # journal file name (unique: time and random) → the table resumed from it
        if self.recorder is not None:
            names = {path.name: tid for tid in self.lobby.tables
                     if (path := self.recorder.path_of(tid)) is not None}
        unstarted = []
        for i, (old_id, journal) in enumerate(self.current, 1):
            if i in done:
                continue
            if not journal:  # the host stopped as the round's tables were being started
                unstarted.append((i, old_id))
                continue
            tid = names.get(Path(journal).name)
            if tid is not None:
                self.tables[tid] = (number, i)
                self.journal_of[tid] = journal
                self.log(f"tournament: round {number} table {i} goes on as table {tid}")
                continue
            self._closed_while_down(number, i, journal)
        return self._restart_tables(number, unstarted) if unstarted else []

    def _restart_tables(self, number: int, tables: list[tuple[int, int]]) -> list[int]:
        """Tables of round ``number`` the host stopped before it knew their journals: one
        that came back (same id, same entrants) goes on, one still seating is started, one
        that is gone is seated again and started. Those that could not start."""
        assert self.results.history is not None
        rnd = self.results.history.rounds[number - 1]
        start = []
        for index, old_id in tables:
            names = rnd.tables[index - 1]
            table = self.lobby.tables.get(old_id)
            if table is not None and [s.name for s in table.seats] == list(names) and (
                    table.status in ("open", "playing")):
                self.tables[old_id] = (number, index)
                if table.status == "open":
                    start.append(old_id)
                elif self.recorder is not None:
                    path = self.recorder.path_of(old_id)
                    self.journal_of[old_id] = str(path) if path else ""
                self.current[index - 1] = (old_id, self.journal_of.get(old_id, ""))
                self.log(f"tournament: round {number} table {index} goes on as table {old_id}")
                continue
            try:
                tid = self.seat_table(number, index, names)
            except LobbyError as exc:
                self.log(f"tournament: round {number} table {index} cannot be seated again: "
                         f"{exc.message}; it counts as not finished")
                self.results.record(self.results.game_record(number, index, 0, names, None,
                                                             "", None, None, ""))
                continue
            self.current[index - 1] = (tid, "")
            start.append(tid)
            self.log(f"tournament: round {number} table {index} seated again as table {tid}")
        failed = self.start_tables(start)
        self.note_journals(number)
        return failed

    def _closed_while_down(self, number: int, index: int, journal: str) -> None:
        """A table of the round that did not come back: its journal's end, or no result."""
        from host.journal import read_journal

        history = self.results.history
        names = history.rounds[number - 1].tables[index - 1] if history else ()
        if self.recorder is not None and journal:  # (the data dir may be named anew)
            journal = str(self.recorder.dir / Path(journal).name)
        try:
            if not journal:
                raise JournalError("no journal was recorded")
            contents = read_journal(journal)
            outcome = contents.end["outcome"] if contents.end else None
            head = contents.header
        except (JournalError, KeyError, TypeError):
            outcome, head = None, {}
        self.log(f"tournament: round {number} table {index}: "
                 + ("ended while the host was down" if outcome is not None
                    else "could not be recovered; it counts as not finished"))
        self.results.record(self.results.game_record(
            number, index, 0, tuple(names), outcome, journal, head.get("seed"),
            head.get("salt"), head.get("commitment", "")))
