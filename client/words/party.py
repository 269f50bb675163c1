"""The party in words (issue 26): emotes, a rematch's answers, the host's bots held or slowed.
The screens and the plain mode say them alike."""

from __future__ import annotations

import time
from typing import Any

from hexnet.emotes import by_key, emotes
from hexnet.i18n import _, pgettext

EMOTE_SECONDS = 8.0  # how long an emote stays beside its player's name
BOT_DELAYS = (1.0, 2.0, 4.0, 8.0)  # the slower paces a table's owner is offered (seconds)


def emote_words(key: str) -> str:
    """An emote in words (``thumbs up``), in the reader's language."""
    return pgettext("emote", key) if by_key(key) is not None else key


def emote_glyph(key: str) -> str:
    """An emote as drawn (``👍``); "" for one this client does not know."""
    emote = by_key(key)
    return emote.glyph if emote is not None else ""


def emote_choices() -> list[tuple[str, str]]:
    """Every emote as a picker's entry: ``👍 thumbs up``, its key."""
    return [(f"{e.glyph} {emote_words(e.key)}", e.key) for e in emotes()]


def emote_asked(text: str) -> str | None:
    """The emote a typed word names — its key, its glyph or its words — or None."""
    text = text.strip().casefold()
    for e in emotes():
        if text in (e.key, e.glyph, emote_words(e.key).casefold()):
            return e.key
    return None


class Shown:
    """The emotes shown now at one table: seat → (key, until when)."""

    def __init__(self) -> None:
        self.by_seat: dict[int, tuple[str, float]] = {}

    def add(self, seat: int, key: str, now: float | None = None) -> float:
        """Show ``key`` beside ``seat`` from now; the seconds it stays."""
        now = time.monotonic() if now is None else now
        self.by_seat[seat] = (key, now + EMOTE_SECONDS)
        return EMOTE_SECONDS

    def now(self, now: float | None = None) -> dict[int, str]:
        """Seat → the key of the emote still shown beside it."""
        now = time.monotonic() if now is None else now
        self.by_seat = {s: (k, until) for s, (k, until) in self.by_seat.items() if until > now}
        return {s: k for s, (k, _until) in self.by_seat.items()}

    def line(self, name: Any, now: float | None = None) -> str:
        """``Ada 👍 · Bert 😂`` — every emote shown now beside its player's name."""
        return " · ".join(f"{name(seat)} {emote_glyph(key)}"
                          for seat, key in sorted(self.now(now).items()))


def bots_text(bots: Any) -> str:
    """``⏸ bots paused by Ada`` / ``bots slowed: 2 s a move`` ("" while they play as the host
    has it)."""
    if not isinstance(bots, dict):
        return ""
    parts = []
    if bots.get("paused"):
        by = str(bots.get("by") or "")
        parts.append(_("⏸ bots paused by {name}").format(name=by) if by
                     else _("⏸ bots paused by the host"))
    delay = bots.get("delay")
    if isinstance(delay, int | float) and not isinstance(delay, bool):
        parts.append(_("bots slowed: {seconds} s a move").format(seconds=f"{delay:g}"))
    return " · ".join(parts)


def bots_choices(bots: Any) -> list[tuple[str, tuple[bool, float | None]]]:
    """What a table's owner may do with its bots now, as picker entries (paused, delay)."""
    bots = bots if isinstance(bots, dict) else {}
    paused, delay = bool(bots.get("paused")), bots.get("delay")
    out = [(_("▶ let the bots play on") if paused else _("⏸ pause the bots (and the clock)"),
            (not paused, delay))]
    if delay is not None:
        out.append((_("the host's pace for the bots"), (paused, None)))
    out += [(_("bots slower: {seconds} s a move").format(seconds=f"{d:g}"), (paused, d))
            for d in BOT_DELAYS if d != delay]
    return out


ANSWER_MARKS = {"yes": "✓", "waiting": "…", "bot": "⚙"}


def rematch_line(offer: dict[str, Any], you: Any) -> str:
    """``Rematch: ✓ Ada (you) · … Bert · ⚙ bot 3`` — every seat of the old table with its
    answer; or that it started, or was withdrawn."""
    status = offer.get("status")
    if status == "started":
        return _("The rematch is on at table #{table}.").format(table=offer.get("new_table"))
    if status == "withdrawn":
        return _("The rematch was withdrawn: nobody wants to play again.")
    seats = []
    for s in offer.get("seats") or []:
        name = str(s.get("name", "")) + (_(" (you)") if s.get("seat") == you else "")
        seats.append(f"{ANSWER_MARKS.get(str(s.get('answer')), '?')} {name}")
    return _("Rematch: {seats}").format(seats=" · ".join(seats))


def rematch_sentences(offer: dict[str, Any], you: Any) -> list[str]:
    """The offer in sentences (the plain mode): who agreed, who is awaited, who a bot plays."""
    status = offer.get("status")
    if status in ("started", "withdrawn"):
        return [rematch_line(offer, you)]
    by: dict[str, list[str]] = {"yes": [], "waiting": [], "bot": []}
    for s in offer.get("seats") or []:
        name = _("you") if s.get("seat") == you else str(s.get("name", ""))
        by.setdefault(str(s.get("answer")), []).append(name)
    lines = [_("A rematch of table {table} is offered.").format(table=offer.get("table"))]
    if by["yes"]:
        lines.append(_("Agreed: {names}.").format(names=", ".join(by["yes"])))
    if by["waiting"]:
        lines.append(_("Waiting for: {names}.").format(names=", ".join(by["waiting"])))
    if by["bot"]:
        lines.append(_("A bot plays for: {names}.").format(names=", ".join(by["bot"])))
    return lines


def rematch_keys(offer: dict[str, Any] | None, you: Any) -> str:
    """What the reader may do about the rematch now, in words with its keys."""
    if offer is None or offer.get("status") != "open":
        return _("n: offer a rematch (the same table again, seats shuffled)")
    mine = next((s for s in offer.get("seats") or [] if s.get("seat") == you), {})
    text = (_("n: yes, play again · x: no") if mine.get("answer") == "waiting"
            else _("x: I won't play after all"))
    waiting = any(s.get("answer") == "waiting" for s in offer.get("seats") or [])
    if offer.get("owner") == you and waiting:
        wait = int(offer.get("wait") or 0)
        text += " · " + (_("B: bots for the silent seats in {n} s").format(n=wait)
                         if wait > 0 else _("B: bots for the silent seats"))
    return text
