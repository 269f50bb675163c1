"""A table's frames for one change, rendered once (part of the sans-I/O core).

A :class:`host.changes.Change` collects what happened at a table since the last tick: that its
state changed, replies to seats (``answered``, ``rejected``, ``error``), chat lines per seat, seats
that need their full view again (a reconnect), and whether the end reveal is due. :func:`frames`
turns it into one ``view`` frame per connected human seat, following the traffic rule of
:mod:`protocol.traffic`:

* the public view (:meth:`hexnet.engine.Game.public_view`, the same for every seat) is built
  once per change and each of its top-level parts packed once (:func:`public_parts`), compared
  by its packed bytes with the last change's: the parts that changed are found once for the
  table; every seat's frame shares those bytes;
* per seat only its private overlay (:meth:`hexnet.engine.Game.private_view`: its hand, its
  role, …) is built and packed, and its legal actions (kept per state, :meth:`host.table.Table.
  legal_packed`); what the seat's frame carries is its view — public parts under its private
  ones — compared part by part with what that seat was last sent (``state_id`` kept outside):
  only the parts that changed go (``view_delta``, ``view_gone``), an unchanged view goes as
  "same" (nothing), the log goes as the events new to the seat;
* every frame of the change is padded to one length — the largest frame of *any* seat of the
  table (bots and disconnected players included, so the length never follows whose connection
  is up), rounded up to 1 KiB — computed from the parts' lengths, each frame joined once;
  at a secret step's ticks never shorter than the step's frames so far.

Only packed bytes leave: no seat's frame shares anything mutable with another's or the state.

The numbers a seat sees count only what every seat sees (issue 22): ``state_id`` is the table's
publication counter (:attr:`host.table.Table.published`, +1 per burst), and the log events a
seat receives are numbered by the seat's own count (``n``: 0, 1, 2, … of the events it may see),
so other seats' private events leave no gaps.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hexnet.engine import public_form, visible
from host.changes import Change
from host.table import Table
from protocol import traffic

_VIEW = traffic.packed("view")
_TRUE = traffic.packed(True)
_EMPTY = traffic.packed([])
# a seat more log events behind than this (of every seat's: the count is no secret) gets its
# whole view — the log's last LOG_LENGTH, ``log_reset`` — not the events it missed, so no frame
# outgrows the frame limit (a table played on while nobody was there, host/playing.py)
BEHIND_MOST = 500


def step_of(table: Table) -> str | None:
    """The engine's name for the secret step open at ``table`` now, or None."""
    if table.state is None or table.status != "playing":
        return None
    return table.engine.secret_step(table.state)


def secret_of(table: Table, every: float = traffic.SLOT_EVERY) -> dict[str, Any] | None:
    """The secret step as the seats are told it (:mod:`protocol.traffic`): its opaque key (the
    same for every seat, new with every public step) and the slot period; None outside one."""
    if table.step_id is None:
        return None
    return {"key": table.step_id, "every": every}


def _numbered(events: list[dict[str, Any]], first: int) -> list[dict[str, Any]]:
    """``events`` (as a seat may see them) numbered ``first``, ``first + 1``, … (copies)."""
    return [{**e, "n": first + i} for i, e in enumerate(events)]


# what a seat was last sent: the public parts of that change, its own parts, its legal actions
# (all packed), and its whole overlay packed in one (to tell an unchanged one at once)
Sent = tuple[dict[str, bytes], dict[str, bytes], bytes, bytes]


@dataclass
class Public:
    """One change's public view, packed once and shared by every seat's frame: its parts
    (``state_id`` apart; the table's id too), and the parts that differ from ``base`` — the
    public parts of the table's change before (None: none yet) — and those gone since."""

    parts: dict[str, bytes]
    table: bytes  # the table's id and state id, packed
    state_id: bytes
    base: dict[str, bytes] | None
    changed: dict[str, bytes]
    gone: list[str]


def public_parts(table: Table) -> Public:
    """The public view of ``table`` now, each part packed once; a part equal to the last
    change's keeps its bytes object."""
    state = table.state
    assert state is not None
    view = table.engine.public_view(state)
    if table.presence_now is not None:  # the same for every seat (host/presence.py)
        view["presence"] = table.presence_now
    bots = table.bots_public()
    if bots is not None:  # the host's bots held or slowed (host/pause.py): public
        view["bots"] = bots
    view.pop("state_id")
    sid = table.published  # what every seat sees, not the engine's count of actions
    base = table.public_sent
    parts: dict[str, bytes] = {}
    changed: dict[str, bytes] = {}
    for key, value in view.items():
        data = traffic.packed(value)
        old = base.get(key) if base is not None else None
        if old is not None and old == data:
            data = old
        else:
            changed[key] = data
        parts[key] = data
    gone = [k for k in base if k not in parts] if base is not None else []
    table.public_sent = parts
    return Public(parts, traffic.packed(table.id), traffic.packed(sid), base, changed, gone)


def view_delta(public: Public, mine: dict[str, bytes], before: Sent
               ) -> tuple[dict[str, bytes], list[str]]:
    """What a seat's view — ``public`` parts under its own ``mine`` — changed since it was
    sent ``before`` (public parts of then, its own parts of then, …): the parts changed or
    new, and the names of parts gone. The public parts' changes are found once per change
    (:func:`public_parts`), reused for every seat whose last frame was of the change before;
    an overlay unchanged (the very parts of then) is not compared again."""
    old_public, old_mine = before[0], before[1]
    if old_public is public.base:
        public_changed, public_gone = public.changed, public.gone
    else:  # the seat missed changes (it was not rendered): compared in full
        public_changed = {k: v for k, v in public.parts.items() if old_public.get(k) != v}
        public_gone = [k for k in old_public if k not in public.parts]
    if mine is old_mine:
        return ({k: v for k, v in public_changed.items() if k not in mine},
                [k for k in public_gone if k not in mine])
    changed = {k: v for k, v in public_changed.items() if k not in mine and k not in old_mine}
    for key, data in mine.items():
        old = old_mine.get(key)
        if (old if old is not None else old_public.get(key)) != data:
            changed[key] = data
    gone = [k for k in public_gone if k not in mine]
    for key, old in old_mine.items():  # an own part no longer own: public again, or gone
        if key not in mine:
            now = public.parts.get(key)
            if now is None:
                gone.append(key)
            elif now != old:
                changed[key] = now
    return changed, list(dict.fromkeys(gone))


def _seat_parts(table: Table, seat: int, full: bool, keep: bool, deadline_key: Any,
                public: Public) -> list[tuple[str, bytes]]:
    """The pre-packed parts of ``seat``'s frame; ``keep`` records what it was sent."""
    state = table.state
    assert state is not None
    own = table.engine.private_view(state, seat, log=full)
    if full:
        log = own.pop("log", [])
        count = sum(1 for e in state["log"] if visible(e, seat))
        log = _numbered(log, count - len(log))
    else:
        count = table.log_n.get(seat, 0)
        log = _numbered([public_form(e) for e in state["log"][table.log_at.get(seat, 0):]
                         if visible(e, seat)], count)
        count += len(log)
    pack = traffic.packer()
    whole = pack(own)
    last = table.sent.get(seat)
    if last is not None and last[3] == whole:
        mine = last[1]  # the overlay as it was: its parts as packed then
    else:
        mine = {k: pack(v) for k, v in own.items()}  # each own part packed once
    legal_b = table.legal_packed(seat)
    before = None if full else last
    if keep:
        table.sent[seat] = (public.parts, mine, legal_b, whole)
        table.log_at[seat] = len(state["log"])
        table.log_n[seat] = count
        table.note_choice(seat, (deadline_key, legal_b))
    parts = [("type", _VIEW), ("table", public.table), ("state_id", public.state_id)]
    if before is None:
        parts += [("view", traffic.map_of({**public.parts, **mine})), ("legal", legal_b)]
    else:  # only what changed since the seat's last frame (compared as packed bytes)
        changed, gone = view_delta(public, mine, before)
        if changed:
            parts.append(("view_delta", traffic.map_of(changed)))
        if gone:
            parts.append(("view_gone", traffic.packed(gone)))
        if legal_b != before[2]:
            parts.append(("legal", legal_b))
    parts.append(("log", traffic.packed(log) if log else _EMPTY))
    if full:
        parts.append(("log_reset", _TRUE))
        if table.commitment:
            parts.append(("commitment", traffic.packed(table.commitment)))
    return parts


def _unchanged_tick(table: Table, change: Change, every: float) -> bytes | None:
    """A secret step's tick at which nothing changed for anyone (its cost is per tick, four a
    second per table in a step): the one "same" frame every seat gets — byte for byte what
    :func:`frames` would make for each —, or None if anything changed."""
    secret = secret_of(table, every)
    if (secret is None or table.version != table.rendered_version or change.full
            or change.replies or change.chat or change.emotes or change.watchers is not None
            or table.presence_now != table.presence_rendered
            or table.bots_public() != table.bots_rendered
            or any(s.kind != "empty" and i not in table.log_at
                   for i, s in enumerate(table.seats))):
        return None
    parts = [("type", _VIEW), ("table", traffic.packed(table.id)),
             ("state_id", traffic.packed(table.published)), ("log", _EMPTY),
             ("secret", traffic.packed(secret))]
    table.step_size = max(traffic.size_class(traffic.needed(parts)), table.step_size)
    return traffic.assemble(parts, table.step_size)


def frames(table: Table, change: Change, conn_of_seat: dict[int, int],
           every: float = traffic.SLOT_EVERY) -> list[tuple[int, bytes]]:
    """(connection id, frame bytes) for every seat the change reaches, all of one length.
    ``conn_of_seat`` maps the table's connected human seats to their connections."""
    if table.state is None or not conn_of_seat:
        return []  # nobody to tell (a reconnecting seat gets its whole view then)
    same = _unchanged_tick(table, change, every)
    if same is not None:  # (no view built: what every seat would be sent anyway)
        return [(conn, same) for conn in conn_of_seat.values()]
    table.presence_rendered = table.presence_now
    table.bots_rendered = table.bots_public()
    deadline = table.deadline()
    key = deadline.key if deadline else None
    secret = secret_of(table, every)
    secret_b = traffic.packed(secret) if secret else None
    watchers_b = traffic.packed(change.watchers) if change.watchers is not None else None
    emotes_b = traffic.packed(change.emotes) if change.emotes else None
    public = public_parts(table)
    burst = change.burst
    seated = [i for i, s in enumerate(table.seats) if s.kind != "empty"]
    per_seat: dict[int, traffic.Frame] = {}
    sizes: list[int] = []
    for i in seated:
        full = (i in change.full or i not in table.log_at
                or len(table.state["log"]) - table.log_at[i] > BEHIND_MOST)
        if burst or i in change.full or i in change.alone:
            parts = _seat_parts(table, i, full, True, key, public)
            reply = change.replies.get(i, {})
            for name in ("answered", "rejected", "error"):
                if name in reply:
                    parts.append((name, traffic.packed(reply[name])))
            chat = change.chat.get(i, [])
            if full and table.chat_kept:  # a seat back gets the table's chat so far
                chat = table.chat_kept + [c for c in chat if c not in table.chat_kept]
            if chat:
                parts.append(("chat", traffic.packed(chat)))
            if secret_b is not None:
                parts.append(("secret", secret_b))
            if watchers_b is not None:  # public: every seat's frame the same
                parts.append(("watchers", watchers_b))
            if emotes_b is not None:  # (host/emotes.py) public, the same for every seat
                parts.append(("emotes", emotes_b))
            frame = per_seat[i] = traffic.Frame(parts)
            sizes.append(frame.needed())
        else:  # a resync of someone else: this seat's full frame only sets the length
            parts = _seat_parts(table, i, True, False, key, public)
            if table.chat_kept:
                parts.append(("chat", traffic.packed(table.chat_kept)))
            if secret_b is not None:
                parts.append(("secret", secret_b))
            if watchers_b is not None:
                parts.append(("watchers", watchers_b))
            if emotes_b is not None:
                parts.append(("emotes", emotes_b))
            sizes.append(traffic.needed(parts))
    table.rendered_version = table.version
    size = traffic.size_class(max(sizes, default=0))
    if secret is not None and burst:  # a step's ticks: never shorter than its frames so far
        size = table.step_size = max(size, table.step_size)
    return [(conn_of_seat[i], frame.padded(size)) for i, frame in per_seat.items()
            if i in conn_of_seat]
