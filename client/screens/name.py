"""Name entry for a guest of the host's web or SSH front door: the name to sit down under."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label

from hexnet.i18n import _
from protocol.sanitize import NAME_MAX, strip_unsafe


class NameScreen(ModalScreen[str | None]):
    """Dismisses with the typed name (cleaned, non-empty), or None on Escape. A Join button
    makes it work by touch alone."""

    DEFAULT_CSS = """
    NameScreen { align: center middle; }
    NameScreen Button { margin-top: 1; }
    """
    # Ctrl+Q as everywhere else (the app's own binding does not reach past the Input here).
    BINDINGS = [Binding("escape", "cancel", "Cancel"),
                Binding("ctrl+q", "app.quit", "Quit", priority=True)]

    def __init__(self, host_label: str) -> None:
        super().__init__()
        self._host = host_label

    def compose(self) -> ComposeResult:
        with Vertical(id="name", classes="dialog"):
            yield Label(_("Joining {host}").format(host=self._host), classes="title",
                        markup=False)
            yield Label(_("Your name at the table:"), markup=False)
            yield Input(placeholder=_("name"), max_length=NAME_MAX, id="name-input")
            yield Label("", id="name-problem", classes="problem", markup=False)
            yield Button(_("Join"), id="name-join", variant="primary")
            yield Label(_("Enter join · Esc quit"), classes="hint", markup=False)

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def _submit(self) -> None:
        name = " ".join(strip_unsafe(self.query_one(Input).value).split())[:NAME_MAX]
        if not name:
            self.query_one("#name-problem", Label).update(_("Type a name first."))
            return
        self.dismiss(name)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._submit()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self._submit()

    def action_cancel(self) -> None:
        self.dismiss(None)
