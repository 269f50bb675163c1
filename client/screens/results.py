"""The end of a game: scores with their full breakdown, and the winners; a rematch offered and
answered (``n``), emotes beside the players' names (``m``)."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from client.widgets import guard
from client.widgets.footer import LocalFooter
from client.widgets.guard import KeyGuard
from client.words.party import Shown, rematch_keys, rematch_line
from client.words.results import headline, part_name, score_parts, you_mark
from hexnet.i18n import N_, _


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
    parts = score_parts(view)
    table = Table(box=None, header_style="bold", padding=(0, 1))
    table.add_column("")
    table.add_column(_("Player"), no_wrap=True)
    for part in parts:
        table.add_column(part_name(part), justify="right")
    table.add_column(_("Total"), justify="right", style="bold")
    for seat, name in enumerate(players):
        row: list[Any] = ["★" if seat in winners else "", Text(str(name) + you_mark(view, seat))]
        entry = breakdown[seat] if seat < len(breakdown) and isinstance(
            breakdown[seat], dict) else {}
        row += [str(entry.get(part, "")) for part in parts]
        row.append(str(scores[seat]) if seat < len(scores) else "")
        table.add_row(*row)
    return table


def fair_play_static(app: Any, table: int) -> list[Static]:
    """The "Fair play verified ✓" line (id ``fair-play``) when the app knows the table's seed
    commitment; the app updates it when the reveal has been checked."""
    line = getattr(app, "fair_play_text", lambda t: None)(table)
    return [Static(line, id="fair-play", markup=False)] if line else []


def results_wait() -> float:
    """The results come up under keys meant for the table: theirs wait twice a prompt's."""
    return 2 * guard.GUARD_SECONDS


def tutorial_static(app: Any, view: dict[str, Any]) -> list[Static]:
    """In a tutorial (``hexnet play --tutorial``), the last hint: the score explained (id
    ``tutorial-end``)."""
    game = getattr(app, "tutorial", None)
    if not game:
        return []
    from hexnet.tutorial import hint_text

    text = hint_text(game, view, [])
    return [Static(text, id="tutorial-end", markup=False)] if text else []


class ResultsScreen(Screen):
    """Shows a finished table's outcome; Esc/Enter back to the lobby, t back to the table, n a
    rematch (x: no; B: the owner's bots for the seats still silent), m an emote.

    It comes up by itself when the game ends — under keys meant for the table — so its keys
    wait a moment first (:mod:`client.widgets.guard`): an Enter typed for the last card must
    not close the results (and the table with them)."""

    HELP_TITLE = N_("Results")
    BINDINGS = [
        Binding("escape,enter", "lobby", N_("Lobby")),
        Binding("t", "table", N_("Table")),
        Binding("r", "replay", N_("Replay")),
        Binding("R", "replay_all", N_("Replay all-seeing"), show=False),
        Binding("n", "rematch('yes')", N_("Rematch")),
        Binding("x", "rematch('no')", N_("No rematch"), show=False),
        Binding("B", "rematch('bots')", N_("Bots for the silent seats"), show=False),
        Binding("m", "react", N_("React")),
        Binding("p", "profiles", N_("Profiles")),
        Binding("question_mark", "app.help", N_("Help"), key_display="?"),
    ]

    def __init__(self, table: int, view: dict[str, Any], asked: bool = False) -> None:
        """``asked``: opened by a key (r at the table, in a replay) or over a watched table,
        not under a player's keys at the game's end — then the keys take answers at once."""
        super().__init__()
        self.table = table
        self.view = view
        self.asked = asked
        self.guard = KeyGuard()
        self.emotes = Shown()
        if not asked:  # from the moment it is pushed (on_mount may come later)
            self.guard.arm(results_wait())

    def on_mount(self) -> None:
        self.show_rematch()
        if self.asked:
            return
        self.guard.arm(results_wait())  # again once it shows: a busy terminal paints late
        self.set_timer(results_wait() + 0.05, self.refresh_bindings)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="results"):
            yield from self.compose_results()
            yield Static("", id="rematch", markup=False)
        yield LocalFooter()

    def compose_results(self) -> ComposeResult:
        """The outcome (each game's results screen says it its own way)."""
        yield Static(_("Game over — table #{table}").format(table=self.table),
                     classes="title", markup=False)
        yield Static(headline(self.view), id="headline", markup=False)
        yield Static(score_table(self.view), id="scores", markup=False)
        yield from tutorial_static(self.app, self.view)
        yield from fair_play_static(self.app, self.table)

    # -- the party: a rematch, emotes -------------------------------------------------------
    @property
    def seat(self) -> int | None:
        """Your seat at this table (None: you watched it, or it is a replay's)."""
        seat = self.view.get("seat")
        return seat if isinstance(seat, int) and not self.replayed() else None

    def replayed(self) -> bool:
        from client.replay.screen import ReplayControls

        stack = self.app.screen_stack
        return len(stack) > 1 and isinstance(stack[-2], ReplayControls)

    def offer(self) -> dict[str, Any] | None:
        return (getattr(self.app, "rematches", None) or {}).get(self.table)

    def show_rematch(self) -> None:
        """The rematch line (who agreed), the emotes beside names, and what you may do."""
        if not self.is_attached or not self.query("#rematch"):
            return
        panel = self.query_one("#rematch", Static)
        if self.seat is None:
            panel.display = False
            return
        players = list(self.view.get("players") or [])
        lines = []
        shown = self.emotes.line(lambda s: str(players[s]) if 0 <= s < len(players) else "?")
        if shown:
            lines.append(shown)
        offer = self.offer()
        if offer is not None:
            lines.append(rematch_line(offer, self.seat))
        if offer is None or offer.get("status") == "open":
            lines.append(rematch_keys(offer, self.seat))
        panel.update("\n".join(lines))
        self.refresh_bindings()

    def show_emote(self, seat: int, key: str) -> None:
        """An emote beside ``seat``'s name for a few seconds."""
        stays = self.emotes.add(seat, key)
        self.show_rematch()
        self.set_timer(stays + 0.1, self.show_rematch)

    async def action_rematch(self, answer: str) -> None:
        """n: yes, play again (offering it if nobody has); x: no; B (the owner): bots for the
        seats still silent."""
        from client.party import answer_rematch

        await answer_rematch(self.app, self.table, answer)

    @work(group="party")
    async def action_react(self) -> None:
        from client.party import react

        await react(self.app, self.table)

    def rematch_fits(self, answer: str) -> bool:
        """Whether a rematch key fits now: ``n`` until you said yes, ``x`` while it is open and
        you are in it, ``B`` for the owner once the wait is over and someone is silent."""
        offer = self.offer()
        if self.seat is None or (offer is not None and offer.get("status") == "started"):
            return False
        mine = next((s.get("answer") for s in (offer or {}).get("seats") or []
                     if s.get("seat") == self.seat), None)
        open_ = offer is not None and offer.get("status") == "open"
        if answer == "yes":
            return not (open_ and mine == "yes")
        if answer == "no":
            return open_ and mine != "bot"
        seats = (offer or {}).get("seats") or []
        return open_ and (offer or {}).get("owner") == self.seat and any(
            s.get("answer") == "waiting" for s in seats)

    def retranslate(self) -> None:
        """Words in the current language (after a language switch)."""
        self.refresh(recompose=True)

    def action_lobby(self) -> None:
        self.app.back_to_lobby()

    def action_table(self) -> None:
        self.app.pop_screen()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Keys wait a moment (dimmed) after the results came up; no "replay this game" on
        the results of a replay itself."""
        if action == "rematch" and not self.rematch_fits(
                str(parameters[0]) if parameters else "yes"):
            return False
        if action == "react" and self.seat is None:
            return False
        if action in ("lobby", "table", "replay", "replay_all", "rematch", "profiles") and (
                self.guard.active):
            return None
        if action in ("replay", "replay_all"):
            return not self.replayed()
        return True

    @work(exclusive=True, group="pick")
    async def action_profiles(self) -> None:
        """A profile: yours, or a player's at this table (:mod:`client.club`)."""
        from client.club import pick_profile

        await pick_profile(self.app, self.table)

    def action_replay(self, everyone: bool = False) -> None:
        """Replay this game from the host's reveal: as you saw it (R: all-seeing)."""
        from client.replay.launch import open_replay

        open_replay(self.app, self.table, self.view, everyone)

    def action_replay_all(self) -> None:
        self.action_replay(everyone=True)
