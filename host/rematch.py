"""Rematches (part of the sans-I/O core): after a game, the same table again.

Rules kept here:
* a player who sat at a finished table (not a tournament's) offers a rematch with ``rematch``
  {table, answer: yes}; every seat of the old table is in the offer: a player's answer is
  ``waiting`` until they say ``yes`` — ``no`` (or leaving: ``leave``, a goodbye, sitting down or
  creating a table elsewhere) gives their seat to a bot —, a bot stays a bot;
* the table's owner (its creator, or the player a host-made table was made for; else whoever
  offered first) may give every seat still waiting to a bot (``answer: bots``) once the offer
  is :data:`PATIENCE` seconds old;
* when every seat is ``yes`` or a bot, with at least one person among them, the new table is
  dealt: the same game, options, watching rules and owner, the seats shuffled (the host's
  operating-system generator), a new seed and commitment (:meth:`host.playing.Play.start`, as
  for any table). Its players' clients follow its first frame; the old table stays, over, with
  its results and its reveal, until the host drops finished tables. If every person said no,
  the offer is withdrawn;
* every change goes to each player of the old table who is still connected: H→C ``rematch``
  {table, status (open, started, withdrawn), seats [{seat, name, answer}], owner (seat or nil),
  wait (seconds before the owner may fill with bots), new_table}. A finished game hides nothing
  any more, so this is a message of its own;
* answers spend from their player's budget for the others (:mod:`host.budget`, at the pace of
  ``ask``: :data:`host.budget.ASK_BURST`, ``ASK_RATE``): each one reaches every player of the
  table.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from host.conn import Conn
from host.core import LobbyError, Outbox, Send
from host.marks import LobbyMarks
from host.people import People
from host.playing import Play
from host.registry import Registry
from host.table import Seat, Table
from host.watch_rules import RuleBook

PATIENCE = 30.0  # seconds before the owner may give the seats still waiting to bots
BOT_LEVEL = "normal"  # a player who does not come back is replaced by a bot of this level
ANSWERS = ("yes", "no", "bots")


@dataclass
class Offer:
    """A rematch offered at finished table ``table``: each old seat's answer (``yes``,
    ``waiting``, ``bot``), who may fill it with bots, since when, and how it ended."""

    table: int
    owner: bytes | None
    since: float
    answers: dict[int, str] = field(default_factory=dict)
    status: str = "open"  # open → started | withdrawn
    new_table: int | None = None


def player_of(seat: Seat) -> bytes | None:
    """The person a seat of a finished table belongs to (a bot standing in: its player)."""
    if seat.kind == "human":
        return seat.identity
    return seat.reserved if seat.kind == "bot" else None


class Rematches:
    """The rematch offers at finished tables, by the old table's id."""

    def __init__(self, out: Outbox, registry: Registry, people: People, marks: LobbyMarks,
                 rules: RuleBook, play: Play, clock: Callable[[], float],
                 in_event: Callable[[Table], bool]) -> None:
        self.out = out
        self.registry = registry
        self.people = people
        self.marks = marks
        self.rules = rules
        self.play = play
        self.clock = clock
        self.in_event = in_event
        self.offers: dict[int, Offer] = {}
        self.shuffle = random.SystemRandom().shuffle

    # -- requests ----------------------------------------------------------------------------
    def answer(self, conn: Conn, table_id: int, answer: str) -> None:
        """``conn``'s player answers ``yes``, ``no`` or (the owner) ``bots`` to a rematch of
        finished table ``table_id`` (a first ``yes`` offers it)."""
        table = self.registry.get(table_id)
        seat = next((i for i, s in enumerate(table.seats) if player_of(s) == conn.identity),
                    None)
        if seat is None:
            raise LobbyError("not_seated", f"Only the players of table {table_id} play it "
                                           "again.")
        if table.status != "over":
            raise LobbyError("not_over", f"Table {table_id} is not over yet.")
        if self.in_event(table):
            raise LobbyError("tournament", "A tournament's tables are not played again: the "
                                           "tournament seats its own rounds.")
        offer = self.offers.get(table_id)
        if offer is not None and offer.status == "started":
            raise LobbyError("rematch_started", f"The rematch is under way at table "
                                                f"{offer.new_table}.")
        if answer not in ANSWERS:
            raise LobbyError("bad_answer", "A rematch is answered yes, no or bots.")
        if not conn.budget.spend("ask"):
            raise LobbyError("asks_too_fast", "Too many requests at once; wait a moment.")
        if offer is None or offer.status != "open":
            if answer != "yes":
                raise LobbyError("no_rematch", "Nobody has offered a rematch of this table.")
            here = self.people.where(conn.identity)
            if here is not None:
                raise LobbyError("seated", f"You sit at table {here[0].id}; leave it first.")
            offer = self._offer(table, conn.identity)
        if answer == "bots":
            self._fill(offer, conn.identity)
        elif answer == "yes":
            if self.people.where(conn.identity) is not None:
                raise LobbyError("seated", "You sit at another table; leave it first.")
            offer.answers[seat] = "yes"
        else:
            offer.answers[seat] = "bot"
        self._settle(table, offer)

    def _offer(self, table: Table, offerer: bytes) -> Offer:
        owner = next((p for s in table.seats if (p := player_of(s)) is not None
                      and table.owned_by(p)), offerer)
        offer = Offer(table.id, owner, self.clock())
        for i, s in enumerate(table.seats):
            offer.answers[i] = "waiting" if player_of(s) is not None else "bot"
        self.offers[table.id] = offer
        return offer

    def _fill(self, offer: Offer, by: bytes) -> None:
        if by != offer.owner:
            raise LobbyError("not_owner", "Only the table's owner fills the silent seats with "
                                          "bots.")
        wait = self.wait(offer)
        if wait > 0:
            raise LobbyError("too_soon", f"Give them a moment: {wait} s more before their "
                                         "seats go to bots.")
        for seat, said in offer.answers.items():
            if said == "waiting":
                offer.answers[seat] = "bot"

    def wait(self, offer: Offer) -> int:
        """Whole seconds before the owner may fill the seats still waiting with bots."""
        return max(0, math.ceil(offer.since + PATIENCE - self.clock()))

    # -- players who go ----------------------------------------------------------------------
    def left(self, identity: bytes) -> bool:
        """``identity``'s player left (a goodbye, ``leave``, a seat taken elsewhere): each open
        offer gives their seat to a bot. Whether there was one."""
        found = False
        for offer in list(self.offers.values()):
            table = self.registry.tables.get(offer.table)
            if offer.status != "open" or table is None:
                continue
            for seat, s in enumerate(table.seats):
                if player_of(s) == identity and offer.answers.get(seat) != "bot":
                    offer.answers[seat] = "bot"
                    found = True
                    self._settle(table, offer)
        return found

    def moved(self, identity: bytes) -> None:
        """``identity``'s player may have sat down elsewhere: if so, they have left every open
        offer."""
        if self.people.where(identity) is not None:
            self.left(identity)

    def forget(self, table_id: int) -> None:
        """The old table is gone: so is its offer."""
        self.offers.pop(table_id, None)

    # -- the outcome -------------------------------------------------------------------------
    def _settle(self, table: Table, offer: Offer) -> None:
        """Deal the rematch once every seat said yes or is a bot; withdraw it once nobody who
        plays is left; tell the old table's players either way."""
        said = offer.answers.values()
        if all(a != "waiting" for a in said):
            if "yes" in said:
                offer.new_table = self._deal(table, offer)
                offer.status = "started"
            else:
                offer.status = "withdrawn"
                del self.offers[table.id]
        self.tell(table, offer)

    def _deal(self, old: Table, offer: Offer) -> int:
        """The new table, seated and started; its id (``too_many_tables`` while the host's
        unfinished tables fill it: the offer stays open, the next answer tries again)."""
        self.registry.crowding()
        new = self.registry.add(old.game_name, old.engine, len(old.seats), dict(old.options))
        new.creator, new.owner = old.creator, offer.owner
        new.creator_address = old.creator_address
        self.rules.set(new.id, self.rules.of(old.id))
        entries = list(range(len(old.seats)))
        self.shuffle(entries)
        for seat, was in zip(new.seats, entries, strict=True):
            before = old.seats[was]
            who = player_of(before)
            if offer.answers[was] == "yes" and who is not None:
                seat.kind, seat.name, seat.identity = "human", before.name, who
                seat.absent = seat.absent_auto = who not in self.people.by_identity
                self.people.seated[who] = new.id
            elif before.kind == "bot" and before.reserved is None:
                seat.kind, seat.name, seat.policy = "bot", before.name, before.policy
            else:
                seat.kind, seat.policy = "bot", BOT_LEVEL
        for i, seat in enumerate(new.seats):  # a player's seat given to a bot: a bot's name
            if seat.kind == "bot" and not seat.name:
                seat.name = self.people.unique_name(f"bot {i + 1}", None, new)
        self.marks.changed(new)
        self.play.start(new.id)
        return new.id

    def tell(self, table: Table, offer: Offer, only: Conn | None = None) -> None:
        """The offer as it stands, to each connected player of the old table (or ``only``)."""
        owner = next((i for i, s in enumerate(table.seats) if player_of(s) == offer.owner
                      and offer.owner is not None), None)
        msg: dict[str, Any] = {
            "type": "rematch", "table": table.id, "status": offer.status,
            "seats": [{"seat": i, "name": s.name, "answer": offer.answers.get(i, "bot")}
                      for i, s in enumerate(table.seats)],
            "owner": owner, "wait": self.wait(offer), "new_table": offer.new_table}
        for s in table.seats:
            conn = self.people.conn_of(player_of(s))
            if conn is not None and (only is None or conn is only):
                self.out.emit(Send(conn.id, msg))

    def back(self, conn: Conn) -> None:
        """A player connected: the open offers at their finished tables, again."""
        for offer in self.offers.values():
            table = self.registry.tables.get(offer.table)
            if offer.status == "open" and table is not None and any(
                    player_of(s) == conn.identity for s in table.seats):
                self.tell(table, offer, only=conn)
