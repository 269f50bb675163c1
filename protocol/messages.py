"""Every message type of the hexnet protocol, with its schema: the one place they are defined.

A message is a msgpack map with a string ``type``. :func:`validate` checks a decoded map against
the schema of its type for one direction (``"c2h"`` client→host, ``"h2c"`` host→client): required
fields present, no unknown fields, every value of the right type and size. It raises
:class:`~protocol.errors.ProtocolError` (code ``unknown_type`` or ``bad_message``, with a sentence)
and never changes anything.

Handshake (pre-auth, frames ≤ 4 KiB)::

    C→H hello   {version, name, nonce: bin16, identity: bin32 (Ed25519 public key)}
    H→C welcome {version, host_name, nonce: bin16, fingerprint: hex, open, games}
    C→H auth    {proof: bin32|nil, signature: bin64}
    H→C auth_ok {proof: bin32|nil}      (or error bad_code / code_required / rate_limited /
                                        busy: the address's line of codes is full, try again)

``auth`` is always sent (the signature binds the connection to the identity key); ``proof`` is
nil when the client has no code (open host, or resuming a seat its identity holds). The host's
``proof`` is nil when the client sent none.

After auth (frames ≤ 64 KiB) — see :data:`C2H` and :data:`H2C` below.

Additions to PROTOCOL.md (backwards-compatible in spirit, agreed version 1):

* ``view`` carries ``legal``: the list of actions the receiving seat may take now (empty when it
  is not waited on). Clients pick from it; they never compute rules.
* ``view`` may carry ``answered``: the state id the receiver's own ``act`` quoted, in the view
  that action produced (an acknowledgement: views without it came from others' changes).
* ``create`` seats its sender at seat 0 of the new table (if the sender is not playing elsewhere),
  so ``lobby.you.table`` names the table just created.
* ``lobby`` tables carry ``seats_total`` (int) and the ``you`` map carries ``open`` (host needs no
  code) — convenience for screens.
* stale actions: ``act.state_id`` may be older than the current one if the seat's choice has
  not changed since (same legal actions, same engine deadline key = same step); otherwise, or
  if it is in the future, ``rejected`` code ``stale``.
* ``lobby`` tables carry ``options`` (every option the table has, but those that fix hidden
  information) and ``stacked`` (true if the host's own code stacked the position): players see
  what they agree to before they sit. ``create`` refuses options the game does not declare, values
  out of their bounds (``bad_options``) and options that fix hidden information (``local_only``);
  see :mod:`hexnet.options`.
* ``chat`` H→C ``from`` is the sender's name; ``seat`` (int|nil) the sender's seat at the table.
* verifiable randomness (issue 6): every ``view`` of a started table carries ``commitment``
  (hex ``sha256(label‖seed‖salt‖options)``, see :mod:`hexnet.fairness`, fixed for the whole game;
  the seed is 32 bytes). When the game is over each seated
  human gets ``reveal`` {table, game, players, options, seed, salt, commitment, part, parts,
  first, steps: [{seat|nil, action, digest}]}: the full step list cut into parts of at most
  ~40 KB (``first`` = index of the part's first step) so no frame passes the 64 KiB cap. The
  client replays seed + steps and checks them against the commitment it saw first and the
  outcome of its last view.
* the traffic rule (issues 9 and 10, :mod:`protocol.traffic`): every message may carry ``pad``
  (bin, ignored); clients pad every frame after auth to a multiple of 256 bytes. A ``view``
  frame is a delta: ``state_id`` outside; ``view`` (without ``state_id`` and ``log``) whole
  after a (re)connect, else ``view_delta`` (the top-level parts that changed since the seat's
  last frame) and ``view_gone`` (parts removed); ``legal`` only when it changed; ``log`` = the
  events the seat may see that are new since its last frame (``log_reset``: the whole recent
  log, after a (re)connect); ``answered``, ``rejected``, ``error`` and ``chat`` (table and
  witches' lines) ride inside it; ``secret`` {key, every} says a secret step is open (issue 22:
  its opaque key, the slot period in seconds). C→H ``cover`` {table, key} fills a seat's slot
  at a secret step when it has nothing to send. Each change of a table sends every connected
  seat one ``view`` frame of one padded length, and so does every tick of a secret step;
  ``state_id`` counts those bursts (the table's publications) and the log's ``n`` counts the
  events the seat was sent. ``lobby`` lists at most 100 tables; ``lobby_delta``
  {tables (changed), removed (ids), you?} continues or updates it (coalesced, a few per second,
  only to connections not playing — or playing and looking: C→H ``look`` {on} says that the
  player at a playing table has the lobby on screen, then the whole lobby once and its deltas,
  or no longer).
* heartbeats: clients ``ping`` every few seconds and the host answers ``pong``; each side
  drops a connection it has heard nothing from for 15 s (host ``idle_timeout``).
* tournaments (issue 13, :mod:`host.event`): C→H ``enter`` {} registers the sender as an
  entrant of the host's tournament under the name it connected with (the entrant is that
  identity key with that name: reconnecting with the key keeps the place).
  H→C ``tournament`` {game, format, status (registering, playing, between, over), round,
  rounds, entrants (names in seed order, until the first standings), standings (rows after
  the last finished round), you (the receiver's entrant name or nil), note?} goes to every
  connection on connect and whenever the event moves on (an entrant registered, a round began
  or ended); it says only public things and is padded to a multiple of 1 KiB like the table
  frames. At most :data:`MAX_ENTRANTS` entrants (their message stays below the frame cap).
* watching (issue 15, :mod:`host.watchers`): C→H ``watch`` {table} (at the table one plays
  at: leave the seat, which becomes free, and watch), ``unwatch`` {}, ``watch_rules`` {table,
  allowed, delay?} (the table's creator only; ``delay`` before the start). H→C ``watch_view``
  frames are ``view`` frames of the public view (no ``legal``, replies, chat or secret), padded
  to their own size class; ``unwatched`` {table, code, message} ends a watch the host ended
  (``no_watching``, ``no_table``); a connection may change what it watches 5 times at once,
  then once a second (past that an ``error`` ``too_fast``: each change sends every seat of the
  table a frame). Lobby tables carry ``watchers`` (names), ``watch`` (allowed),
  ``watch_delay``, and seats ``free`` (a playing table's seat anyone may take by ``sit``);
  ``you`` carries ``watching`` (the table watched, or nil). A playing table's ``view`` frames
  carry ``watchers`` (names) when they changed (a change: one equal frame to every seat) and in
  a seat's whole (re)connect frame.
* ``rejected`` code ``illegal`` carries ``reason`` {key, args}: the engine's refusal as data
  (``message`` is its English sentence); the client renders it in its reader's language.
  Code ``too_late`` (reason key ``too_late``): the answer was chosen in a timed window that
  closed before it arrived.
* presence (issue 14, :mod:`host.presence`): every table ``view`` carries ``presence``, one map
  per seat, the same for every seat: ``state`` connected | reconnecting | disconnected | absent
  | bot | stand_in | empty, and for a reconnecting or disconnected seat ``absent_in`` (whole
  seconds until it counts as absent, from when the frame was sent). *reconnecting*: the link
  dropped without a ``bye`` (a client comes back by itself for :data:`RECONNECT_FOR` seconds);
  *disconnected*: the client said ``bye`` (its player closed it) or stopped trying; ``lobby``
  seats carry the same as ``presence`` and ``absent_in?``. Each change is also a log event
  (``presence_*``, interface catalog). Table ``chat`` lines carry ``n`` (rising): the host
  resends a table's public chat with a (re)connecting seat's full frame, and a client shows
  each numbered line once.
* ``bye`` (C→H, no answer): the client is closing on purpose (its player quit); the connection
  ends right after it.
* the club (issue 28, :mod:`host.club`): a player is named by a ``player`` handle — a bot's
  ``bot:POLICY``, a person's first 16 hex digits of the SHA-256 of their identity key (a
  longer start of it, up to all 64, names them too). Lobby seats carry ``player`` and, once
  rated in the table's game, ``rating`` {mu, sigma, ordinal, games}. C→H ``profile`` {player}
  asks for a player's profile; H→C ``profile`` {player (as asked), profile} answers with
  :data:`PROFILE` (:func:`host.club.profile.for_wire`: no host file paths; a recent game is
  named by its table commitment; ``names`` lists the other names played under to the player
  alone). C→H ``replay`` {commitment} asks for a finished, counted game's replay; H→C
  ``replay`` parts {commitment, game, players, options, seed, salt, outcome, part, parts,
  first, steps} are its reveal cut like ``reveal``'s (a table that did not allow watching:
  only to its players). Refusals are an ``error``: ``no_profile``, ``no_replay``,
  ``not_public``, ``ask_busy`` (one request in flight per connection), ``ask_too_fast`` (3 at once,
  then 2 a second). Tournament ``standings`` rows may carry ``rating`` (the entrant's rating
  in the event's game after their last rated game of it) and ``change`` (μ gained or lost in
  the event so far).
* the party (issue 26): C→H ``emote`` {table, emote} (a key of ``seeds/emotes.toml``; a playing
  table's ``view`` frames carry ``emotes`` [{seat, emote}], a finished table's players get H→C
  ``emote`` {table, seat, emote}; refused while a secret step is open, :mod:`host.emotes`);
  C→H ``rematch`` {table, answer: yes|no|bots} and H→C ``rematch`` {table, status, seats
  [{seat, name, answer}], owner, wait, new_table} (:mod:`host.rematch`); C→H ``bots`` {table,
  paused, delay} (the table's owner holds or slows the host's bots, :mod:`host.pause`); every
  view and lobby table carries ``bots`` {paused, by, delay} while they are held or slowed, and
  a lobby table ``owner`` (the seat of the player who may do that).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from protocol.errors import ProtocolError

Check = Callable[[Any, str], None]
MAX_INT = 1 << 62


def _bad(where: str, what: str) -> ProtocolError:
    return ProtocolError("bad_message", f"Field {where!r} {what}.")


def S(max_len: int, min_len: int = 0) -> Check:  # noqa: N802 - schema constructors read as types
    """A str of ``min_len..max_len`` characters."""
    def check(v: Any, where: str) -> None:
        if not isinstance(v, str):
            raise _bad(where, "must be a string")
        if not min_len <= len(v) <= max_len:
            raise _bad(where, f"must be {min_len}–{max_len} characters long")
    return check


def I(lo: int = 0, hi: int = MAX_INT) -> Check:  # noqa: N802, E743
    """An int (not a bool) in ``lo..hi``."""
    def check(v: Any, where: str) -> None:
        if not isinstance(v, int) or isinstance(v, bool):
            raise _bad(where, "must be an integer")
        if not lo <= v <= hi:
            raise _bad(where, f"must be between {lo} and {hi}")
    return check


def Num() -> Check:  # noqa: N802
    """An int or float (not a bool)."""
    def check(v: Any, where: str) -> None:
        if not isinstance(v, (int, float)) or isinstance(v, bool):
            raise _bad(where, "must be a number")
    return check


def B() -> Check:  # noqa: N802
    """A bool."""
    def check(v: Any, where: str) -> None:
        if not isinstance(v, bool):
            raise _bad(where, "must be true or false")
    return check


def Bin(size: int) -> Check:  # noqa: N802
    """Exactly ``size`` bytes (msgpack bin)."""
    def check(v: Any, where: str) -> None:
        if not isinstance(v, bytes) or len(v) != size:
            raise _bad(where, f"must be {size} bytes")
    return check


def Opt(inner: Check) -> Check:  # noqa: N802
    """``inner`` or nil."""
    def check(v: Any, where: str) -> None:
        if v is not None:
            inner(v, where)
    return check


def Enum(*values: str) -> Check:  # noqa: N802
    """One of the given strings."""
    def check(v: Any, where: str) -> None:
        if v not in values or not isinstance(v, str):
            raise _bad(where, f"must be one of {', '.join(values)}")
    return check


def L(inner: Check, max_items: int) -> Check:  # noqa: N802
    """A list of at most ``max_items`` values, each ``inner``."""
    def check(v: Any, where: str) -> None:
        if not isinstance(v, list):
            raise _bad(where, "must be a list")
        if len(v) > max_items:
            raise _bad(where, f"must have at most {max_items} items")
        for i, item in enumerate(v):
            inner(item, f"{where}[{i}]")
    return check


def Rec(fields: dict[str, Check]) -> Check:  # noqa: N802
    """A map with exactly these fields (a name ending in ``?`` may be absent)."""
    def check(v: Any, where: str) -> None:
        _check_fields(v, fields, where)
    return check


def M(inner: Check, max_items: int, key_len: int = 32) -> Check:  # noqa: N802
    """A map of at most ``max_items`` string keys (≤ ``key_len`` characters), each value
    ``inner`` (a profile's games, roles, series)."""
    def check(v: Any, where: str) -> None:
        if not isinstance(v, dict):
            raise _bad(where, "must be a map")
        if len(v) > max_items:
            raise _bad(where, f"must have at most {max_items} entries")
        for key, value in v.items():
            if not isinstance(key, str) or not 1 <= len(key) <= key_len:
                raise _bad(where, f"must have keys of 1–{key_len} characters")
            inner(value, f"{where}.{key}")
    return check


def Action() -> Check:  # noqa: N802
    """A game action: a flat map (≤ 8 fields) of short strings, ints, bools or nil, with a
    string ``type``."""
    def check(v: Any, where: str) -> None:
        if not isinstance(v, dict) or len(v) > 8:
            raise _bad(where, "must be a map of at most 8 fields")
        for key, value in v.items():
            if not isinstance(key, str) or len(key) > 64:
                raise _bad(where, "must have short string field names")
            if isinstance(value, str):
                if len(value) > 64:
                    raise _bad(f"{where}.{key}", "is too long")
            elif isinstance(value, int) and not isinstance(value, bool):
                if abs(value) > 1 << 31:
                    raise _bad(f"{where}.{key}", "is out of range")
            elif not isinstance(value, (bool, type(None))):
                raise _bad(f"{where}.{key}", "must be a plain value")
        if not isinstance(v.get("type"), str):
            raise _bad(where, "needs a string 'type'")
    return check


def Tree(max_depth: int = 12) -> Check:  # noqa: N802
    """A free-form map (views, options): string keys, nesting at most ``max_depth`` deep."""
    def walk(v: Any, depth: int, where: str) -> None:
        if depth > max_depth:
            raise _bad(where, "is nested too deeply")
        if isinstance(v, dict):
            for key, value in v.items():
                if not isinstance(key, str):
                    raise _bad(where, "must have string keys")
                walk(value, depth + 1, where)
        elif isinstance(v, list):
            for value in v:
                walk(value, depth + 1, where)
        elif not isinstance(v, (str, int, float, bool, bytes, type(None))):
            raise _bad(where, "holds a value of an unknown kind")

    def check(v: Any, where: str) -> None:
        if not isinstance(v, dict):
            raise _bad(where, "must be a map")
        walk(v, 0, where)
    return check


def _check_fields(msg: Any, fields: dict[str, Check], where: str) -> None:
    if not isinstance(msg, dict):
        raise _bad(where, "must be a map")
    known = {name.rstrip("?") for name in fields}
    for key in msg:
        if key not in known:
            raise ProtocolError("bad_message", f"Unknown field {key!r} in {where!r}.")
    for name, check in fields.items():
        optional = name.endswith("?")
        name = name.rstrip("?")
        if name not in msg:
            if optional:
                continue
            raise _bad(f"{where}.{name}" if where else name, "is missing")
        check(msg[name], name)


NAME = S(24, 1)
TABLE = I(0, 1 << 31)
SEAT = I(0, 15)
TEXT = S(300, 1)
CHANNEL = Enum("table", "lobby", "witches")
POLICY = Enum("random", "heuristic", "search", "easy", "normal", "hard")  # hexnet/levels.py
VERSION = I(0, 1 << 16)
PLAYER = S(80, 1)  # a club player's key: 64 hex digits (identity), or bot:POLICY
RATING = Rec({"mu": Num(), "sigma": Num(), "ordinal": Num(), "games?": I(0, 1 << 30)})
EMOTE = S(16, 1)  # an emote's key (seeds/emotes.toml)
#: the host's bots at a table (host/pause.py): held (by whom: a name, "" the host), their delay
BOTS = Rec({"paused": B(), "by": S(24), "delay": Opt(Num())})

#: seconds a client whose link dropped tries to come back (its backoff: 0.5, 1, 2, 4, 4, … s);
#: the host shows such a seat as *reconnecting* that long
RECONNECT_FOR = 90.0

#: client → host
C2H: dict[str, dict[str, Check]] = {
    "hello": {"version": VERSION, "name": NAME, "nonce": Bin(16), "identity": Bin(32)},
    "auth": {"proof": Opt(Bin(32)), "signature": Bin(64)},
    "create": {"game": S(32, 1), "seats": I(1, 16), "options": Tree(6)},
    "sit": {"table": TABLE, "seat": Opt(SEAT)},
    "leave": {},
    "bye": {},
    "add_bot": {"table": TABLE, "seat": Opt(SEAT), "policy": POLICY},
    "start": {"table": TABLE},
    "act": {"table": TABLE, "state_id": I(0, MAX_INT), "action": Action()},
    "chat": {"text": TEXT, "channel": CHANNEL},
    "ping": {"t": Num()},
    "cover": {"table": TABLE, "key": S(64, 1)},
    "enter": {},
    "watch": {"table": TABLE},
    "unwatch": {},
    "look": {"on": B()},
    "watch_rules": {"table": TABLE, "allowed": B(), "delay?": I(0, 50)},
    "profile": {"player": PLAYER},
    "emote": {"table": TABLE, "emote": EMOTE},
    "rematch": {"table": TABLE, "answer": Enum("yes", "no", "bots")},
    "bots": {"table": TABLE, "paused": B(), "delay": Opt(Num())},
    "replay": {"commitment": S(64, 64)},
}

PRESENCE = Enum("connected", "reconnecting", "disconnected", "absent", "bot", "stand_in",
                "empty")
SEAT_INFO = Rec({"seat": SEAT, "name": S(24), "kind": Enum("human", "bot", "empty"),
                 "connected": B(), "absent": B(), "free?": B(), "presence?": PRESENCE,
                 "absent_in?": I(0, 1 << 20), "player?": PLAYER, "rating?": RATING,
                 "policy?": S(32)})
TABLE_INFO = Rec({"id": TABLE, "game": S(32), "title": S(64), "seats": L(SEAT_INFO, 16),
                  "seats_total": I(1, 16), "status": Enum("open", "playing", "over", "halted"),
                  "options?": Tree(4), "stacked?": B(), "watchers?": L(S(24), 50),
                  "watch?": B(), "watch_delay?": I(0, 50), "bots?": BOTS,
                  "owner?": SEAT})

COMMITMENT = S(64, 64)
YOU = Rec({"name": S(24), "table": Opt(TABLE), "seat": Opt(SEAT), "open": B(),
           "watching?": Opt(TABLE)})
REPLY = Rec({"code": S(32, 1), "message": S(300)})
REJECTED = Rec({"code": S(32, 1), "message": S(300),
                "reason?": Rec({"key": S(64, 1), "args": Tree(3)})})
CHAT_NUMBER = I(0, 1 << 62)  # a kept table line's number (host/presence.py)
CHAT_LINE = Rec({"from": S(24), "seat": Opt(SEAT), "text": TEXT, "channel": CHANNEL,
                 "n?": CHAT_NUMBER})
SECRET = Rec({"key": S(64, 1), "every": Num()})
STEP = Rec({"seat": Opt(SEAT), "action": Action(), "digest": S(16, 16)})

MAX_ENTRANTS = 256  # a tournament message naming them all stays below the 64 KiB cap
STANDING = Rec({"rank": I(1, 1 << 16), "name": S(24, 1), "points": Num(), "games": I(0, 1 << 16),
                "wins": I(0, 1 << 16), "byes": I(0, 1 << 16), "buchholz": Num(),
                "median_buchholz": Num(), "reached": I(0, 1 << 16), "seed": I(1, 1 << 16),
                "rating?": RATING, "change?": Num()})

COUNT = I(0, 1 << 30)
TALLY = Rec({"games": COUNT, "wins": COUNT})
#: a player's profile (host/club/profile.py; at most 20 recent games, 200 points a series)
PROFILE = Rec({
    "player": PLAYER, "kind": Enum("human", "bot"), "name": S(80), "names": L(S(80), 32),
    "games": M(Rec({"games": COUNT, "wins": COUNT, "rating": RATING, "rank": I(1, 1 << 30),
                    "rated": COUNT}), 8),
    "fang_roles": M(TALLY, 16), "fang_sides": M(TALLY, 4),
    "series": M(L(Rec({"t": Num(), "mu": Num(), "sigma": Num()}), 201), 8),
    "recent": L(Rec({"game": S(32, 1), "ended": Num(), "seats": I(1, 16), "place": I(1, 16),
                     "won": B(), "role": Opt(S(32)), "side": Opt(S(16)), "result": Opt(S(16)),
                     "change": Num(), "others": L(S(80), 15), "commitment": COMMITMENT}), 20),
    "start": Rec({"mu": Num(), "sigma": Num()})})

#: host → client
H2C: dict[str, dict[str, Check]] = {
    "welcome": {"version": VERSION, "host_name": S(64, 1), "nonce": Bin(16),
                "fingerprint": S(64, 64), "open": B(), "games": L(S(32), 16)},
    "auth_ok": {"proof": Opt(Bin(32))},
    "lobby": {"tables": L(TABLE_INFO, 100), "you": YOU},
    "lobby_delta": {"tables": L(TABLE_INFO, 100), "removed": L(TABLE, 1000), "you?": YOU},
    "view": {"table": TABLE, "state_id": I(0, MAX_INT), "view?": Tree(12),
             "view_delta?": Tree(12), "view_gone?": L(S(64), 64),
             "legal?": L(Action(), 4000), "log": L(Tree(8), 4000), "log_reset?": B(),
             "answered?": I(0, MAX_INT), "commitment?": COMMITMENT, "rejected?": REJECTED,
             "error?": REPLY, "chat?": L(CHAT_LINE, 256), "secret?": SECRET,
             "watchers?": L(S(24), 50), "emotes?": L(Rec({"seat": SEAT, "emote": EMOTE}), 64)},
    "watch_view": {"table": TABLE, "state_id": I(0, MAX_INT), "view?": Tree(12),
                   "view_delta?": Tree(12), "view_gone?": L(S(64), 64),
                   "log": L(Tree(8), 4000), "log_reset?": B(), "commitment?": COMMITMENT},
    "unwatched": {"table": TABLE, "code": S(32, 1), "message": S(300)},
    "reveal": {"table": TABLE, "game": S(32, 1), "players": L(S(24), 16), "options": Tree(6),
               "seed": Bin(32), "salt": Bin(16), "commitment": COMMITMENT,
               "part": I(0, 1 << 16), "parts": I(1, 1 << 16), "first": I(0, MAX_INT),
               "steps": L(STEP, 1000)},
    "rejected": {"table": TABLE, "code": S(32, 1), "message": S(300),
                 "reason?": Rec({"key": S(64, 1), "args": Tree(3)})},
    "chat": {"from": S(24), "seat": Opt(SEAT), "text": TEXT, "channel": CHANNEL,
             "n?": CHAT_NUMBER},
    "error": {"code": S(32, 1), "message": S(300)},
    "pong": {"t": Num()},
    "tournament": {"game": S(32, 1), "format": Enum("swiss", "round-robin", "knockout"),
                   "status": Enum("registering", "playing", "between", "over"),
                   "round": I(0, 1 << 16), "rounds": I(0, 1 << 16),
                   "entrants": L(S(24, 1), MAX_ENTRANTS),
                   "standings": L(STANDING, MAX_ENTRANTS), "you": Opt(S(24, 1)),
                   "note?": S(300)},
    "profile": {"player": PLAYER, "profile": PROFILE},
    "emote": {"table": TABLE, "seat": SEAT, "emote": EMOTE},
    "rematch": {"table": TABLE, "status": Enum("open", "started", "withdrawn"),
                "seats": L(Rec({"seat": SEAT, "name": S(24),
                                "answer": Enum("yes", "waiting", "bot")}), 16),
                "owner": Opt(SEAT), "wait": I(0, 1 << 16), "new_table": Opt(TABLE)},
    "replay": {"commitment": COMMITMENT, "game": S(32, 1), "players": L(S(24), 16),
               "options": Tree(6), "seed": Bin(32), "salt": Bin(16), "outcome": Tree(8),
               "part": I(0, 1 << 16), "parts": I(1, 1 << 16), "first": I(0, MAX_INT),
               "steps": L(STEP, 1000)},
}

#: the types allowed before authentication, per direction
PRE_AUTH = {"c2h": {"hello", "auth"}, "h2c": {"welcome", "auth_ok", "error"}}

_SCHEMAS = {"c2h": C2H, "h2c": H2C}


_ACT_KEYS = frozenset({"type", "table", "state_id", "action", "pad"})
_PLAIN = (str, int, bool, type(None))


def plain_act(msg: dict[str, Any]) -> bool:
    """Whether ``msg`` is a well-formed client ``act`` (checked by exact types, the common
    case in one pass: what it accepts the ``act`` schema accepts; anything else is left to the
    schema, which says what is wrong)."""
    table, sid, action = msg.get("table"), msg.get("state_id"), msg.get("action")
    if not (msg.keys() <= _ACT_KEYS and len(msg) >= 4 and type(table) is int
            and 0 <= table <= 1 << 31 and type(sid) is int and 0 <= sid <= MAX_INT
            and type(msg.get("pad", b"")) is bytes and type(action) is dict
            and len(action) <= 8 and type(action.get("type")) is str):
        return False
    for key, value in action.items():
        kind = type(value)
        if type(key) is not str or len(key) > 64 or kind not in _PLAIN or (
                kind is str and len(value) > 64) or (kind is int and abs(value) > 1 << 31):
            return False
    return True


def validate(msg: Any, direction: str) -> dict[str, Any]:
    """``msg`` if it matches its type's schema for ``direction``; else :class:`ProtocolError`.
    A client's ``act`` (the message that comes most) is checked in one pass
    (:func:`plain_act`)."""
    if direction == "c2h" and type(msg) is dict and msg.get("type") == "act" and plain_act(msg):
        return msg
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        raise ProtocolError("bad_message", "A message must be a map with a string 'type'.")
    schema = _SCHEMAS[direction].get(msg["type"])
    if schema is None:
        raise ProtocolError("unknown_type", f"There is no message of type {msg['type'][:32]!r}.")
    if not isinstance(msg.get("pad", b""), bytes):
        raise _bad("pad", "must be bytes")
    body = {k: v for k, v in msg.items() if k not in ("type", "pad")}
    _check_fields(body, schema, msg["type"])
    return msg


def error(code: str, message: str) -> dict[str, Any]:
    """An ``error`` message."""
    return {"type": "error", "code": code, "message": message[:300]}
