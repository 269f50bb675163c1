"""A table's frames for one change, rendered once per seat (part of the sans-I/O core).

A :class:`host.changes.Change` collects what happened at a table since the last tick: that its
state changed, replies to seats (``answered``, ``rejected``, ``error``), chat lines per seat, seats
that need their full view again (a reconnect), and whether the end reveal is due. :func:`frames`
turns it into one ``view`` frame per connected human seat, following the traffic rule of
:mod:`protocol.traffic`: every seat's view is built once (without the log), each of its top-level
parts packed once and compared by its packed bytes with what that seat was last sent (``state_id``
kept outside): only the parts that changed go (``view_delta``, a map assembled from the packed
parts), an unchanged view goes as "same" (nothing), the log goes as the events new to the seat, and
every frame of the change is padded to one length — the largest frame of *any* seat of the table
(bots and disconnected players included, so the length never follows whose connection is up),
rounded up to 1 KiB.
"""

from __future__ import annotations

from typing import Any

from hexnet.engine import public_form, visible
from host.changes import Change
from host.table import Table
from protocol import traffic

_VIEW = traffic.packed("view")
_TRUE = traffic.packed(True)
_EMPTY = traffic.packed([])


def cover_of(table: Table) -> dict[str, Any] | None:
    """The secret step open at ``table`` (see :mod:`protocol.traffic`), if its game has one."""
    step = getattr(table.engine, "cover_step", None)
    if step is None or table.state is None or table.status != "playing":
        return None
    return step(table.state)


def _seat_parts(table: Table, seat: int, full: bool, keep: bool,
                deadline_key: Any) -> list[tuple[str, bytes]]:
    """The pre-packed parts of ``seat``'s frame; ``keep`` records what it was sent."""
    state = table.state
    assert state is not None
    engine = table.engine
    view = engine.view(state, seat, log=full)
    if table.presence_now is not None:  # the same for every seat (host/presence.py)
        view["presence"] = table.presence_now
    bots = table.bots_public()
    if bots is not None:  # the host's bots held or slowed (host/pause.py): public
        view["bots"] = bots
    sid = view.pop("state_id")
    if full:
        log = view.pop("log", [])
    else:
        log = [public_form(e) for e in state["log"][table.log_at.get(seat, 0):]
               if visible(e, seat)]
    legal = engine.legal_actions(state, seat) if table.status == "playing" else []
    items = {k: traffic.packed(v) for k, v in view.items()}  # each part packed once
    legal_b = traffic.packed(legal)
    before = None if full else table.sent.get(seat)
    if keep:
        table.sent[seat] = (items, legal_b)
        table.log_at[seat] = len(state["log"])
        table.note_choice(seat, (deadline_key, legal_b))
    parts = [("type", _VIEW), ("table", traffic.packed(table.id)),
             ("state_id", traffic.packed(sid))]
    if before is None:
        parts += [("view", traffic.map_of(items)), ("legal", legal_b)]
    else:  # only what changed since the seat's last frame (compared as packed bytes)
        old_items, old_legal = before
        changed = {k: v for k, v in items.items() if old_items.get(k) != v}
        gone = [k for k in old_items if k not in items]
        if changed:
            parts.append(("view_delta", traffic.map_of(changed)))
        if gone:
            parts.append(("view_gone", traffic.packed(gone)))
        if legal_b != old_legal:
            parts.append(("legal", legal_b))
    parts.append(("log", traffic.packed(log) if log else _EMPTY))
    if full:
        parts.append(("log_reset", _TRUE))
        if table.commitment:
            parts.append(("commitment", traffic.packed(table.commitment)))
    return parts


def frames(table: Table, change: Change, conn_of_seat: dict[int, int]
           ) -> list[tuple[int, bytes]]:
    """(connection id, frame bytes) for every seat the change reaches, all of one length.
    ``conn_of_seat`` maps the table's connected human seats to their connections."""
    if table.state is None or not conn_of_seat:
        return []  # nobody to tell (a reconnecting seat gets its whole view then)
    deadline = table.engine.deadline(table.state) if table.status == "playing" else None
    key = deadline.key if deadline else None
    cover = cover_of(table)
    cover_b = traffic.packed(cover) if cover else None
    watchers_b = traffic.packed(change.watchers) if change.watchers is not None else None
    emotes_b = traffic.packed(change.emotes) if change.emotes else None
    burst = change.burst
    seated = [i for i, s in enumerate(table.seats) if s.kind != "empty"]
    per_seat: dict[int, list[tuple[str, bytes]]] = {}
    sizes: list[int] = []
    for i in seated:
        full = i in change.full or i not in table.log_at
        if burst or i in change.full or i in change.alone:
            parts = _seat_parts(table, i, full, True, key)
            reply = change.replies.get(i, {})
            for name in ("answered", "rejected", "error"):
                if name in reply:
                    parts.append((name, traffic.packed(reply[name])))
            chat = change.chat.get(i, [])
            if full and table.chat_kept:  # a seat back gets the table's chat so far
                chat = table.chat_kept + [c for c in chat if c not in table.chat_kept]
            if chat:
                parts.append(("chat", traffic.packed(chat)))
            if cover_b is not None:
                parts.append(("cover", cover_b))
            if watchers_b is not None:  # public: every seat's frame the same
                parts.append(("watchers", watchers_b))
            if emotes_b is not None:  # (host/emotes.py) public, the same for every seat
                parts.append(("emotes", emotes_b))
            per_seat[i] = parts
            sizes.append(traffic.needed(parts))
        else:  # a resync of someone else: this seat's full frame only sets the length
            parts = _seat_parts(table, i, True, False, key)
            if table.chat_kept:
                parts.append(("chat", traffic.packed(table.chat_kept)))
            if cover_b is not None:
                parts.append(("cover", cover_b))
            if watchers_b is not None:
                parts.append(("watchers", watchers_b))
            if emotes_b is not None:
                parts.append(("emotes", emotes_b))
            sizes.append(traffic.needed(parts))
    table.rendered_sid = table.state_id
    size = traffic.size_class(max(sizes, default=0))
    return [(conn_of_seat[i], traffic.assemble(parts, size)) for i, parts in per_seat.items()
            if i in conn_of_seat]
