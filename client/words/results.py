"""The end of a game in words: who won, the score's parts, and each game's own summary (Fang's
sides and roles, Hranice's path to the win). The results screens and the plain mode say it
alike."""

from __future__ import annotations

from typing import Any

from babel.lists import format_list

from client.widgets import fang_names as names
from hexnet import i18n
from hexnet.i18n import N_, _, ngettext

# the score parts engines report in ``outcome["breakdown"]``
PARTS = {"pentagrams": N_("pentagrams"), "matches": N_("matches"), "trials": N_("trials"),
         "empty_stakes": N_("empty stakes")}
RESULT_WORDS = {"village": N_("The village wins"), "witches": N_("The witches win"),
                "fool": N_("The fool wins alone")}
GAME_OVER = N_("The game is over")
PATH_KINDS = ("token", "ignite", "cleansed", "win", "turn_cap")


def headline(view: dict[str, Any], turns: bool = True) -> str:
    """Who won, in a sentence (and after how many turns, with ``turns``)."""
    outcome = view.get("outcome") or {}
    players = list(view.get("players") or [])
    winners = [str(players[s]) if 0 <= s < len(players) else f"#{s}"
               for s in outcome.get("winners") or []]
    you_won = view.get("seat") in (outcome.get("winners") or [])
    if you_won:
        text = _("You win!") if len(winners) == 1 else _("You share the win!")
    elif winners:
        listed = format_list(winners, locale=i18n.language())
        text = ngettext("{names} wins.", "{names} win.", len(winners)).format(names=listed)
    else:
        text = _("Nobody wins.")
    count = outcome.get("turns")
    if turns and isinstance(count, int):
        text += "  " + ngettext("({n} turn)", "({n} turns)", count).format(n=count)
    return text


def score_parts(view: dict[str, Any]) -> list[str]:
    """The parts of the score the outcome breaks down, in the engine's order."""
    parts: list[str] = []
    for entry in (view.get("outcome") or {}).get("breakdown") or []:
        if isinstance(entry, dict):
            parts += [k for k in entry if k not in parts and k != "total"]
    return parts


def part_name(part: str) -> str:
    """A score part in words (``empty stakes``)."""
    return _(PARTS.get(part, part.replace("_", " ")))


def you_mark(view: dict[str, Any], seat: int) -> str:
    """`` (you)`` after your own name."""
    return _(" (you)") if seat == view.get("seat") else ""


def ending(reason: str) -> str:
    """How a Fang game ended, in words (the outcome's ``reason`` key)."""
    return i18n.word(names.GAME, "end", reason)


def fang_headline(view: dict[str, Any]) -> str:
    """``The witches win — you are on their side. The witches outnumber the cats.``"""
    outcome = view.get("outcome") or {}
    won = view.get("seat") in (outcome.get("winners") or [])
    text = _(RESULT_WORDS.get(str(outcome.get("result")), GAME_OVER))
    text += _(" — you win!") if won else _(" — you lose.")
    reason = outcome.get("reason")
    return f"{text} {ending(reason)}".strip() if reason else text


def fang_summary(view: dict[str, Any]) -> str:
    """Day reached, seals, witch points."""
    outcome = view.get("outcome") or {}
    return _("Day {day} · seals {seals}/{needed} · witch points (frogs at the end): "
             "{points}").format(day=outcome.get("day", view.get("day")),
                                seals=outcome.get("seals", 0),
                                needed=view.get("seals_needed", "?"),
                                points=outcome.get("witch_points", 0))


def fang_roles(view: dict[str, Any]) -> list[tuple[int, str, str, str, str]]:
    """Every seat: (seat, name, role, side, form at the end) in words."""
    outcome = view.get("outcome") or {}
    roles = outcome.get("roles") or view.get("roles") or []
    forms = view.get("forms") or []
    out = []
    for seat, player in enumerate(view.get("players") or []):
        role = roles[seat] if seat < len(roles) else None
        out.append((seat, str(player) + you_mark(view, seat),
                    names.role_long(role) if role else "?",
                    names.side_words(names.side(role)) if role else "",
                    names.form(forms[seat]) if seat < len(forms) else ""))
    return out


def hranice_title(view: dict[str, Any], table: int) -> str:
    """The Hranice results' title: the table and the influence that wins."""
    outcome = view.get("outcome") or {}
    return _("Game over — Hranice #{table} · target {target} influence").format(
        table=table, target=outcome.get("target", view.get("target")))


def hranice_how(view: dict[str, Any]) -> str:
    """How a Hranice game was won, and after how many turns."""
    outcome = view.get("outcome") or {}
    how = i18n.word("hranice", "result", outcome.get("result"))
    turns = outcome.get("turns")
    return ngettext("How: {how}, after {n} turn.", "How: {how}, after {n} turns.",
                    turns if isinstance(turns, int) else 0).format(how=how, n=turns)


def hranice_sums(view: dict[str, Any]) -> list[str]:
    """Each winner's influence as a sum: ``Eva: council 9 + pyre 6 = 15 (target 7)``."""
    outcome = view.get("outcome") or {}
    players = list(view.get("players") or [])
    scores = list(outcome.get("scores") or [])
    permanent = list(outcome.get("permanent") or [])
    target = outcome.get("target", view.get("target"))
    out = []
    for seat in outcome.get("winners") or []:
        if 0 <= seat < min(len(players), len(scores)):
            perm = permanent[seat] if seat < len(permanent) else 0
            out.append(_("{name}: council {council} + pyre {pyre} = {total} (target {target})")
                       .format(name=players[seat], council=scores[seat] - perm, pyre=perm,
                               total=scores[seat], target=target))
    return out


def winning_path(view: dict[str, Any]) -> list[str]:
    """The winners' token flips, pyres and cleansings and the final event, from the log."""
    winners = set((view.get("outcome") or {}).get("winners") or [])
    lines = []
    for event in view.get("log") or []:
        kind = event.get("kind")
        if kind in ("win", "turn_cap") or (kind in PATH_KINDS and event.get("seat") in winners):
            lines.append(i18n.render("hranice", event, view.get("players") or []))
    return lines
