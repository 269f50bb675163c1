"""Discover: the hosts found on the LAN by mDNS, or a host typed as ``host:port``."""

from __future__ import annotations

import asyncio
from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Input, Static

from client.target import parse_target, short_fingerprint
from client.widgets.footer import LocalFooter
from hexnet.i18n import N_, _, ngettext

BROWSE_LIMIT = 600.0  # seconds of listening, then the list stays as it is (r: again)


class DiscoverScreen(Screen):
    """Hosts appear as mDNS finds them; Enter joins the highlighted one or the typed address."""

    HELP_TITLE = N_("Hosts")
    BINDINGS = [
        Binding("m", "manual", N_("Type address")),
        Binding("r", "rescan", N_("Listen again")),
        Binding("question_mark", "app.help", N_("Help"), key_display="?"),
    ]

    def __init__(self, interfaces: list[str] | None = None) -> None:
        super().__init__()
        self.interfaces = interfaces
        self.hosts: list[Any] = []

    def compose(self) -> ComposeResult:
        yield Static("", id="title", markup=False)
        yield DataTable(id="hosts", cursor_type="row")
        yield Static(_("Looking for hosts…"), id="discover-status", markup=False)
        yield Input(id="address")
        yield LocalFooter()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.focus()
        self.retranslate()
        self.browse()

    def retranslate(self) -> None:
        """Words in the current language (after a language switch too)."""
        self.query_one("#title", Static).update(
            _("Hosts on your network — Enter joins · m types an address"))
        self.query_one("#address", Input).placeholder = _(
            "host:port, e.g. 192.168.1.20:7878 — Enter joins")
        table = self.query_one(DataTable)
        table.clear(columns=True)
        table.add_columns(_("Host"), _("Address"), _("Key"), _("Games"), _("Seats"))
        if self.hosts:
            self.show_hosts(self.hosts)

    @work(exclusive=True, group="browse")
    async def browse(self) -> None:
        """Follow the hosts mDNS announces (live), for at most ``BROWSE_LIMIT`` seconds."""
        try:
            from client.discovery import Browser
        except ImportError:
            self.query_one("#discover-status", Static).update(
                _("LAN discovery is not available: type an address."))
            return
        self.query_one("#discover-status", Static).update(_("Looking for hosts…"))
        try:
            async with asyncio.timeout(BROWSE_LIMIT), Browser(self.interfaces) as browser:
                async for _event, _host in browser.events():
                    self.show_hosts(sorted(browser.hosts.values(),
                                           key=lambda h: (h.name, h.address, h.port)))
        except TimeoutError:
            self.query_one("#discover-status", Static).update(
                ngettext("{n} host found — stopped listening (r listens again).",
                         "{n} hosts found — stopped listening (r listens again).",
                         len(self.hosts)).format(n=len(self.hosts)))
        except OSError as exc:
            self.query_one("#discover-status", Static).update(
                _("LAN discovery failed ({error}); type an address.").format(error=exc))

    def action_rescan(self) -> None:
        self.browse()

    def stop_browsing(self) -> None:
        """Stop listening (when a host was chosen)."""
        self.workers.cancel_group(self, "browse")

    def show_hosts(self, hosts: list[Any]) -> None:
        """Redraw the list from ``HostInfo`` items."""
        self.hosts = list(hosts)
        table = self.query_one(DataTable)
        keep = table.cursor_row
        table.clear()
        for h in self.hosts:
            games = ", ".join(getattr(h, "games", []) or [])
            table.add_row(Text(str(h.name)[:20]), Text(f"{h.address}:{h.port}"),
                          short_fingerprint(str(h.fingerprint)), Text(games[:20]),
                          str(getattr(h, "open_seats", "?")))
        if self.hosts:
            table.move_cursor(row=min(keep, len(self.hosts) - 1))
        self.query_one("#discover-status", Static).update(
            ngettext("{n} host found — still listening…", "{n} hosts found — still listening…",
                     len(self.hosts)).format(n=len(self.hosts)))

    @on(DataTable.RowSelected, "#hosts")
    def _host_chosen(self, event: DataTable.RowSelected) -> None:
        if not 0 <= event.cursor_row < len(self.hosts):
            return
        h = self.hosts[event.cursor_row]
        self.stop_browsing()
        self.app.connect(str(h.address), int(h.port), name=str(h.name))

    def action_manual(self) -> None:
        self.query_one("#address", Input).focus()

    @on(Input.Submitted, "#address")
    def _address_typed(self, event: Input.Submitted) -> None:
        try:
            host, port = parse_target(event.value)
        except ValueError as exc:
            self.notify(str(exc), severity="error", markup=False)
            return
        self.stop_browsing()
        self.app.connect(host, port)
