"""A replay in words: who did what, the events each viewer saw, the result — in the reader's
language (the current one, :func:`hexnet.i18n.set_language`).

``hexnet replay JOURNAL --text`` prints :func:`lines`; the replay screen shows the same
:func:`action_text` and :func:`event_text` lines.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from hexnet import i18n
from hexnet.engine import Event
from hexnet.i18n import _, ngettext
from hexnet.record import Record
from hexnet.replay import ALL, Position, Replay


def seat_name(players: list[str], seat: Any) -> str:
    """The name at ``seat`` ("?" for anything that is not a seat of the table)."""
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(players):
        return str(players[seat])
    return "?"


def viewer_text(replay: Replay) -> str:
    """Whose eyes the replay shows: a seat's, the public's, or everyone's."""
    if replay.viewer == ALL:
        return _("all-seeing")
    if replay.viewer is None:
        return _("public view")
    return _("as {player}").format(player=seat_name(replay.record.players, replay.viewer))


def action_text(replay: Replay, position: Position) -> str:
    """``Anna: play Beweys +2 …`` — who did what to reach ``position``; only who acted where
    the viewer may not know what (a running game, someone else's move)."""
    players = replay.record.players
    if position.index == 0:
        return _("The deal")
    action = position.action or {}
    if position.seat is None:
        if action.get("type") == "absent":
            return _("The host: {player} is away; the game plays for them").format(
                player=seat_name(players, action.get("seat")))
        return _("The host: the time is up")
    who = seat_name(players, position.seat)
    if not replay.sees_action(position) or position.label is None:
        return _("{player} acts").format(player=who)
    return f"{who}: {i18n.render_label(replay.record.game, position.label, players)}"


def event_text(replay: Replay, event: Event) -> str:
    """One event; the all-seeing viewer reads whom a private one was for."""
    text = i18n.render(replay.record.game, event, replay.record.players)
    to = event.get("to")
    if replay.viewer == ALL and isinstance(to, list):
        names = ", ".join(seat_name(replay.record.players, s) for s in to)
        return _("[only {players}] {text}").format(players=names, text=text)
    return text


def result_text(record: Record) -> str:
    """The outcome in a line: the winners and every seat's score."""
    outcome = record.outcome or {}
    players = record.players
    winners = [seat_name(players, s) for s in outcome.get("winners") or []]
    scores = outcome.get("scores") or []
    won = (ngettext("{names} wins", "{names} win", len(winners)).format(
        names=", ".join(winners)) if winners else _("Nobody wins"))
    if not scores:
        return won
    return won + " (" + ", ".join(f"{seat_name(players, s)} {v}"
                                  for s, v in enumerate(scores)) + ")"


def started_text(record: Record) -> str:
    """When the game began (UTC), or "?"."""
    if record.started is None:
        return "?"
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(record.started))


def lines(replay: Replay, verdict_lines: list[str] | None = None) -> Iterator[str]:
    """The game as plain lines: a header (game, date, players, viewer, the check), then per
    step its number, the action and — indented — the events the viewer saw, then the result."""
    record = replay.record
    yield "# " + " · ".join([replay.game.title, started_text(record), viewer_text(replay)])
    yield "# " + _("Players: {players}").format(players=", ".join(
        f"{i} {p}" for i, p in enumerate(record.players)))
    for line in verdict_lines or []:
        yield f"# {line}"
    for position in replay.positions:
        yield f"{position.index:>4}  {action_text(replay, position)}"
        for event in position.events:
            if replay.sees(event):
                yield f"      {event_text(replay, event)}"
    if record.outcome is not None:
        yield "# " + _("Result: {result}").format(result=result_text(record))
    else:
        yield "# " + ngettext("The game has not finished ({n} step so far).",
                              "The game has not finished ({n} steps so far).",
                              len(record.steps)).format(n=len(record.steps))
