"""Asking once before leaving a running game (Ctrl+Q at the table)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Label

from client.screens.dialog import Dialog
from client.widgets.hint import tap_hint
from hexnet.i18n import N_, _


class ConfirmQuit(Dialog[bool]):
    """True to quit (y — or Ctrl+Q again, which the app handles), False to stay (n, Esc)."""

    BINDINGS = [Binding("y", "leave", N_("Quit")), Binding("n,escape", "stay", N_("Stay"))]

    def __init__(self, table: int, local: bool = False) -> None:
        super().__init__()
        self.table = table
        self.local = local

    def compose(self) -> ComposeResult:
        what = (_("Quitting ends it: the host runs inside this hexnet play.") if self.local
                else _("The others play on; join again to take your seat back."))
        with Vertical(id="confirm-quit", classes="dialog"):
            yield Label(_("Quit hexnet?"), classes="title", markup=False)
            yield Label(_("Your game at table #{table} is still running.").format(
                table=self.table) + " " + what, markup=False)
            with Horizontal(classes="choices"):
                yield tap_hint(_("y or Ctrl+Q: quit"), "screen.leave")
                yield tap_hint(_("n or Esc: stay"), "screen.stay")

    def action_leave(self) -> None:
        self.close(True)

    def action_stay(self) -> None:
        self.close(False)
