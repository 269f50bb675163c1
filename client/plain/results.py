"""The end of a game in plain sentences: who won, every seat's score with its parts (Fang: every
role and side), as the results screens show it (:mod:`client.words.results`)."""

from __future__ import annotations

from typing import Any

from client.widgets import hranice_board as board
from client.words.results import (
    fang_headline,
    fang_roles,
    fang_summary,
    headline,
    hranice_how,
    hranice_sums,
    part_name,
    score_parts,
    winning_path,
    you_mark,
)
from hexnet.i18n import _


def results_lines(view: dict[str, Any], table: int) -> list[str]:
    """Everything the results screen of ``view``'s game says, a sentence a line."""
    game = str(view.get("game", ""))
    lines = [_("The game at table {table} is over.").format(table=table)]
    if game == "fang":
        return lines + fang_lines(view)
    if game == "hranice":
        return lines + hranice_lines(view)
    return lines + [headline(view)] + score_lines(view)


def winner_mark(view: dict[str, Any], seat: int) -> str:
    """`` Winner.`` after a winning seat's line ("" for the others)."""
    won = seat in ((view.get("outcome") or {}).get("winners") or [])
    return " " + _("Winner.") if won else ""


def score_lines(view: dict[str, Any]) -> list[str]:
    """Each seat's score: every part of its breakdown, then the total."""
    outcome = view.get("outcome") or {}
    scores = list(outcome.get("scores") or [])
    breakdown = outcome.get("breakdown") or []
    parts = score_parts(view)
    lines = []
    for seat, name in enumerate(view.get("players") or []):
        entry = breakdown[seat] if seat < len(breakdown) and isinstance(
            breakdown[seat], dict) else {}
        said = ", ".join(f"{part_name(p)} {entry.get(p, 0)}" for p in parts)
        total = scores[seat] if seat < len(scores) else "?"
        line = (_("{name}: {parts}, total {total}.").format(
            name=f"{name}{you_mark(view, seat)}", parts=said, total=total) if said
            else _("{name}: total {total}.").format(name=f"{name}{you_mark(view, seat)}",
                                                   total=total))
        lines.append(line + winner_mark(view, seat))
    return lines


def fang_lines(view: dict[str, Any]) -> list[str]:
    """Which side won and why, every role with its side and its form at the end."""
    lines = [fang_headline(view)]
    for seat, name, role, side, form in fang_roles(view):
        lines.append(_("{name}: {role}, for {side}; at the end: {form}.").format(
            name=name, role=role, side=side or "?", form=form or "?")
                     + winner_mark(view, seat))
    return [*lines, fang_summary(view)]


def hranice_lines(view: dict[str, Any]) -> list[str]:
    """How the game was won, the winners' sums and path, every player's influence."""
    outcome = view.get("outcome") or {}
    lines = [headline(view, turns=False), hranice_how(view), *hranice_sums(view)]
    lines += winning_path(view)[-6:]
    scores = list(outcome.get("scores") or [])
    permanent = list(outcome.get("permanent") or [])
    councils = view.get("councils") or []
    for seat, name in enumerate(view.get("players") or []):
        total = scores[seat] if seat < len(scores) else 0
        perm = permanent[seat] if seat < len(permanent) else 0
        council = councils[seat] if seat < len(councils) else []
        lines.append(_("{name}: council {council}, pyre {pyre}, total {total}; final council: "
                       "{citizens}.").format(
            name=f"{name}{you_mark(view, seat)}", council=total - perm, pyre=perm, total=total,
            citizens=", ".join(board.citizen(c, view) for c in council) or _("empty"))
                     + winner_mark(view, seat))
    return lines
