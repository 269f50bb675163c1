"""First contact: show the host's name and key fingerprint and ask whether to trust it.

The host's name comes from the list of hosts on the LAN when the player picked it there. For a
typed address the name is not known before the key is trusted (nothing is sent to an untrusted
key), so the dialog listens to mDNS while it is open (a minute at most) and names the host as soon
as it is heard advertising itself at that address — on a busy network or a loaded laptop that can
take more than the few seconds a quiet one needs.
"""

from __future__ import annotations

import asyncio
import contextlib

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Label

from client.screens.dialog import Dialog
from hexnet.i18n import N_, _

LOOKUP_SECONDS = 60.0  # the listening stops earlier when the dialog closes


class FingerprintScreen(Dialog[bool]):
    """Dismisses True when the player trusts the host (``y``), False otherwise (``n``/Esc)."""

    BINDINGS = [Binding("y", "trust", N_("Trust")), Binding("n,escape", "refuse", N_("Refuse"))]

    def __init__(self, host_label: str, fingerprint: str, name: str | None = None,
                 interfaces: list[str] | None = None, lookup: bool = False) -> None:
        super().__init__()
        self._host = host_label
        self._fingerprint = fingerprint
        self._name = name
        self._interfaces = interfaces
        self._lookup = lookup and not name

    def title_text(self) -> str:
        """``First contact with Hexhaus (192.168.1.20:7878)``, or the address alone."""
        if self._name:
            return _("First contact with {name} ({address})").format(name=self._name,
                                                                    address=self._host)
        return _("First contact with the host at {address}").format(address=self._host)

    def compose(self) -> ComposeResult:
        with Vertical(id="fingerprint", classes="dialog"):
            yield Label(self.title_text(), id="fingerprint-title", classes="title",
                        markup=False)
            yield Label(_("Its key fingerprint is:"), markup=False)
            yield Label(self._fingerprint, id="fingerprint-value", markup=False)
            yield Label(_("Compare it with the fingerprint on the host's screen.\n"
                          "It will be remembered; a changed key will be refused."), markup=False,
                        classes="wrap")
            yield Label(_("y  trust this host      n  cancel"), classes="hint", markup=False)

    def on_mount(self) -> None:
        if self._lookup:
            self.look_up_name()

    @work(exclusive=True, group="name")
    async def look_up_name(self) -> None:
        """Listen to mDNS for a host advertised at this address; show its name when found."""
        try:
            from client.discovery import Browser
        except ImportError:
            return
        with contextlib.suppress(TimeoutError, OSError):
            async with asyncio.timeout(LOOKUP_SECONDS), Browser(self._interfaces) as browser:
                async for _event, host in browser.events():
                    if f"{host.address}:{host.port}" == self._host and host.name:
                        self._name = str(host.name)
                        self.query_one("#fingerprint-title", Label).update(self.title_text())
                        return

    def action_trust(self) -> None:
        self.close(True)

    def action_refuse(self) -> None:
        self.close(False)
