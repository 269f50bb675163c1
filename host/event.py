"""The host's tournament director (issue 13): entrants over the network, rounds, standings.

``hexnet host --headless --tournament swiss|round-robin|knockout --game G`` runs one event on
the host. The pairing, ranking points and standings are :mod:`hexnet.tournament`'s; this module
registers the entrants, seats each round at tables of the host's lobby, starts them together,
waits for their ends, records the results and tells every client where the event stands.

- **Entrants**: a client sends ``enter`` (:mod:`protocol.messages`) and is an entrant under the
  name it connected with — made unique among the entrants — bound to its identity key: whoever
  connects with that key again is that entrant (their place, their seat at a running table).
  ``bots`` host-side bots (``--bots heuristic:K``) enter first. Registration ends at the start.
- **Start**: when ``start_when`` entrants are in, at ``start_at`` (a wall-clock time), or when
  :meth:`Director.start` is called (the organiser: ``SIGUSR1`` to the headless host); an
  event the entrants cannot make yet (too few for a table, a bracket that does not fit) waits
  for more and says why in the log.
- **Rounds**: each round is drawn by :meth:`hexnet.tournament.History.next_round`; its tables are
  created and filled (:meth:`host.lobby.Lobby.place`: an entrant who is away is seated absent and
  the game's absent rules answer for them until they connect; a connected one who idles is
  timed out by the game's clock, :data:`TIMED`), then started together. When the
  last one ends the standings go to every connection (a ``tournament`` message, padded like the
  table frames), to the log as plain lines and to the results file; after ``pause`` seconds the
  next round is drawn.
- **Journal**: the event's own state (``entrant``, ``start``, ``round`` — written before its
  tables start —, ``journals`` — where those tables keep theirs —, ``result``, ``standings``
  and ``end`` records) is an append-only journal (:mod:`host.journal`'s format, every record
  fsynced) in ``data_dir/events/current.journal``. A host started again on the same data
  directory with the same ``--tournament`` resumes it: the round's tables come back from their
  own journals (:mod:`host.recovery`) and are found by their journal's name (by table id and
  entrants if the host stopped before it wrote ``journals``; a table that is gone then is
  seated again and started); a table whose journal was closed while the host was down counts
  with the outcome written there, one that cannot be recovered counts as not finished (no
  points). A finished event's journal is renamed ``<time>-<game>.journal`` beside it.
- **Results** (``results``, a ``.json`` path): the event, the entrants (with their key
  fingerprints), every game (round, table, entrants in seat order, outcome, ranking points,
  journal, revealed seed and salt, commitment) and the standings after each round; rewritten
  after every round; at the end a CSV of the final standings beside it (``.csv``).
"""

from __future__ import annotations

import asyncio
import csv
import hashlib
import io
import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hexnet.tournament import (
    History,
    Result,
    Round,
    Standing,
    TournamentError,
    bye_points,
    knockout_over,
    standings_lines,
    table_points,
)
from host.core import LobbyError, TableOver, TableStarted, unique_name
from host.journal import Journal, JournalContents, JournalError, read_records
from protocol import messages, traffic
from protocol.paths import private_dir

if TYPE_CHECKING:
    from host.server import Host

EVENTS_DIR = "events"
CURRENT = "current.journal"
PAUSE = 5.0  # seconds between a round's end and the next round's draw
STATUSES = ("registering", "playing", "between", "over")
# Options every table of a tournament gets unless the organiser sets them (``--option``), where
# the game declares them: every decision is timed, so a player who is connected but idle cannot
# hold a round; when the time runs out the game makes the absent player's move for them
# (Hexenhammer, Hranice: ``turn_seconds``; Fang: its ``time_limits``).
TIMED = {"turn_seconds": 60, "time_limits": True}
CSV_FIELDS = ["rank", "name", "points", "games", "wins", "byes", "median_buchholz", "buchholz",
              "reached", "seed", "fingerprint"]


class EventError(Exception):
    """An event that cannot be run or resumed as asked (a sentence for the organiser)."""


@dataclass
class Entrant:
    """One entrant: a player bound to ``identity``, or a host-side bot (``identity`` None)."""

    name: str
    identity: bytes | None = None
    policy: str = "heuristic"

    @property
    def fingerprint(self) -> str | None:
        """The entrant's key fingerprint (hex SHA-256 of the public key), None for host bots."""
        return hashlib.sha256(self.identity).hexdigest() if self.identity else None


def planned_rounds(fmt: str, entrants: list[str], size: int, rounds: int | None) -> int:
    """The rounds the event plays (as ``hexnet tournament``'s,
    :func:`hexnet.ladder.planned_rounds`)."""
    from hexnet.tournament import planned_rounds as planned

    return planned(fmt, len(entrants), size, rounds, entrants)


def timed_options(game: str, options: dict[str, Any] | None) -> dict[str, Any]:
    """``options`` with :data:`TIMED`'s defaults the game declares and the organiser left out."""
    from hexnet.games import get_game
    from hexnet.options import specs

    declared = specs(get_game(game))
    return {**{k: v for k, v in TIMED.items() if k in declared}, **(options or {})}


class Director:
    """One tournament on one host. :meth:`load` (before the host starts), then :meth:`begin`
    (after: the tables it recovered are there)."""

    def __init__(self, host: Host, *, game: str, fmt: str, size: int,
                 rounds: int | None = None, bots: int = 0, bot_policy: str = "heuristic",
                 options: dict[str, Any] | None = None, results: str | Path | None = None,
                 start_when: int | None = None, start_at: float | None = None,
                 pause: float = PAUSE, log: Callable[[str], None] | None = None) -> None:
        self.host, self.lobby = host, host.lobby
        self.game, self.fmt, self.size = game, fmt, size
        self.rounds_asked, self.rounds = rounds, rounds or 0
        self.bots, self.bot_policy = bots, bot_policy
        self.options = timed_options(game, options)
        self.results = Path(results) if results else None
        self.start_when, self.start_at, self.pause = start_when, start_at, pause
        self.log = log or host.log
        self.dir = Path(host.data_dir) / EVENTS_DIR
        self.entrants: list[Entrant] = []
        self.history: History | None = None
        self.status = "registering"
        self.note = ""
        self.games: list[dict[str, Any]] = []  # every finished game, as the results list it
        self.after: list[dict[str, Any]] = []  # standings after each round
        self.tables: dict[int, tuple[int, int]] = {}  # playing table id → (round, table)
        self.journal_of: dict[int, str] = {}  # table id → its game journal
        self.started_at: float | None = None
        self.finished_at: float | None = None
        self.resumed = False
        self._round_tables: list[tuple[int, str]] = []  # the round's (table id, journal)
        self._journal: Journal | None = None
        self._handles: list[asyncio.TimerHandle] = []

    # -- life cycle ------------------------------------------------------------------------
    def load(self) -> None:
        """Open the event's journal: resume the unfinished one in ``data_dir/events`` (it must
        be the same event) or start a new one. Raises :class:`EventError`."""
        path = self.dir / CURRENT
        if path.exists():
            self._replay(path)
        else:
            private_dir(self.dir)
            self._journal = Journal.create(path, {
                "game": self.game, "format": self.fmt, "size": self.size,
                "rounds": self.rounds_asked, "options": self.options, "created": time.time()})
        self.host.requests["enter"] = self._enter
        self.host.add_connect_listener(self._welcome)
        self.host.add_listener(self._effects)

    def begin(self) -> None:
        """After the host started: carry on a resumed event, or open registration (host bots
        enter now; the start is armed)."""
        if self.resumed and self.history is not None:
            self._resume_round()
            return
        if self.resumed and self.status == "over":
            return
        have = {e.name for e in self.entrants if e.identity is None}
        for i in range(1, self.bots + 1):
            name = f"host bot {i}"
            if name not in have:
                self._add_entrant(Entrant(name, None, self.bot_policy))
        if self.start_at is not None:
            loop = asyncio.get_running_loop()
            self._handles.append(loop.call_later(max(0.0, self.start_at - time.time()),
                                                 self._start_due))
            self.log("tournament: starts at "
                     + time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(self.start_at)))
        self._publish()
        self._check_start()

    def close(self) -> None:
        """Stop timers and close the journal (the event stays resumable)."""
        for handle in self._handles:
            handle.cancel()
        self._handles.clear()
        if self._journal is not None:
            self._journal.close()
            self._journal = None

    # -- the journal -----------------------------------------------------------------------
    def _write(self, record: dict[str, Any]) -> None:
        if self._journal is None:
            return
        try:
            self._journal.append(record)  # fsynced: rare and small
        except (OSError, JournalError) as exc:
            self.log(f"tournament: JOURNAL WRITE FAILED: {exc}")

    def _replay(self, path: Path) -> None:
        try:
            records, torn = read_records(path)
        except JournalError as exc:
            raise EventError(f"the tournament journal {path} is unreadable: {exc}") from exc
        if not records or records[0].get("kind") != "header":
            raise EventError(f"the tournament journal {path} has no header")
        head = records[0]
        if (head.get("game"), head.get("format"), head.get("size")) != (
                self.game, self.fmt, self.size):
            raise EventError(
                f"{path} holds an unfinished {head.get('format')} tournament of "
                f"{head.get('game')} at tables of {head.get('size')}; run the same "
                "--tournament, --game and --table-size to resume it, or move the file away")
        if torn:
            self.log("tournament: a torn last journal record (cut off mid-write) was dropped")
        self.options = dict(head.get("options") or {})
        self.resumed = True
        try:
            self._apply_records(records[1:])
        except (KeyError, TypeError, ValueError) as exc:
            raise EventError(f"the tournament journal {path} holds a record this hexnet "
                             f"cannot read ({type(exc).__name__}: {exc}); move it away to "
                             "start a new event") from exc
        self._journal = Journal.reopen(JournalContents(header=head, path=path))
        self.log(f"tournament: resumed from {path} ({len(self.entrants)} entrants, "
                 f"{len(self.history.rounds) if self.history else 0} rounds drawn, "
                 f"{len(self.games)} games done)")

    def _apply_records(self, records: list[dict[str, Any]]) -> None:
        """Rebuild the event from its journal's records (after the header)."""
        for rec in records:
            kind = rec.get("kind")
            if kind == "entrant":
                ident = rec.get("identity")
                self.entrants.append(Entrant(str(rec["name"]),
                                             bytes(ident) if ident is not None else None,
                                             str(rec.get("policy") or "heuristic")))
            elif kind == "start":
                self._make_history([str(n) for n in rec["entrants"]], int(rec["rounds"]))
                self.started_at = float(rec.get("at", time.time()))
                self.status = "between"
            elif kind == "round" and self.history is not None:
                self.history.add_round(Round(int(rec["number"]),
                                             tuple(tuple(t) for t in rec["tables"]),
                                             tuple(rec["byes"])))
                self._round_tables = [(int(t), "") for t in rec["table_ids"]]
                self.status = "playing"
            elif kind == "journals" and self.history is not None:
                self._round_tables = [(int(t), str(j)) for t, j in
                                      zip(rec["table_ids"], rec["journals"], strict=True)]
            elif kind == "result" and self.history is not None:
                self._record(rec["game"], replaying=True)
            elif kind == "standings":
                self.after.append({"round": int(rec["round"]), "standings": rec["standings"]})
                self.status = "between"
            elif kind == "end":
                self.status = "over"

    # -- registration ----------------------------------------------------------------------
    def _add_entrant(self, entrant: Entrant) -> None:
        self.entrants.append(entrant)
        self._write({"kind": "entrant", "name": entrant.name, "identity": entrant.identity,
                     "policy": entrant.policy})
        who = f"key {entrant.fingerprint[:16]}" if entrant.fingerprint else "host bot"
        self.log(f"tournament: entrant {len(self.entrants)}: {entrant.name} ({who})")

    def entrant_of(self, identity: bytes) -> Entrant | None:
        """The entrant bound to ``identity``, or None."""
        return next((e for e in self.entrants if e.identity == identity), None)

    def _enter(self, conn_id: int, msg: dict[str, Any]) -> None:
        conn = self.lobby.conns.get(conn_id)
        if conn is None:
            return
        if self.entrant_of(conn.identity) is None:
            if self.status != "registering":
                self._error(conn_id, "registration_closed",
                            "The tournament has started; registration is closed.")
                return
            if len(self.entrants) >= messages.MAX_ENTRANTS:
                self._error(conn_id, "event_full", "The tournament has as many entrants as "
                            "it can take.")
                return
            taken = {e.name.casefold() for e in self.entrants}
            self._add_entrant(Entrant(unique_name(conn.name, taken), conn.identity))
            self._publish()
            self._check_start()
        else:
            self._publish([conn_id])

    def _error(self, conn_id: int, code: str, text: str) -> None:
        self.host.send_frame(conn_id, traffic.assemble(
            [("type", traffic.packed("error")), ("code", traffic.packed(code)),
             ("message", traffic.packed(text))], traffic.DOWN_CLASS))

    def _welcome(self, conn_id: int) -> None:
        self._publish([conn_id])

    # -- starting --------------------------------------------------------------------------
    def _start_due(self) -> None:
        self.start_at = time.time()  # due now: start as soon as the entrants can make it
        self._check_start()

    def _check_start(self) -> None:
        if self.status != "registering":
            return
        due = (self.start_when is not None and len(self.entrants) >= self.start_when) or (
            self.start_at is not None and time.time() >= self.start_at)
        if due:
            self.start()

    def start(self) -> bool:
        """The organiser starts the event now (True), unless the entrants cannot make it yet
        (False; the reason is logged and the start waits for the next entrant)."""
        if self.status != "registering":
            return False
        names = [e.name for e in self.entrants]
        try:
            rounds = planned_rounds(self.fmt, names, self.size, self.rounds_asked)
            self._make_history(names, rounds)
            assert self.history is not None
            if self.fmt == "knockout":
                self.history.next_round()  # a bracket that cannot be drawn is refused now
        except TournamentError as exc:
            self.history = None
            self.note = str(exc)
            self.log(f"tournament: cannot start yet: {exc}")
            self._publish()
            return False
        self.note = ""
        self.started_at = time.time()
        self._write({"kind": "start", "entrants": names, "rounds": self.rounds,
                     "at": self.started_at})
        self.log(f"tournament: {self.fmt} of {self.game} starts: {len(names)} entrants, "
                 f"{self.rounds} rounds, tables of {self.size}")
        self._next_round()
        return True

    def _make_history(self, names: list[str], rounds: int) -> None:
        from hexnet.games import get_game

        engine = get_game(self.game)
        self.history = History(names, self.size, self.fmt, bye_points(self.game, self.size),
                               engine.min_players)
        self.rounds = rounds

    # -- rounds ----------------------------------------------------------------------------
    def _over(self) -> bool:
        """Whether every round the event plays has been played."""
        assert self.history is not None
        if self.fmt == "knockout":
            return knockout_over(self.history)
        return len(self.history.rounds) >= self.rounds and self._round_complete()

    def _next_round(self) -> None:
        assert self.history is not None
        if self.status == "over":
            return
        if self._over():
            self._finish()
            return
        try:
            rnd = self.history.next_round()
        except TournamentError as exc:
            self.log(f"tournament: round {len(self.history.rounds) + 1} cannot be drawn: {exc}")
            self._finish()
            return
        ids: list[int] = []
        try:
            for i, names in enumerate(rnd.tables, 1):
                ids.append(self._seat_table(rnd.number, i, names))
        except LobbyError as exc:
            self.log(f"tournament: round {rnd.number} could not be seated: {exc.message}")
            self._finish()
            return
        # the round is journaled before its tables start, their journals right after: a crash
        # in between finds the tables by id (or seats them again), see _resume_round
        self.history.add_round(rnd)
        self._round_tables = [(tid, "") for tid in ids]
        self._write({"kind": "round", "number": rnd.number,
                     "tables": [list(t) for t in rnd.tables], "byes": list(rnd.byes),
                     "table_ids": ids})
        self._start_tables(ids)
        self._note_journals(rnd.number)
        self.status = "playing"
        lines = [f"tournament: round {rnd.number} of {self.rounds}:"]
        lines += [f"  table {tid}: {', '.join(names)}" for tid, names in zip(ids, rnd.tables,
                                                                             strict=True)]
        if rnd.byes:
            lines.append(f"  bye: {', '.join(rnd.byes)}")
        for line in lines:
            self.log(line)
        self._publish()

    def _seat_table(self, number: int, index: int, names: tuple[str, ...]) -> int:
        """Create table ``index`` of round ``number`` and seat its entrants (not started)."""
        by_name = {e.name: e for e in self.entrants}
        tid = self.lobby.create_table(self.game, len(names), self.options)
        for seat, name in enumerate(names):
            e = by_name[name]
            self.lobby.place(tid, seat, name, e.identity, e.policy)
        self.tables[tid] = (number, index)
        return tid

    def _start_tables(self, ids: list[int]) -> None:
        """Start the round's tables together; one that cannot start counts as not finished."""
        for tid in ids:
            try:
                self.lobby.start(tid)
            except LobbyError as exc:
                self.log(f"tournament: table {tid} cannot start: {exc.message}")
                asyncio.get_running_loop().call_soon(self._table_over, tid, None)

    def _note_journals(self, number: int) -> None:
        """Journal where the round's tables keep their own journals (known once started)."""
        self._round_tables = [(tid, journal or self.journal_of.get(tid, ""))
                              for tid, journal in self._round_tables]
        self._write({"kind": "journals", "number": number,
                     "table_ids": [tid for tid, _ in self._round_tables],
                     "journals": [journal for _, journal in self._round_tables]})

    def _resume_round(self) -> None:
        """After a restart: find the drawn round's unfinished tables, or go on."""
        assert self.history is not None
        if self.status == "over":  # the host stopped as the event ended
            self._write_results(final=True)
            self._put_away()
            self._publish()
            return
        if self.status != "playing" or not self.history.rounds:
            self._next_round()  # (one that is over ends there)
            return
        number = self.history.rounds[-1].number
        done = {r.table for r in self.history.results if r.round == number}
        names = {}  # journal file name (unique: time and random) → the table resumed from it
        rec = self.host.recorder
        if rec is not None:
            names = {path.name: tid for tid in self.lobby.tables
                     if (path := rec.path_of(tid)) is not None}
        unstarted = []
        for i, (old_id, journal) in enumerate(self._round_tables, 1):
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
        if unstarted:
            self._restart_tables(number, unstarted)
        self._publish()
        if self._round_complete():
            self._round_done()

    def _restart_tables(self, number: int, tables: list[tuple[int, int]]) -> None:
        """Tables of round ``number`` the host stopped before it knew their journals: one
        that came back (same id, same entrants) goes on, one still seating is started, one
        that is gone is seated again and started."""
        assert self.history is not None
        rnd = self.history.rounds[number - 1]
        start = []
        for index, old_id in tables:
            names = rnd.tables[index - 1]
            table = self.lobby.tables.get(old_id)
            if table is not None and [s.name for s in table.seats] == list(names) and (
                    table.status in ("open", "playing")):
                self.tables[old_id] = (number, index)
                if table.status == "open":
                    start.append(old_id)
                elif self.host.recorder is not None:
                    path = self.host.recorder.path_of(old_id)
                    self.journal_of[old_id] = str(path) if path else ""
                self._round_tables[index - 1] = (old_id, self.journal_of.get(old_id, ""))
                self.log(f"tournament: round {number} table {index} goes on as table {old_id}")
                continue
            try:
                tid = self._seat_table(number, index, names)
            except LobbyError as exc:
                self.log(f"tournament: round {number} table {index} cannot be seated again: "
                         f"{exc.message}; it counts as not finished")
                self._record(self._game_record(number, index, 0, names, None, "", None, None,
                                               ""))
                continue
            self._round_tables[index - 1] = (tid, "")
            start.append(tid)
            self.log(f"tournament: round {number} table {index} seated again as table {tid}")
        self._start_tables(start)
        self._note_journals(number)

    def _closed_while_down(self, number: int, index: int, journal: str) -> None:
        """A table of the round that did not come back: its journal's end, or no result."""
        from host.journal import read_journal

        names = self.history.rounds[number - 1].tables[index - 1] if self.history else ()
        if self.host.recorder is not None and journal:  # (the data dir may be named anew)
            journal = str(self.host.recorder.dir / Path(journal).name)
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
        self._record(self._game_record(number, index, 0, tuple(names), outcome, journal,
                                       head.get("seed"), head.get("salt"),
                                       head.get("commitment", "")))

    def _effects(self, effects: list[Any]) -> None:
        for e in effects:
            if isinstance(e, TableStarted) and e.table in self.tables:
                rec = self.host.recorder
                path = rec.path_of(e.table) if rec is not None else None
                self.journal_of[e.table] = str(path) if path else ""
            elif isinstance(e, TableOver) and e.table in self.tables:
                # after this change is carried out (a table may end as the round is seated)
                asyncio.get_running_loop().call_soon(self._table_over, e.table, e.outcome)

    def _table_over(self, tid: int, outcome: dict[str, Any] | None) -> None:
        where = self.tables.pop(tid, None)
        if where is None or self.history is None:
            return
        number, index = where
        table = self.lobby.tables.get(tid)
        names = self.history.rounds[number - 1].tables[index - 1]
        self._record(self._game_record(
            number, index, tid, names, outcome, self.journal_of.pop(tid, ""),
            table.seed if table else None, table.salt if table else None,
            table.commitment if table else ""))
        self.log(f"tournament: round {number} table {index} over: " + ", ".join(
            f"{n} {p:g}" for n, p in zip(names, self.games[-1]["points"], strict=True)))
        if self._round_complete():
            self._round_done()

    def _game_record(self, number: int, index: int, tid: int, names: tuple[str, ...],
                     outcome: dict[str, Any] | None, journal: str, seed: Any, salt: Any,
                     commitment: str) -> dict[str, Any]:
        failed = outcome is None
        points = [0.0] * len(names) if failed else table_points(self.game, outcome, len(names))
        return {"round": number, "table": index, "table_id": tid, "entrants": list(names),
                "outcome": _plain(outcome), "points": points, "failed": failed,
                "journal": journal, "seed": bytes(seed).hex() if seed else None,
                "salt": bytes(salt).hex() if salt else None, "commitment": commitment or ""}

    def _record(self, game: dict[str, Any], replaying: bool = False) -> None:
        assert self.history is not None
        winners = set((game.get("outcome") or {}).get("winners", []))
        self.history.record(Result(int(game["round"]), int(game["table"]),
                                   tuple(game["entrants"]),
                                   tuple(float(p) for p in game["points"]),
                                   tuple(s for s in range(len(game["entrants"]))
                                         if s in winners),
                                   bool(game["failed"])))
        self.games.append(game)
        if not replaying:
            self._write({"kind": "result", "game": game})

    def _round_complete(self) -> bool:
        assert self.history is not None
        if not self.history.rounds:
            return False
        rnd = self.history.rounds[-1]
        done = {r.table for r in self.history.results if r.round == rnd.number}
        return len(done) >= len(rnd.tables)

    def _round_done(self) -> None:
        assert self.history is not None
        number = self.history.rounds[-1].number
        rows = self.standings_rows()
        if not self.after or self.after[-1]["round"] != number:
            self.after.append({"round": number, "standings": rows})
            self._write({"kind": "standings", "round": number, "standings": rows})
        self.log(f"tournament: standings after round {number} of {self.rounds}:")
        for line in standings_lines(rows, self.fmt):
            self.log("  " + line)
        if self._over():
            self._finish()
            return
        self.status = "between"
        self._write_results()
        self._publish()
        loop = asyncio.get_running_loop()
        self._handles.append(loop.call_later(self.pause, self._next_round))

    def _finish(self) -> None:
        self.status = "over"
        self.finished_at = time.time()
        self._write({"kind": "end"})
        self._write_results(final=True)
        self._publish()
        rows = self.standings_rows()
        winner = rows[0]["name"] if rows else "nobody"
        self.log(f"tournament: over; {winner} wins")
        self._put_away()

    def _put_away(self) -> None:
        """Close the finished event's journal and keep it as ``<time>-<game>.journal``."""
        if self._journal is not None:
            path = self._journal.path
            self._journal.close()
            self._journal = None
            stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
            try:
                os.replace(path, path.with_name(f"{stamp}-{self.game}.journal"))
            except OSError as exc:
                self.log(f"tournament: journal not put away: {exc}")

    # -- standings, results ----------------------------------------------------------------
    def standings_rows(self) -> list[dict[str, Any]]:
        """The standings now, one map per entrant (rank order)."""
        if self.history is None:
            return []
        return [_row(s) for s in self.history.standings()]

    def results_data(self) -> dict[str, Any]:
        """Everything the results file holds."""
        fps = {e.name: e.fingerprint for e in self.entrants}
        order = self.history.entrants if self.history else [e.name for e in self.entrants]
        kinds = {e.name: ("player" if e.identity else "host bot") for e in self.entrants}
        return {
            "event": {"game": self.game, "format": self.fmt, "table_size": self.size,
                      "rounds": self.rounds, "options": self.options, "status": self.status,
                      "started": _iso(self.started_at), "finished": _iso(self.finished_at)},
            "entrants": [{"seed": i, "name": n, "kind": kinds.get(n, "player"),
                          "fingerprint": fps.get(n)} for i, n in enumerate(order, 1)],
            "rounds": [{"number": r.number, "tables": [list(t) for t in r.tables],
                        "byes": list(r.byes),
                        "standings": next((a["standings"] for a in self.after
                                           if a["round"] == r.number), None)}
                       for r in (self.history.rounds if self.history else [])],
            "games": self.games,
            "standings": self.standings_rows(),
        }

    def _write_results(self, final: bool = False) -> None:
        if self.results is None:
            return
        try:
            _atomic(self.results, json.dumps(self.results_data(), indent=1) + "\n")
            if final:
                out = io.StringIO()
                writer = csv.DictWriter(out, CSV_FIELDS, extrasaction="ignore",
                                        lineterminator="\n")
                writer.writeheader()
                fps = {e.name: e.fingerprint or "" for e in self.entrants}
                for row in self.standings_rows():
                    writer.writerow({**row, "fingerprint": fps.get(row["name"], "")})
                _atomic(self.results.with_suffix(".csv"), out.getvalue())
                self.log(f"tournament: results in {self.results} and "
                         f"{self.results.with_suffix('.csv')}")
        except OSError as exc:
            self.log(f"tournament: results not written: {exc}")

    # -- telling the clients ---------------------------------------------------------------
    def message(self, you: str | None) -> dict[str, Any]:
        """The ``tournament`` message for a connection whose entrant is ``you``."""
        rows = self.after[-1]["standings"] if self.after else []
        msg = {"type": "tournament", "game": self.game, "format": self.fmt,
               "status": self.status,
               "round": len(self.history.rounds) if self.history else 0,
               "rounds": self.rounds,
               # the names once: as entrants until the first standings, then in those
               "entrants": [] if rows else [e.name for e in self.entrants],
               "standings": rows, "you": you}
        if self.note:
            msg["note"] = self.note[:300]
        return msg

    def _publish(self, conns: list[int] | None = None) -> None:
        """The event's state to ``conns`` (default: every connection), every frame of one
        padded length (public facts only; the traffic rule of :mod:`protocol.traffic`)."""
        targets = list(self.lobby.conns) if conns is None else conns
        per: dict[int, list[tuple[str, bytes]]] = {}
        for cid in targets:
            conn = self.lobby.conns.get(cid)
            if conn is None:
                continue
            entrant = self.entrant_of(conn.identity)
            msg = self.message(entrant.name if entrant else None)
            per[cid] = [(k, traffic.packed(v)) for k, v in msg.items()]
        if not per:
            return
        _, frames = traffic.pad_frames(per)
        for cid, data in frames.items():
            self.host.send_frame(cid, data)


def _row(s: Standing) -> dict[str, Any]:
    d = s.as_dict()
    return {k: d[k] for k in ("rank", "name", "points", "games", "wins", "byes", "buchholz",
                              "median_buchholz", "reached", "seed")}


def _plain(value: Any) -> Any:
    """``value`` with bytes as hex and tuples as lists (JSON and msgpack alike)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, bytes):
        return value.hex()
    return value


def _iso(t: float | None) -> str | None:
    return None if t is None else time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


def _atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file, fsynced, then renamed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)
