"""``hexnet host`` with a screen: a small Textual dashboard around a running :class:`Host`.

Shows the room code, fingerprint and address (and, with ``--web``/``--ssh``, the web address with a
QR code of it and the SSH command with its host key, see :mod:`host.doors`), every table's seats
with their presence (online, reconnecting or disconnected with the seconds to absent, absent,
bot plays), and the host's
log. Keys: ``n`` new Hexenhammer table (4 seats), ``b`` a bot into the selected table's next
empty seat (or into the selected seat, if it is an absent player's at a playing table), ``a``
mark the selected seat absent / back, ``k`` kick the selected seat's player, ``s`` start the
selected table, ``w`` allow / forbid watching the selected table (:mod:`host.watchers`), ``p``
pause / let go the host's bots at the selected table (and its clock, :mod:`host.pause`), ``d``
their delay before each move there (the host's, then 1, 2, 4, 8 s), ``q`` quit (mDNS
unregistered, connections closed) — while games run, ``q`` asks once more first.
"""

from __future__ import annotations

import time
from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import DataTable, Footer, RichLog, Static

from host.core import LobbyChanged, LobbyError
from host.server import Host

CONFIRM_SECONDS = 5.0  # a second q within this quits while games run
BOT_PACES = (1.0, 2.0, 4.0, 8.0)  # d: the bots' delays offered after the host's own


def bots_mark(bots: Any) -> str:
    """`` ⏸ bots`` / `` bots 2 s`` after a table's status while its bots are held or slowed."""
    if not isinstance(bots, dict):
        return ""
    mark = " ⏸ bots" if bots.get("paused") else ""
    if bots.get("delay") is not None:
        mark += f" bots {bots['delay']:g} s"
    return mark
LINKS = {"connected": "online", "reconnecting": "reconnecting", "disconnected": "disconnected",
         "absent": "absent", "stand_in": "bot plays"}


class Dashboard(App[int]):
    """The host's screen."""

    CSS = """
    #info { height: auto; padding: 0 1; }
    #middle { height: 1fr; }
    DataTable { height: 1fr; }
    #qr { width: auto; display: none; padding: 0 1; }
    RichLog { height: 8; border-top: solid $accent; }
    """
    BINDINGS = [
        Binding("n", "new_table", "New table"),
        Binding("b", "add_bot", "Bot"),
        Binding("a", "absent", "Absent"),
        Binding("k", "kick", "Kick"),
        Binding("s", "start", "Start"),
        Binding("t", "time_limits", "Timers"),
        Binding("T", "start_event", "Start tournament"),
        Binding("w", "watching", "Watching"),
        Binding("p", "pause_bots", "Pause bots", show=False),  # (the bar is full at 80 columns)
        Binding("d", "bot_delay", "Bot delay", show=False),
        Binding("q", "quit_host", "Quit"),
    ]

    def __init__(self, host: Host, bind: str = "127.0.0.1", port: int = 0, *,
                 web: int | None = None, ssh: int | None = None,
                 tournament: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.host = host
        self.bind, self.port = bind, port
        self.door_ports = (web, ssh)
        self.doors: Any = None
        self.rows: list[tuple[int, int]] = []
        self._quit_asked = 0.0  # when q was pressed while games ran (a second q quits)
        host.log = self._log
        host.add_listener(self._on_effects)
        self.director: Any = None  # host.event.Director: the tournament (T starts it)
        if tournament is not None:
            from host.event import Director

            self.director = Director(host, log=self._log, **tournament)

    def compose(self) -> ComposeResult:
        yield Static("starting…", id="info", markup=False)
        with Horizontal(id="middle"):
            yield DataTable(cursor_type="row", zebra_stripes=True)
            yield Static("", id="qr", markup=False)
        yield RichLog(markup=False, wrap=True)
        yield Footer(show_command_palette=False)  # (ctrl+p still works) q Quit fits 80

    async def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("table", "game", "status", "seat", "name", "kind", "link")
        table.focus()  # the keys act on its rows (it is no longer the first child)
        if self.director is not None:
            from host.event import EventError

            try:
                self.director.load()
            except EventError as exc:
                self._log(str(exc))
                self.director = None
                self.exit(2)
                return
        try:
            port = await self.host.start(self.bind, self.port)
        except OSError as exc:
            self._log(f"cannot listen on {self.bind}:{self.port}: {exc}")
            self.exit(1)
            return
        if self.director is not None:
            self.director.begin()
            self._log("tournament: press T to start it")
        code = "none (open host)" if self.host.open else self.host.room_code
        lines = [f"{self.host.name} — {self.bind}:{port}", f"room code: {code}",
                 f"fingerprint: {self.host.fingerprint_human}"]
        if any(p is not None for p in self.door_ports):
            from host.doors import open_doors

            try:
                self.doors = await open_doors(self.host, self.bind, *self.door_ports)
            except OSError as exc:
                self._log(f"cannot open the web/SSH door: {exc}")
            else:
                lines += self.doors.lines()
                if self.doors.web_urls:
                    from host.qr import qr_lines

                    qr = self.query_one("#qr", Static)
                    qr.update("\n".join(qr_lines(self.doors.web_urls[0])))
                    qr.styles.display = "block"
        lines.append(self.host.history.line())
        self.query_one("#info", Static).update("\n".join(lines))
        self.refresh_tables()

    def _log(self, line: str) -> None:
        self.query_one(RichLog).write(line)

    def _on_effects(self, effects: list[Any]) -> None:
        if any(isinstance(e, LobbyChanged) for e in effects):
            self.call_later(self.refresh_tables)

    def refresh_tables(self) -> None:
        """Redraw the seats table, keeping the cursor row."""
        grid = self.query_one(DataTable)
        keep = grid.cursor_row
        grid.clear()
        self.rows = []
        for info in self.host.lobby.tables_info():
            for s in info["seats"]:
                link = LINKS.get(s.get("presence", ""), "")
                if s.get("absent_in") is not None:
                    link += f" ({s['absent_in']} s to absent)"
                status = info["status"] + bots_mark(info.get("bots"))
                grid.add_row(str(info["id"]), info["game"], status, str(s["seat"]),
                             Text(s["name"] or "—"), s["kind"], link)  # names: never markup
                self.rows.append((info["id"], s["seat"]))
        if self.rows:
            grid.move_cursor(row=min(keep, len(self.rows) - 1))
        self.refresh_bindings()

    # the keys that act on the highlighted seat's table
    TABLE_KEYS = frozenset({"add_bot", "absent", "kick", "start", "time_limits", "watching"})

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The keys that fit now, so the key bar fits 80 columns: a table's keys while there
        is a table, T while the tournament takes entrants."""
        if action == "start_event":
            return self.director is not None and self.director.status == "registering"
        if action in self.TABLE_KEYS:
            return bool(self.rows)
        return True

    def _selected(self) -> tuple[int, int] | None:
        row = self.query_one(DataTable).cursor_row
        return self.rows[row] if 0 <= row < len(self.rows) else None

    def _do(self, what: str, fn: Any, *args: Any) -> None:
        try:
            fn(*args)
        except LobbyError as exc:
            self._log(f"{what}: {exc.message}")

    def action_new_table(self) -> None:
        self._do("new table", self.host.lobby.create_table, "hexenhammer", 4, {})

    def action_add_bot(self) -> None:
        """A bot in the selected table's next empty seat — or in the selected seat when it is
        an absent player's at a playing table (the bot keeps it for them)."""
        if sel := self._selected():
            table = self.host.lobby.tables[sel[0]]
            seat = sel[1] if table.status == "playing" and table.seats[sel[1]].absent else None
            self._do("bot", self.host.lobby.add_bot, sel[0], seat, "normal")

    def action_absent(self) -> None:
        if sel := self._selected():
            seat = self.host.lobby.tables[sel[0]].seats[sel[1]]
            self._do("absent", self.host.lobby.mark_absent, sel[0], sel[1], not seat.absent)

    def action_kick(self) -> None:
        if sel := self._selected():
            self._do("kick", self.host.lobby.kick, *sel)

    def action_start(self) -> None:
        if sel := self._selected():
            self._do("start", self.host.lobby.start, sel[0])

    def action_time_limits(self) -> None:
        if sel := self._selected():
            on = self.host.lobby.time_limits(sel[0])
            if on is None:
                self._log(f"table {sel[0]}: this game has no time limits to switch")
                return
            try:
                self.host.lobby.set_time_limits(sel[0], not on)
            except LobbyError as exc:
                self._log(f"time limits: {exc.message}")
            else:
                self._log(f"table {sel[0]}: time limits {'off' if on else 'on'}")

    def action_start_event(self) -> None:
        """The organiser starts the tournament now (the log says why if it cannot start)."""
        if self.director is None:
            self._log("this host runs no tournament (hexnet host --tournament …)")
            return
        if self.director.status != "registering":
            self._log("the tournament has started already")
            return
        self.director.start()
        self.refresh_bindings()

    def action_watching(self) -> None:
        """Allow or forbid watching the selected table (forbidding sends its watchers away)."""
        if sel := self._selected():
            allowed = not self.host.lobby.rules_of(sel[0]).allowed
            try:
                self.host.lobby.set_watch_rules(sel[0], allowed)
            except LobbyError as exc:
                self._log(f"watching: {exc.message}")
            else:
                self._log(f"table {sel[0]}: watching {'allowed' if allowed else 'forbidden'}")

    def action_pause_bots(self) -> None:
        """Pause the host's bots at the selected table — its clock too — or let them go on."""
        if sel := self._selected():
            table = self.host.lobby.tables[sel[0]]
            try:
                self.host.lobby.set_bots(sel[0], not table.bots_paused, table.bot_delay)
            except LobbyError as exc:
                self._log(f"bots: {exc.message}")
            else:
                self._log(f"table {sel[0]}: bots {'paused' if table.bots_paused else 'go on'}")

    def action_bot_delay(self) -> None:
        """The next pace of the host's bots at the selected table: the host's, 1, 2, 4, 8 s."""
        if sel := self._selected():
            table = self.host.lobby.tables[sel[0]]
            paces = [None, *BOT_PACES]
            pace = paces[(paces.index(table.bot_delay) + 1) % len(paces)] if (
                table.bot_delay in paces) else None
            try:
                self.host.lobby.set_bots(sel[0], table.bots_paused, pace)
            except LobbyError as exc:
                self._log(f"bots: {exc.message}")
            else:
                self._log(f"table {sel[0]}: bots' delay "
                          f"{'the host' + chr(39) + 's' if pace is None else f'{pace:g} s'}")

    async def action_quit_host(self) -> None:
        """Quit; while games run, only when q is pressed again within :data:`CONFIRM_SECONDS`
        (their players would lose the host)."""
        playing = sum(1 for t in self.host.lobby.tables.values() if t.status == "playing")
        now = time.monotonic()
        if playing and now - self._quit_asked > CONFIRM_SECONDS:
            self._quit_asked = now
            text = (f"{playing} game{'s' if playing != 1 else ''} running: press q again to "
                    "quit anyway")
            self._log(text)
            self.notify(text, severity="warning")
            return
        await self._stop()
        self.exit(0)

    async def on_unmount(self) -> None:
        """However the app ends (q, ctrl+q, ctrl+c): leave mDNS and close every connection."""
        await self._stop()

    async def _stop(self) -> None:
        if self.director is not None:
            self.director.close()
        if self.doors is not None:
            await self.doors.close()
        await self.host.stop()
