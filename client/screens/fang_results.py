"""The end of a Fang game: which side won and why, and every role revealed."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from client.screens.results import ResultsScreen, fair_play_static, tutorial_static
from client.widgets import fang_names as names
from client.widgets.footer import LocalFooter
from hexnet import i18n
from hexnet.i18n import N_, _


def names_end(reason: str) -> str:
    """How the game ended, in words (the outcome's ``reason`` key)."""
    return i18n.word(names.GAME, "end", reason)

RESULT_WORDS = {"village": N_("The village wins"), "witches": N_("The witches win"),
                "fool": N_("The fool wins alone")}
GAME_OVER = N_("The game is over")


def headline(view: dict[str, Any]) -> str:
    """``The witches win — you are on their side. The witches outnumber the cats.``"""
    outcome = view.get("outcome") or {}
    won = view.get("seat") in (outcome.get("winners") or [])
    text = _(RESULT_WORDS.get(str(outcome.get("result")), GAME_OVER))
    text += _(" — you win!") if won else _(" — you lose.")
    reason = outcome.get("reason")
    return f"{text} {names_end(reason)}".strip() if reason else text


def roles_table(view: dict[str, Any]) -> Table:
    """Every seat: winner ★, name, role, side, and its form at the end."""
    outcome = view.get("outcome") or {}
    roles = outcome.get("roles") or view.get("roles") or []
    winners = set(outcome.get("winners") or [])
    forms = view.get("forms") or []
    table = Table(box=None, header_style="bold", padding=(0, 1))
    for title in ("", _("Player"), _("Role"), _("Side"), _("End")):
        table.add_column(title, no_wrap=True)
    for seat, player in enumerate(view.get("players") or []):
        role = roles[seat] if seat < len(roles) else None
        table.add_row("★" if seat in winners else "",
                      Text(str(player) + (_(" (you)") if seat == view.get("seat") else "")),
                      names.role_long(role) if role else "?",
                      names.side_words(names.side(role)) if role else "",
                      names.form(forms[seat]) if seat < len(forms) else "")
    return table


def summary(view: dict[str, Any]) -> str:
    """Day reached, seals, witch points."""
    outcome = view.get("outcome") or {}
    return _("Day {day} · seals {seals}/{needed} · witch points (frogs at the end): "
             "{points}").format(day=outcome.get("day", view.get("day")),
                                seals=outcome.get("seals", 0),
                                needed=view.get("seals_needed", "?"),
                                points=outcome.get("witch_points", 0))


class FangResultsScreen(ResultsScreen):
    """Shows a finished Fang table: every role revealed; keys as on every results screen."""

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="results"):
            yield Static(_("Fang die Hexe — game over, table #{table}").format(table=self.table),
                         classes="title", markup=False)
            yield Static(headline(self.view), id="headline", markup=False)
            yield Static(roles_table(self.view), id="fang-roles", markup=False)
            yield Static(summary(self.view), id="fang-summary", markup=False)
            yield from tutorial_static(self.app, self.view)
            yield from fair_play_static(self.app, self.table)
        yield LocalFooter()
