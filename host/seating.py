"""Who sits where (part of the sans-I/O core): sitting and leaving, bots in seats, a tournament's
placing, kicks, absence, a player's return to the seat a bot kept, and moving between a seat and
watching.

Rules kept here:
* one seat per player (:meth:`host.people.People.where`); a player playing at one table cannot
  sit, create or watch elsewhere until they leave it;
* only the host (:meth:`Seating.add_bot` from its own code) may give an absent seat to a bot,
  which keeps it for its player: the player's return (connect or sit) takes it back
  (:meth:`Seating.reclaim`) — unless they play at another table meanwhile;
* at a playing table a player who leaves stays bound to the seat (absent: the engine's default
  answers for it; sitting again resumes it); one kicked by the host, or who left to watch,
  leaves a *free* seat (absent, bound to nobody) that anyone may take;
* what would change nothing changes nothing (``sit`` in one's own seat while there, ``leave``
  while absent: no frame, no journal record); a player's ``leave`` and return at a playing table
  are paid from its presence budget, taking a free seat there from its budget for the others
  (:mod:`host.budget`) — ``too_often`` past them.
"""

from __future__ import annotations

from hexnet.games import get_policy
from host.changes import Changes
from host.conn import Conn
from host.core import Close, LobbyError, Outbox
from host.marks import LobbyMarks
from host.people import People
from host.playing import Play
from host.presence import Presence
from host.registry import Registry
from host.table import Table
from host.watchers import Watchers


class Seating:
    """Moves players and bots in and out of seats; the seats themselves are the tables'."""

    def __init__(self, out: Outbox, registry: Registry, people: People, changes: Changes,
                 marks: LobbyMarks, presence: Presence, play: Play, watchers: Watchers) -> None:
        self.out = out
        self.registry = registry
        self.people = people
        self.changes = changes
        self.marks = marks
        self.presence = presence
        self.play = play
        self.watchers = watchers

    def check_can_move(self, conn: Conn, to: Table | None = None) -> None:
        """``playing`` if ``conn``'s player plays at a table other than ``to``."""
        here = self.people.where(conn.identity)
        if here is not None and here[0] is not to and here[0].status == "playing":
            raise LobbyError("playing", f"You are playing at table {here[0].id}; leave it first.")

    def seat_human(self, conn: Conn, table: Table, seat: int) -> None:
        """Seat ``conn``'s player in empty ``seat`` of open ``table`` (leaving any open one)."""
        here = self.people.where(conn.identity)
        if here is not None and here[0].status == "open":
            here[0].seats[here[1]].clear()
            self.marks.changed(here[0])
        s = table.seats[seat]
        s.kind, s.name, s.identity, s.absent = "human", conn.name, conn.identity, False
        self.people.seated[conn.identity] = table.id
        if table.owner is None and table.owner_seat == seat:  # a host-made table's player
            table.owner = conn.identity

    def forget(self, conn: Conn) -> None:
        """``conn`` is gone (closed, replaced or kicked): it holds no connection, watches
        nothing; its seat stays bound to its identity."""
        self.people.forget(conn)
        self.watchers.forget(conn.id)

    # -- requests ----------------------------------------------------------------------------
    def sit(self, conn: Conn, table_id: int, seat: int | None) -> int:
        """Seat ``conn`` at ``table_id`` (first empty seat if ``seat`` is None); its seat.
        Sitting again in one's own seat at a playing table clears "absent"."""
        table = self.registry.get(table_id)
        if self.reclaim(conn.identity, only=table) is not None:
            self.marks.changed(table)
        mine = table.seat_of(conn.identity)
        if mine is not None and (seat is None or seat == mine):
            if table.seats[mine].absent:  # back in one's seat (else: nothing to do)
                self.check_can_move(conn, table)
                self._check_presence(conn, table)
                table.seats[mine].absent = table.seats[mine].absent_auto = False
                self.presence.seat_back(table, mine)
                self.play.advance(table)
                self.marks.changed(table)
                if table.state is not None:
                    self.changes.resync(table, mine)
            self.out.flush()
            return mine
        if table.status == "playing":  # a free seat
            seat = self._take_free_seat(conn, table, seat)
            self.watchers.drop(conn.id)
            self.marks.changed(table)
            self.out.flush()
            return seat
        if table.status != "open":
            raise LobbyError("not_open", f"Table {table_id} has already started.")
        self.check_can_move(conn)
        seat = table.free_seat(seat)
        self.seat_human(conn, table, seat)
        self.watchers.drop(conn.id)
        self.marks.changed(table)
        self.out.flush()
        return seat

    def _take_free_seat(self, conn: Conn, table: Table, seat: int | None) -> int:
        """A watcher (or anyone in the lobby) takes a free seat of a playing table: one the host
        removed its player from. Its name stays the one the game knows."""
        free = [i for i, s in enumerate(table.seats)
                if s.kind == "human" and s.identity is None]
        if seat is None and free:
            seat = free[0]
        if seat is None or seat not in free:
            raise LobbyError("not_open", f"Table {table.id} has already started.")
        self.check_can_move(conn)
        if not conn.budget.spend():  # every seat gets a frame
            raise LobbyError("too_often", "You change seats too often; wait a moment.")
        here = self.people.where(conn.identity)
        if here is not None and here[0].status == "open":
            here[0].seats[here[1]].clear()
            self.marks.changed(here[0])
        s = table.seats[seat]
        s.identity, s.absent, s.absent_auto = conn.identity, False, False
        self.people.seated[conn.identity] = table.id
        self.changes.resync(table, seat)
        self.play.advance(table)
        return seat

    def leave(self, conn: Conn) -> None:
        """Give up one's seat: empty at an open table; marked absent (still bound, so sitting
        again resumes it) at a playing one."""
        here = self.people.where(conn.identity)
        if here is None:
            raise LobbyError("not_seated", "You are not at a table.")
        table, seat = here
        if table.status == "open":
            table.seats[seat].clear()
            self.marks.changed(table)
        elif not table.seats[seat].absent:  # (absent already: nothing to do)
            self._check_presence(conn, table)
            self.mark_absent(table.id, seat, by_player=True)
        self.out.flush()

    def _check_presence(self, conn: Conn, table: Table) -> None:
        """``too_often`` if ``conn``'s player, at playing ``table``, has spent its presence
        budget (:mod:`host.budget`): its ``leave`` or return would change nothing now."""
        if table.status == "playing" and not self.presence.may_change(conn.identity):
            raise LobbyError("too_often", "You come and go too often; wait a few seconds.")

    def watch(self, conn: Conn, table_id: int) -> None:
        """``conn`` watches ``table_id`` from now on (stops watching any other). At the table it
        plays at, it leaves its seat first (the seat becomes free)."""
        table = self.watchers.admit(conn, table_id)
        if table is None:
            return
        here = self.people.where(conn.identity)
        if here is not None:  # a player leaves their seat to watch (this table or another)
            at, seat = here[0], here[0].seats[here[1]]
            if at.status == "playing":  # only at this very table (admit checked it)
                seat.identity, seat.absent, seat.absent_auto = None, True, False
                self.play.advance(at)
            else:
                seat.clear()
            self.people.seated.pop(conn.identity, None)
            self.marks.changed(at)
        self.watchers.add(conn, table)
        self.out.flush()

    # -- bots and the host's own seating ------------------------------------------------------
    def add_bot(self, table_id: int, seat: int | None = None, policy: str = "normal",
                by_host: bool = True) -> int:
        """A host-side bot in ``seat`` (first empty one if None): at an open table an empty
        seat; at a playing table — the host's decision only (``by_host``), never a player's —
        it may replace an absent human, keeping the seat for them: when they come back
        (connect or sit) the seat is theirs again. Returns the seat."""
        table = self.registry.get(table_id)
        try:
            get_policy(table.game_name, policy)
        except KeyError as exc:
            raise LobbyError("bad_policy", str(exc.args[0])) from exc
        if table.status == "playing" and seat is not None and 0 <= seat < len(table.seats) and (
                table.seats[seat].absent):
            if not by_host:
                raise LobbyError("host_only", "Only the host may give an absent player's seat "
                                 "to a bot; the seat waits for its player.")
        elif table.status != "open":
            raise LobbyError("not_open", f"Table {table_id} has already started.")
        else:
            seat = table.free_seat(seat)
        assert seat is not None
        s = table.seats[seat]
        name = (s.name if s.kind == "human"
                else self.people.unique_name(f"bot {seat + 1}", None, table))
        reserved = s.identity if s.kind == "human" else None
        s.clear()
        s.kind, s.name, s.policy, s.reserved = "bot", name, policy, reserved
        self.people.note_bots(table)
        if table.status == "playing":
            self.presence.log(table, seat, "bot")
        self.marks.changed(table)
        if table.status == "playing":
            self.play.advance(table)
        self.out.flush()
        return seat

    def reclaim(self, identity: bytes, only: Table | None = None) -> Table | None:
        """A player returns: a bot standing in for them gives their seat back (a seat they
        took meanwhile at a table still seating is freed; while they play at another table —
        one a tournament seated them at — the bot keeps standing in: one seat per player).
        The table, if so."""
        table = self.people.stand_in(identity)
        here = self.people.where(identity)
        if here is not None and here[0] is not table and here[0].status == "playing":
            return None  # one seat per player: the bot stands in until that table is over
        if table is not None and (only is None or only is table):
            seat = table.reserved_seat(identity)
            assert seat is not None
            self.people.stood_down(identity)
            if here is not None and here[0] is not table and here[0].status == "open":
                here[0].seats[here[1]].clear()
                self.marks.changed(here[0])
            s = table.seats[seat]
            s.kind, s.identity, s.policy, s.reserved = "human", identity, None, None
            s.absent = s.absent_auto = False
            self.people.seated[identity] = table.id
            self.presence.seat_back(table, seat)
            self.play.advance(table)
            return table
        return None

    def place(self, table_id: int, seat: int, name: str, identity: bytes | None = None,
              policy: str = "heuristic") -> None:
        """(The host's own code: a tournament's seating, :mod:`host.event`) Put an entrant in
        empty ``seat`` of an open table under ``name``: the player of ``identity`` — seated
        whether connected or not; one who is away is absent until they connect — or, without
        ``identity``, a host-side bot playing ``policy``."""
        table = self.registry.get(table_id)
        if table.status != "open":
            raise LobbyError("not_open", f"Table {table_id} has already started.")
        s = table.seats[table.free_seat(seat)]
        if identity is None:
            s.kind, s.name, s.policy = "bot", name, policy
        else:
            here = self.people.where(identity)
            if here is not None and here[0] is not table:  # one seat per player: this one
                self._give_up(here[0], here[1])
            s.kind, s.name, s.identity = "human", name, identity
            s.absent = s.absent_auto = identity not in self.people.by_identity
            self.people.seated[identity] = table.id

    def _give_up(self, table: Table, seat: int) -> None:
        """The player of ``seat`` is seated elsewhere by the host (:meth:`place`): a seat at a
        table still seating is emptied, one at a playing table is left as :meth:`leave` leaves
        it (absent, still bound: the game's absent rules play it; taking it back waits until
        the other table is over)."""
        if table.status == "open":
            table.seats[seat].clear()
        elif table.status == "playing" and not table.seats[seat].absent:
            table.seats[seat].absent = True
            table.away_until.pop(seat, None)
            self.presence.log(table, seat, "absent")
            self.play.advance(table)
        self.marks.changed(table)

    def mark_absent(self, table_id: int, seat: int, absent: bool = True,
                    by_player: bool = False) -> None:
        """Mark a human seat absent (the engine's default answers for it) or back: the host's
        decision, or (``by_player``) the player's own ``leave``, logged within its presence
        budget."""
        table = self.registry.get(table_id)
        if not 0 <= seat < len(table.seats) or table.seats[seat].kind != "human":
            raise LobbyError("no_seat", f"Seat {seat} at table {table_id} has no human.")
        was = table.seats[seat].absent
        table.seats[seat].absent = absent
        if absent and not was:
            table.away_until.pop(seat, None)
            if not by_player or self.presence.by_player(table, seat):
                self.presence.log(table, seat, "absent")
        elif was and not absent:
            table.seats[seat].absent_auto = False
            self.presence.seat_back(table, seat, by_player=by_player)
        self.marks.changed(table)
        self.play.advance(table)
        self.out.flush()

    def kick(self, table_id: int, seat: int) -> None:
        """Remove the human in ``seat``: their connection is closed; an open table frees the
        seat, a playing one keeps it absent and unbound (add a bot to replace them)."""
        table = self.registry.get(table_id)
        if not 0 <= seat < len(table.seats) or table.seats[seat].kind != "human":
            raise LobbyError("no_seat", f"Seat {seat} at table {table_id} has no human.")
        s = table.seats[seat]
        conn = self.people.conn_of(s.identity)
        if conn is not None:
            self.forget(conn)
            self.out.emit(Close(conn.id, "kicked", "The host removed you from the table."))
        if table.status == "open":
            s.clear()
        else:
            if not s.absent:
                self.presence.log(table, seat, "absent")
            s.identity, s.absent = None, True
            table.away_until.pop(seat, None)
        self.marks.changed(table)
        self.play.advance(table)
        self.out.flush()
