"""The end of a Fang game: which side won and why, and every role revealed."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Static

from client.screens.results import ResultsScreen, fair_play_static, tutorial_static
from client.words.results import fang_headline, fang_roles, fang_summary
from hexnet.i18n import _


def roles_table(view: dict[str, Any]) -> Table:
    """Every seat: winner ★, name, role, side, and its form at the end."""
    winners = set((view.get("outcome") or {}).get("winners") or [])
    table = Table(box=None, header_style="bold", padding=(0, 1))
    for title in ("", _("Player"), _("Role"), _("Side"), _("End")):
        table.add_column(title, no_wrap=True)
    for seat, player, role, side, form in fang_roles(view):
        table.add_row("★" if seat in winners else "", Text(player), role, side, form)
    return table


class FangResultsScreen(ResultsScreen):
    """Shows a finished Fang table: every role revealed; keys as on every results screen."""

    def compose_results(self) -> ComposeResult:
        yield Static(_("Fang die Hexe — game over, table #{table}").format(table=self.table),
                     classes="title", markup=False)
        yield Static(fang_headline(self.view), id="headline", markup=False)
        yield Static(roles_table(self.view), id="fang-roles", markup=False)
        yield Static(fang_summary(self.view), id="fang-summary", markup=False)
        yield from tutorial_static(self.app, self.view)
        yield from fair_play_static(self.app, self.table)
