"""One table: a game, its seats (human / bot / empty) and the engine state. Sans-I/O.

A :class:`Table` knows the engine contract (``hexnet/engine.py``) and nothing of connections;
:class:`host.lobby.Lobby` routes messages to it and turns its results into effects.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from typing import Any

import msgpack

from hexnet.engine import Game, IllegalAction
from hexnet.fairness import commitment, events_digest
from host.core import LobbyError

MAX_HOST_STEPS = 10_000


@dataclass
class Seat:
    """A seat. ``identity`` (an Ed25519 public key) binds a human seat to its player."""

    kind: str = "empty"  # "human" | "bot" | "empty"
    name: str = ""
    identity: bytes | None = None
    policy: str | None = None
    absent: bool = False
    absent_auto: bool = False  # absent only because its connection went away

    def clear(self) -> None:
        """Make the seat empty."""
        self.kind, self.name, self.identity, self.policy = "empty", "", None, None
        self.absent = self.absent_auto = False


@dataclass
class Table:
    """A table of ``game``; ``status`` is "open" (seating), "playing", "over" or "halted"
    (stopped by the host: its journal could not be written)."""

    id: int
    game_name: str
    engine: Game
    seats: list[Seat]
    options: dict[str, Any]
    status: str = "open"
    state: dict[str, Any] | None = None
    seed: int = 0
    salt: bytes = b""
    history: list[tuple[int | None, dict[str, Any]]] = field(default_factory=list)
    digests: list[str] = field(default_factory=list)  # per history step: its public events
    missed_end: set[bytes] = field(default_factory=set)  # identities away when the game ended
    timer_key: str | None = None
    bot_rng: random.Random = field(default_factory=random.Random)
    # per seat: (legal actions, deadline key) last seen, and the state id since when unchanged
    _choice: dict[int, tuple[Any, ...]] = field(default_factory=dict)
    stable_since: dict[int, int] = field(default_factory=dict)
    # per seat: digest of the last view sent, so an unchanged view is not sent again
    sent: dict[int, bytes] = field(default_factory=dict)

    def view_changed(self, seat: int, view: dict[str, Any], legal: list[Any]) -> bool:
        """Whether ``seat``'s view differs from the last one sent to it, ``state_id`` aside.

        Sending an unchanged view would tell the seat that *someone* acted (a seer's look, a
        pickpocket's theft) even though it shows nothing; so such views are not sent.
        """
        body = {k: v for k, v in view.items() if k != "state_id"}
        digest = hashlib.blake2b(msgpack.packb([body, legal]), digest_size=16).digest()
        if self.sent.get(seat) == digest:
            return False
        self.sent[seat] = digest
        return True

    # -- seating ---------------------------------------------------------------------------
    def seat_of(self, identity: bytes) -> int | None:
        """The seat bound to ``identity``, or None."""
        for i, seat in enumerate(self.seats):
            if seat.kind == "human" and seat.identity == identity:
                return i
        return None

    def free_seat(self, seat: int | None) -> int:
        """``seat`` if it is empty (the first empty one if None); else LobbyError."""
        if seat is None:
            for i, s in enumerate(self.seats):
                if s.kind == "empty":
                    return i
            raise LobbyError("table_full", f"Table {self.id} has no empty seat.")
        if not 0 <= seat < len(self.seats):
            raise LobbyError("no_seat", f"Table {self.id} has no seat {seat}.")
        if self.seats[seat].kind != "empty":
            raise LobbyError("seat_taken", f"Seat {seat} at table {self.id} is taken.")
        return seat

    def open_seats(self) -> int:
        """Empty seats, if the table is still seating."""
        if self.status != "open":
            return 0
        return sum(1 for s in self.seats if s.kind == "empty")

    # -- playing ---------------------------------------------------------------------------
    def start(self, seed: int, salt: bytes = b"") -> None:
        """Deal the game from ``seed`` (committed to with ``salt``). LobbyError if a seat is
        empty or the table is not open."""
        if self.status != "open":
            raise LobbyError("not_open", f"Table {self.id} has already started.")
        if any(s.kind == "empty" for s in self.seats):
            raise LobbyError("seats_empty", "Every seat needs a player or a bot before the start.")
        try:
            self.state = self.engine.setup([s.name for s in self.seats], seed, self.options)
        except IllegalAction as exc:
            raise LobbyError("bad_options", exc.reason) from exc
        self.seed, self.salt = seed, salt
        self.bot_rng = random.Random(seed ^ 0x5EED)
        self.status = "playing"

    @property
    def commitment(self) -> str:
        """``sha256(seed‖salt)`` published to the seats (empty before the start)."""
        return commitment(self.seed, self.salt) if self.state is not None and self.salt else ""

    @property
    def state_id(self) -> int:
        """The current state id (what views carry and actions must quote)."""
        return int(self.state["version"]) if self.state else 0

    def act(self, seat: int | None, action: dict[str, Any]) -> list[dict[str, Any]]:
        """Apply ``action`` for ``seat`` (None = host); IllegalAction leaves the state as was."""
        if self.status != "playing" or self.state is None:
            raise IllegalAction("not_running")
        events = self.engine.apply(self.state, seat, action)
        self.history.append((seat, dict(action)))
        self.digests.append(events_digest(events))
        if self.engine.outcome(self.state) is not None:
            self.status = "over"
        return events

    def waiting_for(self) -> list[int]:
        """Seats the engine waits on (empty unless playing)."""
        if self.status != "playing" or self.state is None:
            return []
        return self.engine.waiting_for(self.state)

    def note_choices(self) -> None:
        """Record, per seat, since which state id its decision (legal actions + the engine's
        deadline key, which names the step) has been unchanged. Call after every change."""
        if self.state is None:
            return
        deadline = self.engine.deadline(self.state) if self.status == "playing" else None
        key = deadline.key if deadline else None
        waiting = set(self.waiting_for())
        for seat in range(len(self.seats)):
            legal = self.engine.legal_actions(self.state, seat) if seat in waiting else []
            choice = (key, [sorted(a.items()) for a in legal])
            if self._choice.get(seat) != choice:
                self._choice[seat] = choice
                self.stable_since[seat] = self.state_id

    def is_current(self, seat: int, state_id: int) -> bool:
        """Whether an action quoting ``state_id`` was chosen from the seat's present choice:
        the quoted id is not in the future and the seat's legal actions and the step (deadline
        key) have not changed since. (Another seat answering the same reaction window does not
        make it stale.)"""
        return self.stable_since.get(seat, self.state_id) <= state_id <= self.state_id

    def view(self, seat: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The seat's view and its legal actions now."""
        assert self.state is not None
        legal = self.engine.legal_actions(self.state, seat) if self.status == "playing" else []
        return self.engine.view(self.state, seat), legal

    def info(self, connected: dict[int, bool]) -> dict[str, Any]:
        """The table as a ``lobby`` entry; ``connected`` maps seat → has a live connection."""
        return {
            "id": self.id, "game": self.game_name,
            "title": (self.engine.title or self.game_name)[:64],
            "seats": [{"seat": i, "name": s.name, "kind": s.kind,
                       "connected": s.kind == "bot" or connected.get(i, False),
                       "absent": s.absent} for i, s in enumerate(self.seats)],
            "seats_total": len(self.seats), "status": self.status,
        }
