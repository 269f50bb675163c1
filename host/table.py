"""One table: a game, its seats (human / bot / empty) and the engine state. Sans-I/O.

A :class:`Table` knows the engine contract (``hexnet/engine.py``) and nothing of connections;
the parts of :class:`host.lobby.Lobby` act on it and turn its results into effects.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any

from hexnet import rng
from hexnet.engine import Deadline, Game, IllegalAction, copy_tree
from hexnet.fairness import commitment as make_commitment
from hexnet.fairness import events_digest
from hexnet.options import public_options, stacked
from host.core import Accepted, LobbyError
from protocol import traffic

MAX_HOST_STEPS = 10_000
_NO_ACTIONS = traffic.packed([])


def absent_run(history: list[tuple[int | None, dict[str, Any]]]) -> int:
    """How many moves made for absent seats end ``history`` (presence records among them not
    counted): :data:`MAX_HOST_STEPS` or more, and the table had stalled (host/playing.py) —
    what a recovered table is told by its journal, which has no record of its own for it."""
    run = 0
    for _, action in reversed(history):
        if action["type"] == "absent":
            run += 1
        elif action["type"] != "presence":
            break
    return run


@dataclass
class Seat:
    """A seat. ``identity`` (an Ed25519 public key) binds a human seat to its player."""

    kind: str = "empty"  # "human" | "bot" | "empty"
    name: str = ""
    identity: bytes | None = None
    policy: str | None = None
    absent: bool = False
    absent_auto: bool = False  # absent only because its connection went away
    reserved: bytes | None = None  # a bot's seat: the identity of the player it stands in for

    def clear(self) -> None:
        """Make the seat empty."""
        self.kind, self.name, self.identity, self.policy = "empty", "", None, None
        self.absent = self.absent_auto = False
        self.reserved = None

    def record(self) -> dict[str, Any]:
        """The seat as a journal keeps it."""
        return {"kind": self.kind, "name": self.name, "identity": self.identity,
                "policy": self.policy, "absent": self.absent, "absent_auto": self.absent_auto,
                "reserved": self.reserved}

    @classmethod
    def from_record(cls, info: dict[str, Any]) -> Seat:
        """The seat :meth:`record` wrote (older journals lack the last fields)."""
        def key(v: Any) -> bytes | None:
            return bytes(v) if v is not None else None
        return cls(kind=str(info["kind"]), name=str(info["name"]),
                   identity=key(info.get("identity")), policy=info.get("policy"),
                   absent=bool(info.get("absent", False)),
                   absent_auto=bool(info.get("absent_auto", False)),
                   reserved=key(info.get("reserved")))


@dataclass(kw_only=True)
class TableParty:
    """What a :class:`Table` knows of its owner and of the host's bots there (issue 26; mixed
    into it, reading its ``creator`` and ``seats``): who may pause and slow the host's bots and
    fill a rematch's silent seats with bots — the creator, or the player who sits at
    ``owner_seat`` of a table the host made for them (``hexnet play``); the bots held
    (host/pause.py), their delay before each move (None: the host's), when the running deadline
    ends (lobby clock) and, while held, the seconds it had left; what the last frames showed of
    the bots (host/render.py)."""

    owner: bytes | None = None
    owner_seat: int | None = None
    bots_paused: bool = False
    bots_paused_by: str = ""
    bot_delay: float | None = None
    timer_due: float | None = None
    timer_held: float | None = None
    bots_rendered: dict[str, Any] | None = None

    def owned_by(self, identity: bytes) -> bool:
        """Whether ``identity`` may pause and slow this table's bots (its creator or owner)."""
        return identity in (self.owner, self.creator) and identity is not None  # type: ignore[attr-defined]

    def owner_seat_now(self) -> int | None:
        """The seat of the table's owner, if they sit here."""
        seats: list[Seat] = self.seats  # type: ignore[attr-defined]
        return next((i for i, s in enumerate(seats) if s.kind == "human"
                     and s.identity is not None and self.owned_by(s.identity)), None)

    def bots_public(self) -> dict[str, Any] | None:
        """What every seat, watcher and the lobby are shown of the host's bots here, None while
        they play as the host has it: ``paused`` (``by``: a name, "" for the host) and
        ``delay`` (seconds, or None: the host's)."""
        if not self.bots_paused and self.bot_delay is None:
            return None
        return {"paused": self.bots_paused, "by": self.bots_paused_by[:24],
                "delay": self.bot_delay}


@dataclass
class Table(TableParty):
    """A table of ``game``; ``status`` is "open" (seating), "playing", "over" or "halted"
    (stopped by the host: its journal could not be written)."""

    id: int
    game_name: str
    engine: Game
    seats: list[Seat]
    options: dict[str, Any]
    status: str = "open"
    state: dict[str, Any] | None = None
    seed: int | bytes = 0  # before the start a seed the host's own code fixed (tests), or 0
    salt: bytes = b""
    # the commitment to seed, salt and options published to the seats, made at the start (a
    # table's options change only while it seats); see :func:`hexnet.fairness.commitment`
    commitment: str = field(default="", init=False)
    history: list[tuple[int | None, dict[str, Any]]] = field(default_factory=list)
    digests: list[str] = field(default_factory=list)  # per history step: its public events
    missed_end: set[bytes] = field(default_factory=set)  # identities away when the game ended
    timer_key: str | None = None
    creator: bytes | None = None  # the identity that created it over the network (None: host)
    creator_address: str = ""  # the address it was created from (host/registry.py's caps)
    idle_since: float | None = None  # seating with no human seated since (lobby clock)
    # host-side bots draw from the operating system's generator: nothing about the game's
    # seed can be learned from (or steers) their choices
    bot_rng: random.Random = field(default_factory=random.SystemRandom)
    # what each seat was last sent (see host/render.py): the public view parts of that change
    # (shared by every seat), its own private parts, its legal actions and its whole private
    # overlay (packed); the log index it has seen up to and how many events it was sent (its
    # own numbering), its choice (deadline key, packed legal) and since which publication it
    # is unchanged
    sent: dict[int, tuple[dict[str, bytes], dict[str, bytes], bytes, bytes]] = field(
        default_factory=dict)
    public_sent: dict[str, bytes] | None = None  # the public parts of the last change rendered
    log_at: dict[int, int] = field(default_factory=dict)
    log_n: dict[int, int] = field(default_factory=dict)
    choice: dict[int, tuple[Any, bytes]] = field(default_factory=dict)
    stable_since: dict[int, int] = field(default_factory=dict)
    # the publication counter: +1 for every burst (a frame to every seat); it is the
    # ``state_id`` the seats see and quote, so it counts only what every seat sees
    published: int = 0
    rendered_version: int = -1  # the engine's state version when the last frames were made
    presence_rendered: list[dict[str, Any]] | None = None  # the presence those frames had
    # the secret step as last published (host/publish.py): the engine's name for it, the
    # opaque key the seats see, and the frame length its ticks have reached
    step_key: str | None = None
    step_id: str | None = None
    step_size: int = 0
    # what waits for the secret step's next tick (host/pacing.py), in the order it came
    queued: list[tuple[Any, ...]] = field(default_factory=list)
    # presence (host/presence.py): lobby-clock time a disconnected seat counts as absent, until
    # when a seat whose link dropped (no ``bye``) reads as reconnecting, the
    # moves played for a seat while its player was away, the table's chat (public lines) kept
    # for a player who reconnects, and the presence the next frames carry
    away_until: dict[int, float] = field(default_factory=dict)
    reconnecting_until: dict[int, float] = field(default_factory=dict)
    played_for: dict[int, int] = field(default_factory=dict)
    deserted: bool = False  # nobody left to play for: the game waits (host/playing.py)
    stalled: bool = False  # its absent seats' moves went round without an end (host/playing.py)
    waited_since: dict[int, float] = field(default_factory=dict)  # a connected seat waited on
    chat_kept: list[dict[str, Any]] = field(default_factory=list)
    presence_now: list[dict[str, Any]] | None = None
    # the state id since when the running deadline runs, and the state ids of the last timed
    # window that closed (an answer quoting one of them is "too late", not a rules error)
    timer_since: int = 0
    timer_at: int = 0  # len(history) as it was timed: presence records since keep its clock
    closed_window: tuple[int, int] | None = None
    # the engine's bookkeeping of the present state (waiting seats, deadline, legal actions),
    # asked many times per change, kept until the state or the status changes
    _memo: dict[Any, Any] = field(default_factory=dict, repr=False)
    _memo_of: tuple[Any, int, str] = field(default=(None, -1, ""), repr=False)
    def too_late(self, state_id: int) -> bool:
        """Whether an answer quoting publication ``state_id`` was chosen in the timed window
        that just closed."""
        return self.closed_window is not None and (
            self.closed_window[0] <= state_id <= self.closed_window[1])

    def seating_record(self) -> dict[str, Any]:
        """A table still seating as the host keeps it across a restart."""
        return {"id": self.id, "game": self.game_name, "options": dict(self.options),
                "seats": [s.record() for s in self.seats], "creator": self.creator,
                "seed": self.seed}

    # -- seating ---------------------------------------------------------------------------
    def awaits_players(self) -> bool:
        """Whether no human but its creator sits at this table (it expires after a while if it
        is still seating: host/registry.py)."""
        return not any(s.kind == "human" and (s.identity != self.creator or s.identity is None)
                       for s in self.seats)

    def seat_of(self, identity: bytes) -> int | None:
        """The seat bound to ``identity``, or None."""
        for i, seat in enumerate(self.seats):
            if seat.kind == "human" and seat.identity == identity:
                return i
        return None

    def reserved_seat(self, identity: bytes) -> int | None:
        """The bot seat standing in for ``identity`` at a playing table, or None."""
        if self.status != "playing":
            return None
        for i, seat in enumerate(self.seats):
            if seat.kind == "bot" and seat.reserved == identity:
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
    def start(self, seed: int | bytes, salt: bytes = b"") -> None:
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
        self.seed, self.salt = rng.seed_bytes(seed), salt
        self.commitment = make_commitment(self.seed, salt, self.options) if salt else ""
        self.status = "playing"

    @property
    def state_id(self) -> int:
        """The state id the seats see and quote: the publication counter (:attr:`published`)."""
        return self.published

    @property
    def version(self) -> int:
        """The engine's state version: every action applied, the seats' secret ones included
        (host-side only: the journal's step number, host bots' staleness)."""
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

    def _now(self) -> dict[Any, Any]:
        """The memo of the present state (emptied when its version or the status moves)."""
        state = self.state
        memo_state, version, status = self._memo_of
        if (memo_state is not state or status != self.status
                or state is not None and version != state["version"]):
            self._memo_of = (state, state["version"] if state else -1, self.status)
            self._memo = {}
        return self._memo

    def waiting_for(self) -> list[int]:
        """Seats the engine waits on (empty unless playing). Read-only: kept for the state."""
        if self.status != "playing" or self.state is None:
            return []
        memo = self._now()
        if "waiting" not in memo:
            memo["waiting"] = self.engine.waiting_for(self.state)
        return memo["waiting"]

    def deadline(self) -> Deadline | None:
        """What the host must time now (None unless playing)."""
        if self.status != "playing" or self.state is None:
            return None
        memo = self._now()
        if "deadline" not in memo:
            memo["deadline"] = self.engine.deadline(self.state)
        return memo["deadline"]

    def legal(self, seat: int) -> list[dict[str, Any]]:
        """``seat``'s legal actions now (none unless playing). Read-only: kept for the
        state."""
        if self.status != "playing" or self.state is None:
            return []
        memo = self._now()
        legal = memo.get(("legal", seat))
        if legal is None:
            legal = memo[("legal", seat)] = self.engine.legal_actions(self.state, seat)
        return legal

    def legal_packed(self, seat: int) -> bytes:
        """``seat``'s legal actions now, packed (what its frame carries)."""
        memo = self._now() if self.state is not None else {}
        packed = memo.get(("packed", seat))
        if packed is None:
            legal = self.legal(seat)
            packed = memo[("packed", seat)] = traffic.packed(legal) if legal else _NO_ACTIONS
        return packed

    def choice_now(self, seat: int) -> tuple[Any, bytes]:
        """The seat's decision now: the engine's deadline key (it names the step) and its
        legal actions, packed."""
        assert self.state is not None
        deadline = self.deadline()
        return (deadline.key if deadline else None), self.legal_packed(seat)

    def note_choice(self, seat: int, choice: tuple[Any, bytes]) -> None:
        """Record the choice a seat is being shown (called as its frame is rendered)."""
        if self.choice.get(seat) != choice:
            self.choice[seat] = choice
            self.stable_since[seat] = self.published

    def is_current(self, seat: int, state_id: int) -> bool:
        """Whether an action quoting publication ``state_id`` was chosen from the seat's
        present choice: the quoted id is one the seat was shown, not before its choice (legal
        actions + the engine's deadline key) last changed, and the choice has not changed
        since the last frames went out (another seat answering the same reaction window does
        not make it stale). Only when the table changed since the last frames is the choice
        listed again."""
        if not self.stable_since.get(seat, self.published) <= state_id <= self.published:
            return False
        if self.version != self.rendered_version and self.state is not None:
            return self.choice_now(seat) == self.choice.get(seat)
        return True

    def view(self, seat: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The seat's view and its legal actions now, as copies of their own (what a host
        bot's policy is handed: nothing it does to them reaches the table)."""
        assert self.state is not None
        return copy_tree(self.engine.view(self.state, seat)), copy_tree(self.legal(seat))

    def presence(self, connected: dict[int, bool], now: float) -> list[dict[str, Any]]:
        """Every seat's presence, alike for every seat (public: who is connected is shown in
        the lobby anyway): ``state`` is ``connected``, ``reconnecting`` (its link dropped and
        its client is expected back), ``disconnected`` (its client said goodbye or stopped
        trying) — both with ``absent_in``, whole seconds until it counts as absent, if the host
        has such a grace —, ``absent``, ``bot``, ``stand_in`` (a bot keeps the seat for its
        player) or ``empty``."""
        out: list[dict[str, Any]] = []
        for i, s in enumerate(self.seats):
            if s.kind == "bot":
                out.append({"state": "stand_in" if s.reserved is not None else "bot"})
            elif s.kind == "empty":
                out.append({"state": "empty"})
            elif s.absent:
                out.append({"state": "absent"})
            elif connected.get(i, False) or self.status != "playing":
                out.append({"state": "connected" if connected.get(i, False)
                            else "disconnected"})
            else:
                entry: dict[str, Any] = {"state": "reconnecting" if i in self.reconnecting_until
                                         else "disconnected"}
                until = self.away_until.get(i)
                if until is not None:
                    entry["absent_in"] = max(0, math.ceil(until - now))
                out.append(entry)
        return out

    def info(self, connected: dict[int, bool], now: float = 0.0) -> dict[str, Any]:
        """The table as a ``lobby`` entry; ``connected`` maps seat → has a live connection."""
        presence = self.presence(connected, now)
        return {
            "id": self.id, "game": self.game_name,
            "title": (self.engine.title or self.game_name)[:64],
            "seats": [{"seat": i, "name": s.name, "kind": s.kind,
                       "connected": s.kind == "bot" or connected.get(i, False),
                       "absent": s.absent, **{k: v for k, v in presence[i].items()
                                              if k != "state"},
                       # a bot's level (or policy) is public: the lobby shows it
                       **({"policy": (s.policy or "").partition("@")[0][:32]}
                          if s.kind == "bot" else {}),
                       "presence": presence[i]["state"]} for i, s in enumerate(self.seats)],
            "seats_total": len(self.seats), "status": self.status,
            # every option is shown before anyone sits; a stacked table says so
            "options": public_options(self.engine, self.options),
            "stacked": stacked(self.engine, self.options),
            **({"bots": bots} if (bots := self.bots_public()) is not None else {}),
            # who may pause its bots (and fill a rematch with them): public, as who created it
            **({"owner": owner} if (owner := self.owner_seat_now()) is not None else {}),
        }


def accepted(table: Table, seat: int | None, action: dict[str, Any],
             events: list[dict[str, Any]]) -> Accepted:
    """The journal hook for ``action`` of ``seat`` (None: the host), just accepted at ``table``
    (with the digest :meth:`Table.act` computed)."""
    return Accepted(table.id, seat, dict(action), table.version, list(events),
                    table.digests[-1])
