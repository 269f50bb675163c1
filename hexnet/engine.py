"""The engine contract every game follows, and the machinery they share.

A game state is a plain tree of msgpack-able values (dicts with string keys, lists, ints, strs,
bools, None). Engines mutate it only inside :meth:`Game.apply`, and only after the action was
validated, so an illegal action leaves the state byte-identical.

Seats are list positions ``0..n-1``. ``seat=None`` is the host itself: it may only send
``{"type": "timeout", "key": K}`` (the engine's :meth:`Game.deadline` expired) and
``{"type": "absent", "seat": S}`` (apply the absent-player default for a seat the game waits on)
and ``{"type": "presence", "seat": S, "state": P, "count": N}`` (a log line that a player lost
the connection, came back, went absent or was given to a bot; see :data:`PRESENCE`). A presence
action changes nothing but the log: it is journaled like any host action, so a replay and a
restarted host show the same lines at the same places.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import repeat
from typing import Any, ClassVar

import msgpack

from hexnet import rng

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]

SCALARS = (str, int, bool, type(None))
MAX_ACTION_KEYS = 8
MAX_STR = 64


class IllegalAction(Exception):
    """An action (or setup) the rules do not allow. Carries data, not words: ``key`` names the
    reason in the catalogs (the game's ``reason`` context, else the engine's in the interface
    catalog) and ``params`` are its arguments (seats, ids, numbers). ``game`` is the game that
    refused (set by :meth:`Game.apply` / :meth:`Game.setup`); :attr:`reason` is the English
    sentence, for logs; :meth:`as_dict` the form that travels to a client, which renders it in
    its reader's language."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params
        self.game: str | None = None

    def as_dict(self) -> dict[str, Any]:
        """``{"key": key, **params}``."""
        return {"key": self.key, **self.params}

    @property
    def reason(self) -> str:
        """The refusal in English (for logs and command lines)."""
        from hexnet.i18n import render_reason

        return render_reason(self.game, self.as_dict(), (), "en")

    def __str__(self) -> str:
        return self.reason


@dataclass(frozen=True)
class Deadline:
    """What the host must time.

    ``key`` names the step being timed (it changes whenever the step does, so the host can tell a
    fresh deadline from the one it is already running); ``seconds`` is its length; ``seats`` are
    the seats whose input it waits for. On expiry the host applies
    ``{"type": "timeout", "key": key}`` with ``seat=None``; ``on_expiry`` is the catalog key
    (context ``expiry``) of what then happens, shown to players in their language.
    """

    key: str
    seconds: float
    seats: tuple[int, ...]
    on_expiry: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {"key": self.key, "seconds": self.seconds, "seats": list(self.seats),
                "on_expiry": self.on_expiry}


def check_action_shape(action: Any) -> None:
    """Reject anything that is not a small flat dict of scalars with a string ``type``."""
    if type(action) is not dict and not isinstance(action, Mapping):
        raise IllegalAction("action_not_map")
    if len(action) > MAX_ACTION_KEYS:
        raise IllegalAction("action_too_many_fields")
    for key, value in action.items():
        if type(key) is not str and not isinstance(key, str) or len(key) > MAX_STR:
            raise IllegalAction("action_field_names")
        kind = type(value)
        if kind is str:  # the exact types first: this runs for every action
            if len(value) > MAX_STR:
                raise IllegalAction("action_field_too_long", field=key)
        elif kind is int:
            if abs(value) > 1 << 31:
                raise IllegalAction("action_field_out_of_range", field=key)
        elif kind is bool or value is None:
            pass
        elif not isinstance(value, SCALARS):
            raise IllegalAction("action_field_not_plain", field=key)
        elif isinstance(value, str) and len(value) > MAX_STR:
            raise IllegalAction("action_field_too_long", field=key)
        elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > 1 << 31:
            raise IllegalAction("action_field_out_of_range", field=key)
    if not isinstance(action.get("type"), str):
        raise IllegalAction("action_without_type")


_HOST_FIELDS = {"timeout": {"type", "key"}, "absent": {"type", "seat"},
                "presence": {"type", "seat", "state", "count"}}
# A presence action's ``state`` → its log line (interface catalog, context ``log``). ``count``
# is the seconds before a reconnecting or disconnected seat counts as absent (``lost`` and
# ``gone``: the same on a host that waits for ever), or the moves played for a player while
# away (``played`` goes to that player only). ``reconnecting``/``lost``: the link dropped;
# ``disconnected``/``gone``: the client said goodbye or stopped trying to come back.
PRESENCE = ("disconnected", "lost", "back", "absent", "bot", "played", "reconnecting",
            "gone")


def find_legal(action: Mapping[str, Any], legal: list[Action]) -> Action | None:
    """The legal action equal to ``action`` (keys, values and value types), or None."""
    for candidate in legal:
        if candidate == action:
            # True == 1 in Python: an action from the wire must match in type too
            for key, value in candidate.items():
                if type(value) is not type(action[key]):
                    break
            else:
                return candidate
    return None


_CONTAINERS = (dict, list)


def copy_tree(value: Any) -> Any:
    """A deep copy of a tree of dicts, lists and scalars (what a state is made of)."""
    kind = type(value)
    if kind is dict:
        return {k: copy_tree(v) if type(v) in _CONTAINERS else v for k, v in value.items()}
    if kind is list:
        return [copy_tree(v) if type(v) in _CONTAINERS else v for v in value]
    return value


# --- the log -------------------------------------------------------------------------------
# An event is data: ``{"n": index, "key": message key, **arguments}`` plus ``"to": [seats]``
# when only those seats may see it (a public event has no ``to``, so views share it uncopied).
# Arguments are seats (ints), ids (card, villager, role, place), numbers, bools and lists of
# these — never a sentence, never a player's name. The words come from the catalogs at the
# edge (``hexnet.i18n.render``).

LOG_LENGTH = 40


def emit(state: State, key: str, to: list[int] | None = None, **args: Any) -> Event:
    """Append the event ``key`` with ``args`` to the log: public (``to=None``) or for the
    seats in ``to`` only."""
    event: Event = {"n": len(state["log"]), "key": key, **args}
    if to is not None:
        event["to"] = sorted(to)
    state["log"].append(event)
    return event


def visible(event: Event, seat: int | None) -> bool:
    """Whether ``seat`` (None = spectator) may see ``event``."""
    to = event.get("to")
    return to is None or (seat is not None and seat in to)


def public_form(event: Event) -> Event:
    """The event as a seat receives it: without its audience list."""
    if "to" not in event:
        return event
    return {k: v for k, v in event.items() if k != "to"}


def log_for(state: State, seat: int | None, last: int = LOG_LENGTH) -> list[Event]:
    """The last ``last`` events ``seat`` may see, in order, audience stripped. Public events
    are shared with the state, not copied (views are built after every action): treat a view
    as read-only."""
    log = state["log"]
    end = len(log)
    parts: list[list[Event]] = []
    found = 0
    size = last
    # from the end back, in slices filtered by a comprehension, each twice the one before (a
    # log may hold many events for other seats): only the events returned are looked at twice
    while end > 0 and found < last:
        start = max(0, end - size)
        if seat is None:
            part = [e for e in log[start:end] if "to" not in e]
        else:
            part = [e for e in log[start:end] if "to" not in e or seat in e["to"]]
        parts.append(part)
        found += len(part)
        end = start
        size *= 2
    seen = [e for part in reversed(parts) for e in part]
    return [e if "to" not in e else _without_audience(e) for e in seen[-last:]]


def _without_audience(event: Event) -> Event:
    copy = dict(event)
    del copy["to"]
    return copy


# --- the contract --------------------------------------------------------------------------

def _per_version(fn: Any) -> Any:
    """``fn(self, state)`` kept for the last state asked and its version: the rules'
    bookkeeping (who is waited on, what is timed) is asked many times per state — by legal
    actions, validation, views, the host and playouts — and changes only with it. A state is
    changed only by :meth:`Game.apply` (or, in playouts, ``_apply`` followed by a version
    step), which moves its version. A list is handed out as a copy."""
    # (the engine, the state and its version last asked, the answer), read and replaced as one
    # tuple (a thread reads a whole entry); another engine or state asking replaces it
    box: list[tuple[Any, Any, int, Any]] = [(None, None, -1, None)]

    @functools.wraps(fn)
    def per_version(self: Game, state: State) -> Any:
        last = box[0]
        version = state["version"]
        if last[1] is not state or last[2] != version or last[0] is not self:
            last = box[0] = (self, state, version, fn(self, state))
        value = last[3]
        return list(value) if type(value) is list else value

    per_version.per_version = True  # type: ignore[attr-defined]
    return per_version



@dataclass
class Game:
    """Base class of every engine. Subclasses implement the ``_``-prefixed hooks.

    The public methods are the contract the host, the bots and the tests use.
    """

    name: str = ""
    title: str = ""
    min_players: int = 2
    max_players: int = 12
    options_help: dict[str, str] = field(default_factory=dict)
    # state keys never changed after setup: :meth:`copy_state` shares them between copies
    frozen: ClassVar[frozenset[str]] = frozenset({"players", "options"})
    round_field: str = ""  # the view field counting rounds (days, turns); replays jump by it
    # the legal actions last offered: (state, its version, seat, the list legal_actions gave)
    _offered: ClassVar[tuple[Any, int, Any, list[Action]]] = (None, -1, None, [])

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A game's ``waiting_for`` and ``deadline`` are kept per state version
        (:func:`_per_version`)."""
        super().__init_subclass__(**kwargs)
        for name in ("waiting_for", "deadline"):
            fn = cls.__dict__.get(name)
            if fn is not None and not getattr(fn, "per_version", False):
                setattr(cls, name, _per_version(fn))

    # -- contract -----------------------------------------------------------------------
    def setup(self, players: list[str], seed: int | bytes,
              options: Mapping[str, Any] | None = None) -> State:
        """A fresh game for ``players`` (names, seat order), all randomness from ``seed`` (a
        256-bit seed as 32 bytes, or an int; see :mod:`hexnet.rng`)."""
        if not self.min_players <= len(players) <= self.max_players:
            raise self._named(IllegalAction(
                "players_out_of_range", title=self.title, low=self.min_players,
                high=self.max_players, count=len(players)))
        state: State = {
            "game": self.name,
            "players": list(players),
            "rng": rng.seed_state(seed),
            "version": 0,
            "log": [],
            "options": dict(options or {}),
        }
        try:
            self._setup(state)
        except IllegalAction as exc:
            raise self._named(exc) from None
        return state

    def _named(self, exc: IllegalAction) -> IllegalAction:
        """``exc`` with this game as the one that refused (for rendering its reason)."""
        exc.game = exc.game or self.name
        return exc

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """Every action ``seat`` may take now, in a stable order (empty if none).

        A seat the game waits on gets all of them. A seat it does not wait on gets its
        *optional* actions (Hexenhammer's trials, playable at any time in their phases): they
        are offered but never waited for, so nobody is asked or timed on their account and the
        waiting set says nothing about who holds one. Bots are asked only when waited on.

        The list is remembered: one of its actions, applied unchanged to the same state for the
        same seat, is not looked up again (:meth:`apply`). Treat it as read-only."""
        if seat in self.waiting_for(state):
            legal = self._legal(state, seat)
        else:
            legal = self._optional(state, seat)
        self._offered = (state, state["version"], seat, legal)
        return legal

    def apply(self, state: State, seat: int | None, action: Any) -> list[Event]:
        """Validate, then carry out ``action`` for ``seat``; return the new events.

        Raises :class:`IllegalAction` and leaves ``state`` untouched if the action is not allowed.
        An action taken from the list :meth:`legal_actions` just gave for this state and seat
        (the very object, unchanged) needs no validation: it is carried out at once.
        """
        offered_state, version, offered_seat, legal = self._offered
        try:
            if seat is None:
                check_action_shape(action)
                events = self._apply_host(state, action)
            elif (offered_state is state and version == state["version"]
                  and type(seat) is int and seat == offered_seat
                  and any(map(operator.is_, legal, repeat(action)))):
                # one of the actions legal_actions last gave for this very state (at this
                # version) and seat, the very object
                events = self._apply(state, seat, dict(action))
            else:
                check_action_shape(action)
                events = self._apply(state, seat, self._validated(state, seat, action))
        except IllegalAction as exc:
            raise self._named(exc) from None
        state["version"] += 1
        return events

    def _validated(self, state: State, seat: Any, action: Mapping[str, Any]) -> Action:
        """The action ``seat`` may take that equals ``action`` (keys, values and value types),
        as a fresh dict the engine may keep; :class:`IllegalAction` saying why if there is
        none. By default it is looked up among :meth:`_legal_for`; a game may check some
        actions directly (for speed) but must accept exactly what :meth:`legal_actions`
        lists."""
        if type(seat) is not int and (not isinstance(seat, int) or isinstance(seat, bool)):
            raise IllegalAction("no_such_seat")
        if not 0 <= seat < len(state["players"]):
            raise IllegalAction("no_such_seat")
        if self.outcome(state) is not None:
            raise IllegalAction("game_over")
        if seat in self.waiting_for(state):
            legal = self._legal_for(state, seat, action)
        else:
            legal = self._optional(state, seat)
            if not legal:
                raise IllegalAction("not_your_turn")
        chosen = find_legal(action, legal)
        if chosen is None:
            raise self._why_illegal(state, seat, action)
        return dict(chosen)

    def _apply_host(self, state: State, action: Mapping[str, Any]) -> list[Event]:
        if self.outcome(state) is not None:
            raise IllegalAction("game_over")
        kind = action["type"]
        if kind in _HOST_FIELDS and set(action) != _HOST_FIELDS[kind]:
            raise IllegalAction("host_action_fields", type=kind,
                                fields=",".join(sorted(_HOST_FIELDS[kind])))
        if kind == "timeout":
            current = self.deadline(state)
            if current is None or action.get("key") != current.key:
                raise IllegalAction("deadline_not_running")
            return self._on_timeout(state)
        if kind == "absent":
            target = action.get("seat")
            if not isinstance(target, int) or isinstance(target, bool) or (
                    target not in self.waiting_for(state)):
                raise IllegalAction("seat_not_waited_for")
            return self._on_absent(state, target)
        if kind == "presence":
            return self._presence(state, action)
        return self._on_host(state, action)

    def _presence(self, state: State, action: Mapping[str, Any]) -> list[Event]:
        """The log line of a presence action (the game itself is untouched)."""
        seat, what, count = action["seat"], action["state"], action["count"]
        if not isinstance(seat, int) or isinstance(seat, bool) or not (
                0 <= seat < len(state["players"])):
            raise IllegalAction("no_such_seat")
        if what not in PRESENCE or not isinstance(count, int) or isinstance(count, bool) or (
                count < 0):
            raise IllegalAction("bad_presence")
        if what == "disconnected":
            return [emit(state, "presence_disconnected", seat=seat, count=count)]
        if what == "reconnecting":
            return [emit(state, "presence_reconnecting", seat=seat, count=count)]
        if what == "gone":  # a host without a grace: the seat waits for its player
            return [emit(state, "presence_gone", seat=seat)]
        if what == "lost":  # a host without a grace: the seat waits for its player
            return [emit(state, "presence_lost", seat=seat)]
        if what == "back":
            return [emit(state, "presence_back", seat=seat)]
        if what == "absent":
            return [emit(state, "presence_absent", seat=seat)]
        if what == "bot":
            return [emit(state, "presence_bot", seat=seat)]
        return [emit(state, "presence_played", to=[seat], seat=seat, count=count)]

    def view(self, state: State, seat: int | None, log: bool = True) -> dict[str, Any]:
        """Everything ``seat`` may know and nothing more (None = spectator): the public view
        with the seat's private overlay over it, ``{**public_view(state), **private_view(state,
        seat)}``. ``log=False`` leaves the log out (the host sends it as deltas, see
        :mod:`protocol.traffic`)."""
        return {**self.public_view(state), **self.private_view(state, seat, log)}

    def public_view(self, state: State) -> dict[str, Any]:
        """The part of the view that is the same for every seat and a spectator (the host
        builds it once per change and shares it between the seats' frames): the game's
        :meth:`_public` parts, then ``game``, ``state_id``, ``players``, ``active``,
        ``deadline`` and ``outcome`` where the game did not set them. A view is read-only: its
        parts may be the state's own."""
        v = self._public(state)
        v.setdefault("game", self.name)
        v.setdefault("state_id", state["version"])
        # what a game's own view has already set is not computed again
        if "players" not in v:
            v["players"] = list(state["players"])
        if "active" not in v:
            v["active"] = self.waiting_for(state)
        if "deadline" not in v:
            d = self.deadline(state)
            v["deadline"] = d.as_dict() if d else None
        if "outcome" not in v:
            v["outcome"] = self.outcome(state)
        return v

    def private_view(self, state: State, seat: int | None, log: bool = True) -> dict[str, Any]:
        """What ``seat``'s view adds to the public view or sets over it (a small overlay: its
        hand, its role, ``seat``, its log): the game's :meth:`_private` parts, ``seat``, and
        the last events the seat may see (``log=False``: without them)."""
        v = self._private(state, seat)
        v["seat"] = seat
        if not log:
            v.pop("log", None)
        elif "log" not in v:  # a game may build its own log (log_for runs on every view)
            v["log"] = log_for(state, seat)
        return v

    def waiting_for(self, state: State) -> list[int]:
        """The seats whose input the game needs now, sorted (empty once over)."""
        raise NotImplementedError

    def needed(self, state: State) -> list[int]:
        """The seats the game cannot go on without, as every seat may know it: the host
        counts a connected player idle only while here (``hexnet host --idle-absent``). Every
        seat waited for, unless a game says otherwise: it leaves out seats that only may
        change an answer or use an optional power, and everyone while who is needed is
        secret (an absent mark there would tell)."""
        return self.waiting_for(state)

    def bots_asked(self, state: State) -> list[int]:
        """The seats a host bot is asked to act for now: every seat waited for, unless a game
        leaves out seats that only may change an answer they gave (asking again would only
        repeat it)."""
        return self.waiting_for(state)

    def bot_pause(self, state: State) -> float:
        """Seconds a host bot waits at least before it acts now (the host's own bot delay
        when longer): a moment in which people at the table get a word in where bots would
        otherwise act at once, one after another. Pacing, not a rule: 0 unless a game says."""
        return 0.0

    def secret_step(self, state: State) -> str | None:
        """The *secret step* open now, as every seat may know it, or None.

        A secret step is one at which what a seat does, or whether it is asked at all, follows
        what others may not know: who acts follows hidden roles (Fang's guard and witches), a
        seat may act on a secret power (the seer's look), choices are secret until the step
        closes (votes), or being asked to answer says nothing but answering might (a reaction
        window: only holders of a fitting card can do more than pass). While one is open the
        host and every client follow the traffic rule's schedule (:mod:`protocol.traffic`):
        every client sends on one clock, the host applies what came on its own cadence and
        answers every seat at each tick, so neither direction's timing says who acted.

        The value names the step from public facts only: it is the same for every seat and
        changes exactly when the public step does (two scenes that must look alike to the
        others share it). None by default: a game without secret steps."""
        return None

    def deadline(self, state: State) -> Deadline | None:
        """What the host must time now, or None."""
        return None

    def turn_deadline(self, state: State, seconds: Any) -> Deadline | None:
        """A game's ``turn_seconds`` clock: the decision it waits for now, timed afresh (the key
        names the state), or None when ``seconds`` is 0/unset; :meth:`_turn_timeout` ends it."""
        if not seconds:
            return None
        return Deadline(f"turn-{state['version']}", float(seconds),
                        tuple(self.waiting_for(state)), "turn")

    def _turn_timeout(self, state: State) -> list[Event]:
        """A :meth:`turn_deadline` ran out: the waited-for seat makes the absent player's move."""
        return self._on_absent(state, self.waiting_for(state)[0])

    def outcome(self, state: State) -> dict[str, Any] | None:
        """None while running; when over ``{"scores": [...], "winners": [...], ...}``."""
        return state.get("outcome")

    def dump(self, state: State) -> bytes:
        """The whole state as msgpack bytes."""
        return msgpack.packb(state, use_bin_type=True)

    def load(self, data: bytes) -> State:
        """The state ``dump`` wrote."""
        return msgpack.unpackb(data, raw=False, strict_map_key=True)

    def copy_state(self, state: State) -> State:
        """A copy of ``state`` that plays on exactly as ``state`` would (``dump`` of both is
        equal after the same actions), for search — several times cheaper than
        ``load(dump(state))``. The log's events are shared, not copied (an event is never
        changed once emitted and shares nothing with the rest of the state), and so are the
        state keys in :attr:`frozen` (never changed after setup)."""
        frozen = self.frozen
        out: State = {}
        for key, value in state.items():
            if key == "log":
                out[key] = list(value)
            elif key in frozen or type(value) not in _CONTAINERS:
                out[key] = value
            else:
                out[key] = copy_tree(value)
        return out

    def sample_state(self, view: dict[str, Any], rng: Any) -> State:
        """A determinization for search bots: a full state built from ``view`` alone (never
        from the real state), consistent with everything that seat has seen, hidden information
        re-dealt at random from ``rng`` (a ``random.Random``).
        ``view(sample_state(v, rng), v["seat"])`` equals ``v``. Games provide it in their
        ``sample`` module."""
        raise NotImplementedError(f"{self.title or self.name} cannot sample a state from a view.")

    def describe_action(self, state: State, seat: int, action: Mapping[str, Any]
                        ) -> dict[str, Any]:
        """A label for an action, as data: ``{"key": ..., **args}`` (catalog context
        ``action``), rendered at the edge by :func:`hexnet.i18n.render_label`. By default the
        key is the action's type and the arguments its fields."""
        return {**{k: v for k, v in action.items() if k != "type"}, "key": action.get("type")}

    # -- hooks ----------------------------------------------------------------------------
    def _setup(self, state: State) -> None:
        raise NotImplementedError

    def _legal(self, state: State, seat: int) -> list[Action]:
        raise NotImplementedError

    def _optional(self, state: State, seat: int) -> list[Action]:
        """The optional actions of a seat the game does not wait on (none by default)."""
        return []

    def _legal_for(self, state: State, seat: int, action: Mapping[str, Any]) -> list[Action]:
        """The legal actions ``action`` is checked against: all of them by default. A game may
        narrow the list for speed (e.g. to the named card) but must keep every legal action
        that could equal ``action``."""
        return self._legal(state, seat)

    def _apply(self, state: State, seat: int, action: Action) -> list[Event]:
        raise NotImplementedError

    def _public(self, state: State) -> dict[str, Any]:
        """The game's parts of every seat's view that no seat sees otherwise (none by default:
        a game that only has :meth:`_view` renders every part per seat)."""
        return {}

    def _private(self, state: State, seat: int | None) -> dict[str, Any]:
        """The game's parts of ``seat``'s view that are not public, or that it sees otherwise
        (a key here wins over the same key of :meth:`_public`). By default the whole
        :meth:`_view`."""
        return self._view(state, seat)

    def _view(self, state: State, seat: int | None) -> dict[str, Any]:
        """A game's whole view of ``seat`` in one hook, if it does not split it into
        :meth:`_public` and :meth:`_private`."""
        raise NotImplementedError

    def _on_timeout(self, state: State) -> list[Event]:
        raise IllegalAction("nothing_timed")

    def _on_absent(self, state: State, seat: int) -> list[Event]:
        """Default for an absent seat: its first legal action (subclasses refine per scene)."""
        return self._apply(state, seat, dict(self._legal(state, seat)[0]))

    def _on_host(self, state: State, action: Mapping[str, Any]) -> list[Event]:
        """A game's own host action (e.g. Fang's time limits switch); none by default."""
        raise IllegalAction("host_cannot", type=str(action["type"]))

    def _why_illegal(self, state: State, seat: int, action: Mapping[str, Any]
                     ) -> IllegalAction:
        """Why ``action`` (not among the legal actions) is refused."""
        return IllegalAction("not_now")
