"""The end of a Hranice game: who won and how (dominant at the start of a turn, or the turn cap),
the winner's path (token flips and pyres from the log), and each player's influence split into
council and permanent points, with the final councils."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Static

from client.screens.results import ResultsScreen, fair_play_static, tutorial_static
from client.widgets import hranice_board as board
from client.words.results import (
    headline,
    hranice_how,
    hranice_sums,
    hranice_title,
    winning_path,
)
from hexnet.i18n import _


def score_table(view: dict[str, Any]) -> Table:
    """★ winner, player, council influence, permanent points from pyres, total, final council."""
    outcome = view.get("outcome") or {}
    players = list(view.get("players") or [])
    scores = list(outcome.get("scores") or [])
    permanent = list(outcome.get("permanent") or [])
    winners = set(outcome.get("winners") or [])
    councils = view.get("councils") or []
    table = Table(box=None, header_style="bold", padding=(0, 1, 0, 0), expand=True)
    table.add_column("", width=1)
    table.add_column(_("Player"), no_wrap=True, max_width=12)
    table.add_column(_("Council"), justify="right")
    table.add_column(_("Pyre"), justify="right")
    table.add_column(_("Total"), justify="right", style="bold")
    table.add_column(_("Final council"), ratio=1)
    for seat, name in enumerate(players):
        total = scores[seat] if seat < len(scores) else 0
        perm = permanent[seat] if seat < len(permanent) else 0
        who = str(name) + (_(" (you)") if seat == view.get("seat") else "")
        council = councils[seat] if seat < len(councils) else []
        table.add_row("★" if seat in winners else "", Text(who, style="bold" if seat in winners
                                                           else ""),
                      str(total - perm), f"+{perm}" if perm else "0", str(total),
                      ", ".join(board.citizen(c, view) for c in council) or "—")
    return table


class HraniceResultsScreen(ResultsScreen):
    """The Hranice outcome: headline, how it was won, the path, the scores."""

    def compose_results(self) -> ComposeResult:
        yield Static(hranice_title(self.view, self.table), classes="title", markup=False)
        yield Static(headline(self.view, turns=False), id="headline", markup=False)
        yield Static(hranice_how(self.view), id="how", markup=False)
        yield Static("; ".join(hranice_sums(self.view)), id="sums", markup=False)
        path = winning_path(self.view)
        if path:
            yield Static("\n".join("· " + line for line in path[-6:]), id="path",
                         markup=False)
        yield Static(score_table(self.view), id="scores", markup=False)
        yield from tutorial_static(self.app, self.view)
        yield from fair_play_static(self.app, self.table)
