"""The end of a game: scores with their full breakdown, and the winners."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static


def score_table(view: dict[str, Any]) -> Table:
    """Seat, name, every breakdown column the outcome carries, and the total; winners starred.

    ``outcome["breakdown"]`` (a list per seat of ``{part: points}`` maps) is shown column by
    column in the order the engine gives; anything else per seat (lists as long as the seats) too.
    """
    outcome = view.get("outcome") or {}
    players = list(view.get("players") or [])
    scores = list(outcome.get("scores") or [])
    winners = set(outcome.get("winners") or [])
    breakdown = outcome.get("breakdown") or []
    parts: list[str] = []
    for entry in breakdown:
        if isinstance(entry, dict):
            parts += [k for k in entry if k not in parts and k != "total"]
    table = Table(box=None, header_style="bold", padding=(0, 1))
    table.add_column("")
    table.add_column("Player", no_wrap=True)
    for part in parts:
        table.add_column(part.replace("_", " "), justify="right")
    table.add_column("Total", justify="right", style="bold")
    for seat, name in enumerate(players):
        row: list[Any] = ["★" if seat in winners else "", Text(str(name) + (
            " (you)" if seat == view.get("seat") else ""))]
        entry = breakdown[seat] if seat < len(breakdown) and isinstance(
            breakdown[seat], dict) else {}
        row += [str(entry.get(part, "")) for part in parts]
        row.append(str(scores[seat]) if seat < len(scores) else "")
        table.add_row(*row)
    return table


def headline(view: dict[str, Any]) -> str:
    """Who won, in a sentence."""
    outcome = view.get("outcome") or {}
    players = list(view.get("players") or [])
    winners = [players[s] if 0 <= s < len(players) else f"seat {s}"
               for s in outcome.get("winners") or []]
    you_won = view.get("seat") in (outcome.get("winners") or [])
    text = ("You win!" if you_won and len(winners) == 1 else
            "You share the win!" if you_won else
            f"{' and '.join(map(str, winners))} win{'s' if len(winners) == 1 else ''}."
            if winners else "Nobody wins.")
    extra = [f"{k.replace('_', ' ')}: {v}" for k, v in outcome.items()
             if k in ("result", "turns", "rounds") and v not in (None, "")]
    return text + ("  (" + ", ".join(extra) + ")" if extra else "")


def fair_play_static(app: Any, table: int) -> list[Static]:
    """The "Fair play verified ✓" line (id ``fair-play``) when the app knows the table's seed
    commitment; the app updates it when the reveal has been checked."""
    line = getattr(app, "fair_play_text", lambda t: None)(table)
    return [Static(line, id="fair-play", markup=False)] if line else []


class ResultsScreen(Screen):
    """Shows a finished table's outcome; Esc/Enter back to the lobby, t back to the table."""

    BINDINGS = [
        Binding("escape,enter", "lobby", "Lobby"),
        Binding("t", "table", "Table"),
        Binding("question_mark", "app.help", "Help", key_display="?"),
    ]

    def __init__(self, table: int, view: dict[str, Any]) -> None:
        super().__init__()
        self.table = table
        self.view = view

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="results"):
            yield Static(f"Game over — table #{self.table}", classes="title", markup=False)
            yield Static(headline(self.view), id="headline", markup=False)
            yield Static(score_table(self.view), id="scores", markup=False)
            yield from fair_play_static(self.app, self.table)
            secret = (self.view.get("outcome") or {}).get("reveal")
            if secret:
                yield Static(f"Revealed: {secret}", markup=False)
        yield Footer()

    def action_lobby(self) -> None:
        self.app.back_to_lobby()

    def action_table(self) -> None:
        self.app.pop_screen()
