"""Room code entry: the code the host shows, needed to take a seat."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label

from client.widgets.hint import tap_hint
from hexnet.i18n import N_, _


class CodeScreen(ModalScreen[str | None]):
    """Dismisses with the typed code, or None on Escape."""

    BINDINGS = [Binding("escape", "cancel", N_("Cancel"))]

    def __init__(self, host_label: str, problem: str = "") -> None:
        super().__init__()
        self._host = host_label
        self._problem = problem

    def compose(self) -> ComposeResult:
        with Vertical(id="code", classes="dialog"):
            yield Label(_("Room code for {host}").format(host=self._host), classes="title",
                        markup=False)
            if self._problem:
                yield Label(self._problem, classes="problem", markup=False)
            yield Label(_("Type the code the host's screen shows (e.g. ABCDE-FGHJK)."),
                        markup=False)
            yield Input(placeholder="XXXXX-XXXXX", id="code-input")
            yield tap_hint(_("Enter join · Esc cancel"), "screen.cancel")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.value.strip():
            self.dismiss(event.value.strip())

    def action_cancel(self) -> None:
        self.dismiss(None)
