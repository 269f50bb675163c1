"""The lobby in words: a table's game with its options, its seats with who is not simply there,
its watchers, the paces a new table may have, and a tournament's headline. The lobby screen and
the plain mode say them alike."""

from __future__ import annotations

from typing import Any

from client.widgets import presence
from client.words.party import bots_text
from hexnet.i18n import N_, _, ngettext

STATUS = {"open": N_("open"), "playing": N_("playing"), "over": N_("over"),
          "halted": N_("halted")}
PACES = {"relaxed": N_("relaxed"), "normal": N_("normal"), "quick": N_("quick")}


def seats_summary(table: dict[str, Any], since: float = 0.0) -> str:
    """``Anna 27±4, bot 2, Bob ⟳reconnecting, absent in 42 s, —`` — who sits where, their
    rating in the table's game (μ ± σ, once rated: the host keeps history), who is not simply
    there (:mod:`client.widgets.presence`; the countdown runs from ``since``), ``—`` for an
    empty seat."""
    names = []
    for seat in table.get("seats") or []:
        if seat.get("kind") == "empty":
            names.append("—")
        elif "presence" in seat:
            mark = presence.mark(seat, since)
            name = str(seat.get("name", "")) + level_text(seat) + rating_text(seat)
            names.append(f"{name} {mark}" if mark else name)
        else:  # a host before presence
            mark = "" if seat.get("connected", True) else "?"
            mark += _("(absent)") if seat.get("absent") else ""
            mark += " " + _("(free: s takes it)") if seat.get("free") else ""
            names.append(f"{seat.get('name', '')}{mark}")
    return ", ".join(names) + watchers_summary(table)


LEVEL_WORDS = {"easy": N_("easy"), "normal": N_("normal"), "hard": N_("hard")}


def level_text(seat: dict[str, Any]) -> str:
    """`` (hard)`` — a bot's level (or the policy it plays) after its name; nothing for a
    person or a host that does not say."""
    policy = seat.get("policy")
    if seat.get("kind") != "bot" or not policy:
        return ""
    return f" ({_(LEVEL_WORDS[policy]) if policy in LEVEL_WORDS else policy})"


def rating_text(seat: dict[str, Any]) -> str:
    """`` 27±4`` — a seat's rating in the table's game (μ ± σ, whole numbers); nothing for a
    player not rated in it yet or a host that keeps no ratings."""
    rating = seat.get("rating")
    if not isinstance(rating, dict):
        return ""
    return f" {rating['mu']:.0f}±{rating['sigma']:.0f}"


def watchers_summary(table: dict[str, Any]) -> str:
    """`` · 👁 Anna, Béla`` — who watches the table; `` · no watching`` if it may not be
    watched; nothing if nobody watches."""
    if table.get("watch") is False:
        return " · " + _("no watching")
    watchers = [str(w) for w in table.get("watchers") or []]
    if not watchers:
        return ""
    return " · 👁 " + ", ".join(watchers)


def game_text(table: dict[str, Any]) -> str:
    """The game cell: its title, the options the table was created with (everyone sees them
    before sitting down — a pace with the seconds it sets), and a warning if the host stacked
    the position."""
    from client.options_words import options_text

    text = str(table.get("title") or table.get("game"))
    options = table.get("options")
    shown = (options_text(table.get("game"), options, timings=True)
             if isinstance(options, dict) else "")
    if shown:
        text += f" ({shown})"
    if table.get("stacked"):
        text += " " + _("⚠ stacked")
    bots = bots_text(table.get("bots"))  # the host's bots held or slowed (host/pause.py)
    if bots:
        text += " · " + bots
    return text


def seat_range(game: str) -> list[int]:
    """The table sizes the game allows (from its engine when installed)."""
    try:
        from hexnet.games import get_game

        engine = get_game(game)
        return list(range(engine.min_players, engine.max_players + 1))
    except (KeyError, ImportError):
        return list(range(2, 13))


def pace_choices(game: str) -> list[tuple[str, str]]:
    """The game's paces as picker choices, each with the seconds it sets ("normal" first);
    [] if the game (or this client) knows none."""
    from client.options_words import options_text
    from hexnet.options import paces

    try:
        from hexnet.games import get_game

        known = paces(get_game(game))
    except (KeyError, ImportError):
        return []
    order = sorted(known, key=lambda name: name != "normal")
    return [(f"{_(PACES.get(name, name))} — {options_text(game, known[name])}", name)
            for name in order]


FORMATS = {"swiss": N_("Swiss"), "round-robin": N_("round-robin"), "knockout": N_("knockout")}


def headline(event: dict[str, Any]) -> str:
    """``Swiss tournament of Hranice — after round 2 of 3`` (or registering, playing, over)."""
    title = _("{format} tournament of {game}").format(
        format=_(FORMATS.get(str(event.get("format")), str(event.get("format")))),
        game=str(event.get("game", "")).capitalize())
    status = event.get("status")
    if status == "registering":
        when = ngettext("registering: {n} entrant", "registering: {n} entrants",
                        len(event.get("entrants") or [])).format(
            n=len(event.get("entrants") or []))
    elif status == "over":
        when = _("final standings")
    elif status == "playing":
        when = _("round {round} of {rounds} is being played").format(
            round=event.get("round"), rounds=event.get("rounds"))
    else:
        when = _("after round {round} of {rounds}").format(round=event.get("round"),
                                                           rounds=event.get("rounds"))
    return f"{title} — {when}"


def you_line(event: dict[str, Any]) -> str:
    """Whether and as whom the reader has entered."""
    if event.get("you"):
        return _("You play as {name}.").format(name=event["you"])
    if event.get("status") == "registering":
        return _("Press e in the lobby to enter.")
    return _("You have not entered this tournament.")
