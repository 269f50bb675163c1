"""The host's tournament director (issue 13): entrants over the network, rounds, standings.

``hexnet host --headless --tournament swiss|round-robin|knockout --game G`` runs one event on
the host. The pairing, ranking points and standings are :mod:`hexnet.tournament`'s; the
director runs the event's course and tells every client where it stands, with parts that own
the rest: :mod:`host.entrants` (registration), :mod:`host.rounds` (each round's tables),
:mod:`host.results` (games, standings, the results file) and :mod:`host.event_journal` (the
event's own journal, from which a restarted host resumes it).

- **Start**: when ``start_when`` entrants are in, at ``start_at`` (a wall-clock time), or when
  :meth:`Director.start` is called (the organiser: ``SIGUSR1`` to the headless host); an
  event the entrants cannot make yet (too few for a table, a bracket that does not fit) waits
  for more and says why in the log.
- **Rounds**: each round is drawn by :meth:`hexnet.tournament.History.next_round`, seated and
  started together (:data:`TIMED`: every decision is timed). When the last table ends the
  standings go to every connection (a ``tournament`` message, padded like the table frames),
  to the log as plain lines and to the results file; after ``pause`` seconds the next round is
  drawn.
- **Ratings** (a host keeping history, :mod:`host.club`): as the club rates each of the event's
  games, its entrants' ratings before and after go with its record (journaled), and the
  standings sent and written carry each entrant's rating and its change over the event
  (:meth:`host.results.Results.with_ratings`). ``seed_by_rating`` orders the entrants by
  their rating in the game (newcomers as such) before the first round is drawn — the seeds a
  Swiss first round and a knockout bracket are made from.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hexnet.tournament import Round, TournamentError, standings_lines
from host.bulletin import Bulletin
from host.core import LobbyError, TableOver, TableStarted
from host.entrants import ENTRANTS_PER_ADDRESS, Entrant, Registration
from host.event_journal import CURRENT, EVENTS_DIR, EventError, EventJournal
from host.journalcheck import Unusable
from host.results import Results, iso
from host.rounds import Rounds

if TYPE_CHECKING:
    from host.server import Host

__all__ = ["CURRENT", "EVENTS_DIR", "TIMED", "Director", "Entrant", "EventError",
           "planned_rounds", "timed_options"]

PAUSE = 5.0  # seconds between a round's end and the next round's draw
STATUSES = ("registering", "playing", "between", "over")
# Options every table of a tournament gets unless the organiser sets them (``--option``), where
# the game declares them: every decision is timed, so a player who is connected but idle cannot
# hold a round; when the time runs out the game makes the absent player's move for them
# (Hexenhammer, Hranice: ``turn_seconds``; Fang: its ``time_limits``).
TIMED = {"turn_seconds": 60, "time_limits": True}


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


def replay(records: list[dict[str, Any]], registration: Registration, results: Results,
           rounds: Rounds, status: str) -> tuple[str, float | None]:
    """Rebuild an event's parts from its journal's records (after the header); its status and
    start time."""
    history, started_at = None, None
    for rec in records:
        kind = rec.get("kind")
        if kind == "entrant":
            registration.restore(rec)
        elif kind == "start":
            results.make_history([str(n) for n in rec["entrants"]], int(rec["rounds"]))
            history = results.history
            started_at = float(rec.get("at", time.time()))
            status = "between"
        elif kind == "round" and history is not None:
            history.add_round(Round(int(rec["number"]), tuple(tuple(t) for t in rec["tables"]),
                                    tuple(rec["byes"])))
            rounds.current = [(int(t), "") for t in rec["table_ids"]]
            status = "playing"
        elif kind == "journals" and history is not None:
            rounds.current = [(int(t), str(j)) for t, j in
                                   zip(rec["table_ids"], rec["journals"], strict=True)]
        elif kind == "result" and history is not None:
            results.record(rec["game"], replaying=True)
        elif kind == "rating":
            results.rate(str(rec["commitment"]), rec["ratings"], replaying=True)
        elif kind == "standings":
            results.after.append({"round": int(rec["round"]), "standings": rec["standings"]})
            status = "between"
        elif kind == "end":
            status = "over"
    return status, started_at


class Director:
    """One tournament on one host: its course (registering → rounds → over) and what every
    client is told of it. :meth:`load` (before the host starts), then :meth:`begin` (after: the
    tables it recovered are there)."""

    def __init__(self, host: Host, *, game: str, fmt: str, size: int,
                 rounds: int | None = None, bots: int = 0, bot_policy: str = "heuristic",
                 options: dict[str, Any] | None = None, results: str | Path | None = None,
                 start_when: int | None = None, start_at: float | None = None,
                 pause: float = PAUSE, log: Callable[[str], None] | None = None,
                 entrants_per_address: int = ENTRANTS_PER_ADDRESS,
                 seed_by_rating: bool = False) -> None:
        self.host, self.lobby = host, host.lobby
        self.game, self.fmt, self.size = game, fmt, size
        self.rounds_asked = rounds
        self.bots, self.bot_policy = bots, bot_policy
        self.start_when, self.start_at, self.pause = start_when, start_at, pause
        self.seed_by_rating = seed_by_rating
        self.log = log or host.log
        self.status = "registering"
        self.note = ""
        self.started_at: float | None = None
        self.finished_at: float | None = None
        self.resumed = False
        self._handles: list[asyncio.TimerHandle] = []
        self.journal = EventJournal(host.data_dir, self.log)
        self.entrants_per_address = entrants_per_address
        self.results_path = results
        self.options_asked = timed_options(game, options)  # (a resumed event keeps its own)
        self._parts(self.options_asked)

    def _parts(self, options: dict[str, Any]) -> None:
        """The event's parts, empty (every table of it gets ``options``)."""
        self.registration = Registration(self.journal, self.log, self.entrants_per_address,
                                         self.lobby.people.bind_name)
        self.results = Results(self.game, self.fmt, self.size, self.rounds_asked or 0,
                               self.registration, self.journal, self.results_path, self.log)
        self.rounds = Rounds(self.host.lobby, self.host.recorder, self.game, options,
                             self.registration, self.results, self.journal, self.log)
        self.bulletin = Bulletin(self.host, self.registration, self.message)

    @property
    def entrants(self) -> list[Entrant]:
        """The entrants, in the order they entered."""
        return self.registration.entrants

    @property
    def tables(self) -> dict[int, tuple[int, int]]:
        """The event's playing tables: table id → (round, table)."""
        return self.rounds.tables

    # -- life cycle ------------------------------------------------------------------------
    def load(self) -> None:
        """Open the event's journal: resume the unfinished one in ``data_dir/events`` (it must
        be the same event: else :class:`EventError`) or start a new one — also when the one
        there cannot be resumed (it is set aside: :mod:`host.event_journal`)."""
        if self.journal.exists():
            try:
                self._resume()
            except Unusable as exc:
                self.journal.set_aside(exc)
                self._parts(self.options_asked)
                self.status, self.started_at, self.resumed = "registering", None, False
        if not self.resumed:
            self.journal.create({
                "game": self.game, "format": self.fmt, "size": self.size,
                "rounds": self.rounds_asked, "options": self.rounds.options,
                "created": time.time()})
        self.host.requests["enter"] = self._enter
        self.lobby.hosts_event = True  # its rounds' tables: never paused nor played again
        self.host.add_connect_listener(self._welcome)
        self.host.add_listener(self._effects)
        self.host.history.indexed.append(self._rated)

    def begin(self) -> None:
        """After the host started: carry on a resumed event, or open registration (host bots
        enter now; the start is armed)."""
        if self.resumed and self.results.history is not None:
            self._resume_round()
            return
        if self.resumed and self.status == "over":
            return
        self.registration.add_host_bots(self.bots, self.bot_policy)
        if self.start_at is not None:
            loop = asyncio.get_running_loop()
            self._handles.append(loop.call_later(max(0.0, self.start_at - time.time()),
                                                 self._start_due))
            self.log("tournament: starts at "
                     + time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(self.start_at)))
        self.bulletin.publish()
        self._check_start()

    def close(self) -> None:
        """Stop timers and close the journal (the event stays resumable)."""
        if self._rated in self.host.history.indexed:
            self.host.history.indexed.remove(self._rated)
        for handle in self._handles:
            handle.cancel()
        self._handles.clear()
        self.journal.close()

    def _resume(self) -> None:
        """Take the unfinished event back from its journal (:class:`Unusable` if it cannot
        be: the caller sets it aside)."""
        head, records = self.journal.read(self.game, self.fmt, self.size)
        self.rounds.options = dict(head["options"])
        try:
            self.status, self.started_at = replay(records, self.registration, self.results,
                                                  self.rounds, self.status)
        except Exception as exc:  # noqa: BLE001 - whatever a crafted record makes them do
            raise Unusable("unplayable", f"a record cannot be taken back: "
                           f"{type(exc).__name__}: {str(exc)[:160]}") from exc
        self.resumed = True
        self.journal.reopen(head)
        history = self.results.history
        drawn = len(history.rounds) if history else 0
        self.log(f"tournament: resumed from {self.journal.path} ({len(self.entrants)} "
                 f"entrants, {drawn} round{'' if drawn == 1 else 's'} drawn, "
                 f"{len(self.results.games)} games done)")

    # -- registration ----------------------------------------------------------------------
    def _enter(self, conn_id: int, msg: dict[str, Any]) -> None:
        conn = self.lobby.conns.get(conn_id)
        if conn is None:
            return
        if self.registration.entrant_of(conn.identity) is None:
            if self.status != "registering":
                self.bulletin.error(conn_id, "registration_closed",
                            "The tournament has started; registration is closed.")
                return
            refused = self.registration.enter(conn.name, conn.identity, conn.address)
            if refused is not None:
                self.bulletin.error(conn_id, *refused)
                return
            self.bulletin.publish()
            self._check_start()
        else:
            self.bulletin.publish([conn_id])

    def _welcome(self, conn_id: int) -> None:
        self.bulletin.publish([conn_id])

    # -- the course ------------------------------------------------------------------------
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
        names = self.registration.names()
        if self.seed_by_rating:  # (the ratings as the host last read them)
            names, line = self.registration.by_rating(self.host.history.board, self.game)
            self.log(f"tournament: seeded by rating: {line}")
        try:
            rounds = planned_rounds(self.fmt, names, self.size, self.rounds_asked)
            self.results.make_history(names, rounds)
            assert self.results.history is not None
            if self.fmt == "knockout":
                self.results.history.next_round()  # a bracket that cannot be drawn is refused
        except TournamentError as exc:
            self.results.history = None
            self.note = str(exc)
            self.log(f"tournament: cannot start yet: {exc}")
            self.bulletin.publish()
            return False
        self.note = ""
        self.started_at = time.time()
        self.journal.write({"kind": "start", "entrants": names, "rounds": self.results.rounds,
                            "at": self.started_at})
        self.log(f"tournament: {self.fmt} of {self.game} starts: {len(names)} entrants, "
                 f"{self.results.rounds} round{'' if self.results.rounds == 1 else 's'}, "
                 f"tables of {self.size}")
        self._next_round()
        return True

    def _next_round(self) -> None:
        history = self.results.history
        assert history is not None
        if self.status == "over":
            return
        if self.results.over():
            self._finish()
            return
        try:
            rnd = history.next_round()
        except TournamentError as exc:
            self.log(f"tournament: round {len(history.rounds) + 1} cannot be drawn: {exc}")
            self._finish()
            return
        try:
            ids = self.rounds.seat_round(rnd)
        except LobbyError as exc:
            self.log(f"tournament: round {rnd.number} could not be seated: {exc.message}")
            self._finish()
            return
        self.rounds.drawn(rnd, ids)
        self._not_started(self.rounds.start_tables(ids))
        self.rounds.note_journals(rnd.number)
        self.status = "playing"
        self.rounds.log_round(rnd, ids)
        self.bulletin.publish()

    def _not_started(self, ids: list[int]) -> None:
        """Tables of the round that could not start count as not finished (once this change
        is carried out)."""
        for tid in ids:
            asyncio.get_running_loop().call_soon(self._table_over, tid, None)

    def _resume_round(self) -> None:
        """After a restart: find the drawn round's unfinished tables, or go on."""
        history = self.results.history
        assert history is not None
        if self.status == "over":  # the host stopped as the event ended
            self.results.write(event_fields(self), final=True)
            self.journal.put_away(self.game)
            self.bulletin.publish()
            return
        if self.status != "playing" or not history.rounds:
            self._next_round()  # (one that is over ends there)
            return
        self._not_started(self.rounds.find_again(history.rounds[-1].number))
        self.bulletin.publish()
        if self.results.round_complete():
            self._round_done()

    def _effects(self, effects: list[Any]) -> None:
        for e in effects:
            if isinstance(e, TableStarted):
                self.rounds.started(e.table)
            elif isinstance(e, TableOver) and e.table in self.tables:
                # after this change is carried out (a table may end as the round is seated)
                asyncio.get_running_loop().call_soon(self._table_over, e.table, e.outcome)

    def _table_over(self, tid: int, outcome: dict[str, Any] | None) -> None:
        where = self.rounds.ended(tid, outcome)
        if where is None:
            return
        game = self.results.games[-1]
        self.log(f"tournament: round {where[0]} table {where[1]} over: " + ", ".join(
            f"{n} {p:g}" for n, p in zip(game["entrants"], game["points"], strict=True)))
        if self.results.round_complete():
            self._round_done()

    def _round_done(self) -> None:
        assert self.results.history is not None
        number = self.results.history.rounds[-1].number
        rows = self.results.note_standings(number)
        self.log(f"tournament: standings after round {number} of {self.results.rounds}:")
        for line in standings_lines(rows, self.fmt):
            self.log("  " + line)
        if self.results.over():
            self._finish()
            return
        self.status = "between"
        self.results.write(event_fields(self))
        self.bulletin.publish()
        loop = asyncio.get_running_loop()
        self._handles.append(loop.call_later(self.pause, self._next_round))

    def _finish(self) -> None:
        self.status = "over"
        self.finished_at = time.time()
        self.journal.write({"kind": "end"})
        self.results.write(event_fields(self), final=True)
        self.bulletin.publish()
        rows = self.standings_rows()
        winner = rows[0]["name"] if rows else "nobody"
        self.log(f"tournament: over; {winner} wins")
        self.journal.put_away(self.game)

    def _rated(self, game: Any, changes: dict[str, Any]) -> None:
        """(The club rated a game) If it is one of the event's, its entrants' ratings go with
        its record, the results file and the standings."""
        if self.results.rate_game(game, changes):
            self.results.write(event_fields(self), final=self.status == "over")
            self.bulletin.publish()

    # -- standings, results, telling the clients ------------------------------------------
    def standings_rows(self) -> list[dict[str, Any]]:
        """The standings now, one map per entrant (rank order)."""
        return self.results.standings_rows()

    def results_data(self) -> dict[str, Any]:
        """Everything the results file holds."""
        return self.results.data(event_fields(self))

    def message(self, you: str | None) -> dict[str, Any]:
        """The ``tournament`` message for a connection whose entrant is ``you``."""
        return tournament_message(self, you)


def event_fields(director: Director) -> dict[str, Any]:
    """What the results file says of ``director``'s event itself (its game, format, state)."""
    return {"game": director.game, "format": director.fmt, "table_size": director.size,
            "rounds": director.results.rounds, "options": director.rounds.options,
            "status": director.status, "started": iso(director.started_at),
            "finished": iso(director.finished_at)}


def tournament_message(director: Director, you: str | None) -> dict[str, Any]:
    """The ``tournament`` message of ``director``'s event for a connection whose entrant is
    ``you``: its state and round, the names once (as entrants until the first standings, then
    in those), the latest standings with their entrants' ratings."""
    after = director.results.after
    rows = director.results.with_ratings(after[-1]["standings"]) if after else []
    history = director.results.history
    msg = {"type": "tournament", "game": director.game, "format": director.fmt,
           "status": director.status,
           "round": len(history.rounds) if history else 0,
           "rounds": director.results.rounds,
           "entrants": [] if rows else director.registration.names(),
           "standings": rows, "you": you}
    if director.note:
        msg["note"] = director.note[:300]
    return msg
