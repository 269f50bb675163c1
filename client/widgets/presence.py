"""Presence in words: who at a table is connected, reconnecting, disconnected, absent or played
by a bot.

The host sends every seat's presence with every frame of a table (``view["presence"]``) and in
every lobby entry (``presence`` and ``absent_in`` per seat): ``connected``, ``reconnecting`` (the
link dropped; the client comes back by itself) or ``disconnected`` (the client was closed or
stopped trying) — both with ``absent_in``: whole seconds until the seat counts as absent,
counted from when it arrived —, ``absent``, ``bot``, ``stand_in`` (a bot keeps the seat for its
player) or ``empty``. Your own lost link is the client's to show (``⟳ reconnecting…``, see
:mod:`client.reconnect`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import Any

from hexnet.i18n import _

Name = Callable[[int], str]


def seconds_left(entry: dict[str, Any], since: float, now: float | None = None) -> int | None:
    """The seconds until a disconnected seat counts as absent, counted down from ``since``
    (when the entry arrived, :func:`time.monotonic`); None if the host gave none."""
    left = entry.get("absent_in")
    if not isinstance(left, int | float) or isinstance(left, bool):
        return None
    now = time.monotonic() if now is None else now
    return max(0, math.ceil(left - (now - since)))


def mark(entry: dict[str, Any], since: float, now: float | None = None) -> str:
    """A short mark after a seat's name: "" when connected (or a plain bot)."""
    state = entry.get("state", entry.get("presence"))
    if state == "reconnecting":
        left = seconds_left(entry, since, now)
        return (_("⟳reconnecting, absent in {n} s").format(n=left) if left is not None
                else _("⟳reconnecting"))
    if state == "disconnected":
        left = seconds_left(entry, since, now)
        return (_("⚡disconnected, absent in {n} s").format(n=left) if left is not None
                else _("⚡disconnected"))
    if state == "absent":
        return _("⌀ absent")
    if state == "stand_in":
        return _("⚙ bot plays")
    return ""


def line(presence: Sequence[Any], name: Name, since: float, now: float | None = None) -> str:
    """Every seat that is not simply there, in one line: ``Bob ⟳reconnecting, absent in 42 s ·
    Carol ⌀ absent`` ("" when everyone is)."""
    parts = []
    for seat, entry in enumerate(presence):
        if isinstance(entry, dict):
            text = mark(entry, since, now)
            if text:
                parts.append(f"{name(seat)} {text}")
    return " · ".join(parts)


def counting(presence: Sequence[Any]) -> bool:
    """Whether a countdown runs (the line must be redrawn every second)."""
    return any(isinstance(e, dict) and e.get("absent_in") is not None
               and e.get("state", e.get("presence")) in ("reconnecting", "disconnected")
               for e in presence)
