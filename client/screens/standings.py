"""A tournament's standings (issue 13): where the event stands, every entrant's line, yours
marked. Shown by itself between rounds and at the end; ``o`` in the lobby shows it any time."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from client.widgets.footer import LocalFooter
from client.words.lobby import headline, you_line
from hexnet.i18n import N_, _


def standings_table(event: dict[str, Any]) -> Table:
    """Rank, entrant, points, wins, games, byes and the format's tie-breaks, and — where the
    host keeps ratings — each entrant's rating and its change over the event; yours in
    bold."""
    fmt = event.get("format")
    table = Table(box=None, header_style="bold", padding=(0, 1))
    table.add_column("#", justify="right")
    table.add_column(_("Entrant"), no_wrap=True)
    for col in (_("Points"), _("Wins"), _("Games"), _("Byes")):
        table.add_column(col, justify="right")
    if fmt == "swiss":
        table.add_column(_("Median-Buchholz"), justify="right")
        table.add_column(_("Buchholz"), justify="right")
    elif fmt == "knockout":
        table.add_column(_("Rounds reached"), justify="right")
    rows = event.get("standings") or []
    rated = any("rating" in r for r in rows)
    if rated:
        table.add_column(_("Rating"), no_wrap=True)
        table.add_column(_("Change"), justify="right")
    if not rows:  # before the first round ends: the entrants in seed order
        for i, name in enumerate(event.get("entrants") or [], 1):
            table.add_row(str(i), name, style="bold" if name == event.get("you") else None)
        return table
    for r in rows:
        cells = [str(r["rank"]), str(r["name"]), f"{r['points']:g}", str(r["wins"]),
                 str(r["games"]), str(r["byes"])]
        if fmt == "swiss":
            cells += [f"{r['median_buchholz']:g}", f"{r['buchholz']:g}"]
        elif fmt == "knockout":
            cells.append(str(r["reached"]))
        if rated:
            rating = r.get("rating")
            cells += ([f"{rating['mu']:.1f} ± {rating['sigma']:.1f}", f"{r['change']:+.1f}"]
                      if rating and "change" in r else ["—", "—"])
        table.add_row(*cells, style="bold" if r["name"] == event.get("you") else None)
    return table


class StandingsScreen(Screen):
    """The tournament's standings; Esc back."""

    HELP_TITLE = N_("Standings")
    BINDINGS = [
        Binding("escape,enter", "back", N_("Back")),
        Binding("question_mark", "app.help", N_("Help"), key_display="?"),
    ]

    def __init__(self, event: dict[str, Any]) -> None:
        super().__init__()
        self.event = event

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="standings"):
            yield Static(headline(self.event), id="standings-title", classes="title",
                         markup=False)
            yield Static(you_line(self.event), id="standings-you", markup=False)
            yield Static(standings_table(self.event), id="standings-table", markup=False)
        yield LocalFooter()

    def update_event(self, event: dict[str, Any]) -> None:
        """Show the event as it is now."""
        self.event = event
        if self.is_mounted:
            self.query_one("#standings-title", Static).update(headline(event))
            self.query_one("#standings-you", Static).update(you_line(event))
            self.query_one("#standings-table", Static).update(standings_table(event))

    def retranslate(self) -> None:
        """Words in the current language (after a language switch)."""
        self.refresh(recompose=True)

    def action_back(self) -> None:
        self.app.pop_screen()
