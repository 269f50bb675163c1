"""The help screen (``?``): every key of the screen it was opened from, and the general ones."""

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

    BINDINGS = [Binding("escape,question_mark,q", "close", N_("Close"))]

    def __init__(self, title: str, keys: list[tuple[str, str]], notes: str = "") -> None:
        super().__init__()
        self._title = title
        self._keys = keys
        self._notes = notes

    def compose(self) -> ComposeResult:
        lines = [f"{key:>16}  {_(what)}" for key, what in self._keys]
        lines.append("")
        lines += [f"{key:>16}  {_(what)}" for key, what in GENERAL]
        with VerticalScroll(id="help", classes="dialog"):
            yield Label(_("Help — {screen}").format(screen=self._title), classes="title",
                        markup=False)
            yield Static("\n".join(lines), markup=False)
            if self._notes:
                yield Static(self._notes, markup=False, classes="notes")
            yield tap_hint(_("↑↓ scroll · Esc close"), "screen.close")

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()  # ↑↓ PgUp PgDn scroll

    def action_close(self) -> None:
        self.dismiss(None)
