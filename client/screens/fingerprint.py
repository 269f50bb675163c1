"""First contact: show the host's key fingerprint and ask whether to trust it."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label

from hexnet.i18n import N_, _


class FingerprintScreen(ModalScreen[bool]):
    """Dismisses True when the player trusts the host (``y``), False otherwise (``n``/Esc)."""

    BINDINGS = [Binding("y", "trust", N_("Trust")), Binding("n,escape", "refuse", N_("Refuse"))]

    def __init__(self, host_label: str, fingerprint: str) -> None:
        super().__init__()
        self._host = host_label
        self._fingerprint = fingerprint

    def compose(self) -> ComposeResult:
        with Vertical(id="fingerprint", classes="dialog"):
            yield Label(_("First contact with {host}").format(host=self._host), classes="title",
                        markup=False)
            yield Label(_("Its key fingerprint is:"), markup=False)
            yield Label(self._fingerprint, id="fingerprint-value", markup=False)
            yield Label(_("Compare it with the fingerprint on the host's screen.\n"
                          "It will be remembered; a changed key will be refused."), markup=False)
            yield Label(_("y  trust this host      n  cancel"), classes="hint", markup=False)

    def action_trust(self) -> None:
        self.dismiss(True)

    def action_refuse(self) -> None:
        self.dismiss(False)
