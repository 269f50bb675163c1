"""Room code entry: the code the host shows, needed to take a seat."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, Label

from client.screens.dialog import Dialog
from client.widgets.hint import tap_hint
from hexnet.i18n import N_, _


class CodeScreen(Dialog[str | None]):
    """Dismisses with the typed code, or None on Escape."""

    BINDINGS = [Binding("escape", "cancel", N_("Cancel"))]

    def __init__(self, host_label: str, problem: str = "") -> None:
        super().__init__()
        self._host = host_label
        self._problem = problem

    def compose(self) -> ComposeResult:
        with Vertical(id="code", classes="dialog"):
            yield Label(_("Room code for {host}").format(host=self._host),
                        classes="title wrap", markup=False)
            if self._problem:
                yield Label(self._problem, classes="problem wrap", markup=False)
            yield Label(_("Type the code the host's screen shows (e.g. ABCDE-FGHJK)."),
                        classes="wrap", markup=False)
            yield Input(placeholder="XXXXX-XXXXX", id="code-input")
            hint = _("Enter join · Esc cancel")
            # a tap on the first half joins, as Enter does (web guests have no Enter key)
            yield tap_hint(hint, "screen.cancel", {hint.split(" · ")[0]: "screen.join"})

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_join()

    def action_join(self) -> None:
        """Join with the code typed (nothing typed: nothing happens)."""
        code = self.query_one(Input).value.strip()
        if code:
            self.close(code)

    def action_cancel(self) -> None:
        self.close(None)
