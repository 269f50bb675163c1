"""The help screen (``?``): every key of the screen it was opened from, and the general ones; at
a table also what your role or the selected card does, and ``r`` the game's rules page."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from client.widgets.hint import tap_hint
from hexnet.i18n import N_, _

GENERAL = [
    ("?", N_("this help")),
    ("Tab / Shift+Tab", N_("move between panes")),
    ("↑ ↓ Enter", N_("choose in a list")),
    ("Esc", N_("back / cancel")),
    ("Ctrl+Q", N_("quit")),
]


class HelpScreen(ModalScreen[None]):
    """Lists ``keys`` (key, what it does) and the general keys; any of Esc, ?, q closes it."""

    BINDINGS = [Binding("escape,question_mark,q", "close", N_("Close")),
                Binding("r", "rules", N_("Rules"))]

    def __init__(self, title: str, keys: list[tuple[str, str]], notes: str = "",
                 explain: str = "", game: str = "") -> None:
        super().__init__()
        self._title = title
        self._keys = keys
        self._notes = notes
        self._explain = explain  # what your role / the selected card does
        self._game = game  # the rules page's game ("" for none)

    def compose(self) -> ComposeResult:
        lines = [f"{key:>16}  {_(what)}" for key, what in self._keys]
        lines.append("")
        lines += [f"{key:>16}  {_(what)}" for key, what in GENERAL]
        with VerticalScroll(id="help", classes="dialog"):
            yield Label(_("Help — {screen}").format(screen=self._title), classes="title",
                        markup=False)
            if self._explain:
                yield Static(self._explain, markup=False, id="help-explain")
            yield Static("\n".join(lines), markup=False)
            if self._notes:
                yield Static(self._notes, markup=False, classes="notes")
            if self._game:
                yield tap_hint(_("r the rules of the game (searchable)"), "screen.rules")
            yield tap_hint(_("↑↓ scroll · Esc close"), "screen.close")

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()  # ↑↓ PgUp PgDn scroll

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return bool(self._game) if action == "rules" else True

    def action_rules(self) -> None:
        """The rules page of this table's game."""
        from client.screens.rules import RulesScreen

        self.app.push_screen(RulesScreen(self._game, self._title))

    def action_close(self) -> None:
        self.dismiss(None)
