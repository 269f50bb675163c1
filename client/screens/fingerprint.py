"""First contact: show the host's key fingerprint and ask whether to trust it."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label


class FingerprintScreen(ModalScreen[bool]):
    """Dismisses True when the player trusts the host (``y``), False otherwise (``n``/Esc)."""

    BINDINGS = [Binding("y", "trust", "Trust"), Binding("n,escape", "refuse", "Refuse")]

    def __init__(self, host_label: str, fingerprint: str) -> None:
        super().__init__()
        self._host = host_label
        self._fingerprint = fingerprint

    def compose(self) -> ComposeResult:
        with Vertical(id="fingerprint", classes="dialog"):
            yield Label(f"First contact with {self._host}", classes="title", markup=False)
            yield Label("Its key fingerprint is:", markup=False)
            yield Label(self._fingerprint, id="fingerprint-value", markup=False)
            yield Label("Compare it with the fingerprint on the host's screen.\n"
                        "It will be remembered; a changed key will be refused.", markup=False)
            yield Label("y  trust this host      n  cancel", classes="hint", markup=False)

    def action_trust(self) -> None:
        self.dismiss(True)

    def action_refuse(self) -> None:
        self.dismiss(False)
