"""The lobby: the host's tables, creating one, sitting, bots, starting, and the lobby chat.

A host may hold hundreds of tables: the list shows :data:`PAGE` of them at a time (``]`` or
PageDown for the next page, ``[`` or PageUp for the one before; the page shown follows your own
table when you sit)."""

from __future__ import annotations

import time
from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Static

from client.screens.dialog import answer
from client.screens.picker import Picker
from client.widgets import presence
from client.widgets.chat import ChatInput
from client.widgets.footer import LocalFooter
from client.widgets.hint import tap_keys
from client.widgets.log import GameLog
from client.words.lobby import STATUS, game_text, pace_choices, seat_range, seats_summary
from hexnet.i18n import N_, _, ngettext

PAGE = 20  # tables per page of the lobby list


class LobbyScreen(Screen):
    """Tables as a list; keys act on the highlighted table."""

    HELP_TITLE = N_("Lobby")
    BINDINGS = [
        Binding("n", "create", N_("New")),
        Binding("s", "sit", N_("Sit")),
        Binding("b", "add_bot", N_("Bot")),
        Binding("g", "start", N_("Start")),
        Binding("t", "to_table", N_("Table")),
        Binding("l", "leave", N_("Leave")),
        Binding("w", "watch", N_("Watch"), show=False),  # the footer is full at 80 columns
        Binding("u", "unwatch", N_("Stop watching"), show=False),
        Binding("x", "watch_rules", N_("Watching on/off"), show=False),
        Binding("c", "chat", N_("Chat")),
        # a tournament's keys: on the key bar while the host runs one (see check_action)
        Binding("e", "enter", N_("Enter tournament")),
        Binding("o", "standings", N_("Standings")),
        Binding("p", "profiles", N_("Profiles"), show=False),
        Binding("r", "app.reconnect", N_("Reconnect"), show=False),
        Binding("right_square_bracket", "page(1)", N_("Next page"), show=False),
        Binding("left_square_bracket", "page(-1)", N_("Previous page"), show=False),
        # before the table list's own PgUp/PgDn (a page of the list is one screen anyway)
        Binding("pagedown", "page(1)", N_("Next page"), show=False, priority=True),
        Binding("pageup", "page(-1)", N_("Previous page"), show=False, priority=True),
        Binding("question_mark", "app.help", N_("Help"), key_display="?"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.lobby: dict[str, Any] = {}
        self.connection = _("Connecting…")
        self._ready = False
        self.page = 0
        self._since: dict[int, tuple[dict[str, Any], float]] = {}  # table → entry, arrival
        self.event: dict[str, Any] | None = None  # the host's tournament, if it runs one

    def compose(self) -> ComposeResult:
        yield Static(self.connection, id="lobby-status", markup=False)
        yield DataTable(id="tables", cursor_type="row", zebra_stripes=False)
        yield Static("", id="lobby-you", markup=False)
        event = Static("", id="lobby-event", markup=False)
        event.display = False  # shown once the host says it runs a tournament
        yield event
        yield GameLog(id="lobby-chat")
        yield ChatInput("", id="lobby-chat-input")
        yield LocalFooter()

    def on_mount(self) -> None:
        self._ready = True
        self.query_one(DataTable).focus()
        self.set_interval(1.0, self._count_presence)
        self.retranslate()

    def on_screen_resume(self) -> None:
        """Back from a table: the keys offered follow its state, and its row its frames."""
        if self.lobby:
            self.update_lobby(self.lobby)
        self.refresh_bindings()
        self.call_later(self._tell_looking)

    async def _tell_looking(self) -> None:
        """The lobby is on screen: a player seated at a playing table is sent it only then
        (:meth:`client.app.HexnetApp.tell_looking`; a table screen says the opposite). The
        screen on top: ``is_current`` also counts a screen seen behind another."""
        if self.app.screen is self:
            await self.app.tell_looking(True)  # type: ignore[attr-defined]

    def _count_presence(self) -> None:
        """Once a second: redraw while a seat's countdown to absent runs."""
        if self._ready and self.is_attached and any(
                presence.counting(self.as_seen(t)[0].get("seats") or [])
                for t in self.lobby.get("tables") or []):
            self.update_lobby(self.lobby)

    def as_seen(self, table: dict[str, Any]) -> tuple[dict[str, Any], float | None]:
        """``table``'s lobby entry — or, for the table you play at, the entry as its own frames
        tell it: a playing seat gets no lobby updates (the traffic rule), so its status and
        every seat's presence come from the latest view, with the time that presence arrived
        (None: not from a view)."""
        mine = (self.lobby.get("you") or {}).get("table")
        pair = (getattr(self.app, "views", None) or {}).get(mine) if table.get("id") == mine \
            else None
        view = pair[0] if pair else None
        if not isinstance(view, dict) or not view:
            return table, None
        seen = [e for e in view.get("presence") or [] if isinstance(e, dict)]
        seats = []
        for i, seat in enumerate(table.get("seats") or []):
            seat = dict(seat)
            if i < len(seen):
                seat.pop("absent_in", None)
                seat.update({"presence": seen[i].get("state"),
                             **({"absent_in": seen[i]["absent_in"]}
                                if "absent_in" in seen[i] else {})})
            seats.append(seat)
        screen = getattr(self.app, "table_screen", None)
        since = (screen._presence_since if screen is not None and screen.table == mine
                 else None)
        return ({**table, "seats": seats, "status": "over" if view.get("outcome")
                 else "playing"}, since)

    def my_table_status(self) -> str | None:
        """The status of the table you sit at (None if you sit nowhere). A player at a
        playing table gets no lobby updates, so a table whose views arrive is playing (over,
        once its view says so) whatever the last lobby entry said."""
        mine = (self.lobby.get("you") or {}).get("table")
        if mine is None:
            return None
        view = (getattr(self.app, "views", None) or {}).get(mine)
        if view is not None:
            return "over" if view[0].get("outcome") else "playing"
        for t in self.lobby.get("tables") or []:
            if t.get("id") == mine:
                return str(t.get("status"))
        return None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The keys that make sense now: no bot or start while your table plays (or is
        over): the footer does not offer them and the keys do nothing. At a tournament host the
        event's keys are offered (e to enter while it takes entrants, o its standings) and a
        table's keys only while you have a table."""
        if action == "enter":
            return (self.event is not None and self.event.get("status") == "registering"
                    and not self.event.get("you"))
        if action == "standings":
            return self.event is not None
        if self.event is not None and action in ("add_bot", "start", "to_table", "leave"):
            # at a tournament the event's keys need the room: a table's keys while you have one
            you = self.lobby.get("you") or {}
            if action == "to_table":
                return you.get("table") is not None or you.get("watching") is not None
            if action == "leave":
                return you.get("table") is not None
            return self.my_table_status() == "open"
        if action in ("add_bot", "start"):
            return self.my_table_status() in (None, "open")
        return True

    def retranslate(self) -> None:
        """Words in the current language (after a language switch too)."""
        self.query_one(ChatInput).placeholder = _(
            "say something to the lobby (Enter send · Esc close)")
        self._widths = None  # the columns are made again, with words in this language
        self._set_columns([])
        if self.lobby:
            self.update_lobby(self.lobby)
        if self.event is not None:
            self.update_tournament(self.event)

    # -- rendering ------------------------------------------------------------------------
    def update_tournament(self, event: dict[str, Any]) -> None:
        """The line about the host's tournament (:mod:`client.screens.standings`)."""
        from client.screens.standings import headline, you_line

        self.event = event
        if self._ready:
            line = self.query_one("#lobby-event", Static)
            you = you_line(event)
            # by touch: "(o: standings)" opens them; while one may enter, the line saying so
            # enters (as e does)
            enter = {you: "screen.tap_key('e')"} if (
                event.get("status") == "registering" and not event.get("you")) else None
            line.update(tap_keys(f"{headline(event)} · {you} " + _("(o: standings)"), enter))
            line.display = True
            self.refresh_bindings()  # e and o on the key bar

    def action_standings(self) -> None:
        """The tournament's standings (``o``)."""
        self.app.action_show_standings()  # type: ignore[attr-defined]

    async def action_enter(self) -> None:
        """Enter the host's tournament."""
        if self.event is None:
            self.app.notify(_("This host runs no tournament."), severity="warning")
            return
        await self.app.send({"type": "enter"})

    def set_connection(self, text: str) -> None:
        """The top line: which host, its fingerprint, or what went wrong."""
        self.connection = text
        if self._ready:
            self.query_one("#lobby-status", Static).update(text)

    def update_lobby(self, lobby: dict[str, Any]) -> None:
        """Redraw the tables from a ``lobby`` message, keeping the highlighted table."""
        self.lobby = lobby
        if not self._ready or not self.query(DataTable):  # not yet mounted, or torn down
            return
        if self.app.screen is self:  # (after a reconnect, the host must hear it again)
            self.call_later(self._tell_looking)
        table = self.query_one(DataTable)
        keep = self.selected_table()
        tables = list(lobby.get("tables") or [])
        pages = max(1, -(-len(tables) // PAGE))
        mine = (lobby.get("you") or {}).get("table")
        ids_all = [t["id"] for t in tables]
        if mine is not None and mine != getattr(self, "_followed", None) and mine in ids_all:
            self.page = ids_all.index(mine) // PAGE  # show the table one just sat at
        self._followed = mine
        self.page = min(max(self.page, 0), pages - 1)
        tables = tables[self.page * PAGE:(self.page + 1) * PAGE]
        now = time.monotonic()
        rows = []
        for t in tables:
            entry, since = self._since.get(t["id"], (None, now))
            if entry is not t:
                self._since[t["id"]] = (t, now)
                since = now
            t, view_since = self.as_seen(t)
            since = since if view_since is None else view_since
            taken = sum(1 for s in t.get("seats") or [] if s.get("kind") != "empty")
            total = t.get("seats_total", len(t.get("seats") or []))
            rows.append((str(t["id"]), game_text(t),
                         _(STATUS.get(str(t.get("status", "")), str(t.get("status", "")))),
                         f"{taken}/{total} " + seats_summary(t, since)))
        self._set_columns(rows)
        table.clear()
        tall = self.app.has_class("narrow")  # a finger's row: three cells tall at least
        for row in rows:  # a long game or seats cell wraps: the row grows
            cells = [Text(cell, no_wrap=i not in (1, 3)) for i, cell in enumerate(row)]
            if tall:
                cells[0] = Text(f"\n{row[0]}\n")
            table.add_row(*cells, key=row[0], height=None)
        ids = [t["id"] for t in tables]
        if keep in ids:
            table.move_cursor(row=ids.index(keep))
        you = lobby.get("you") or {}
        status = self.my_table_status()
        if you.get("watching") is not None:
            line = _("You are {name}, watching table #{watching} — t: to the table, "
                     "u: stop watching, s: sit when a seat is free")
        elif you.get("table") is None:
            line = _("You are {name}, not seated — n: new table, s: sit at the highlighted one, "
                     "w: watch it")
        elif status in ("playing", "over"):
            line = _("You are {name}, playing at table #{table}, seat {seat} — t: go to the "
                     "table, l: leave it")
        else:
            line = _("You are {name}, seated at table #{table}, seat {seat} — b: add a bot, "
                     "g: start, t: go to the table")
        paging = (" · " + _("page {page}/{pages} ([ ] or PgUp/PgDn)").format(
            page=self.page + 1, pages=pages) if pages > 1 else "")
        # by touch: a tap on "w: watch it" watches, on "[" or "]" pages (web guests)
        self.query_one("#lobby-you", Static).update(tap_keys(line.format(
            name=you.get("name", "?"), table=you.get("table"), seat=you.get("seat"),
            watching=you.get("watching")) + paging,
            {"[": "screen.page(-1)", "]": "screen.page(1)"} if paging else None))
        self.refresh_bindings()

    async def action_tap_key(self, key: str) -> None:
        """A tap on a ``k: what it does`` hint: what ``k`` does here (even while the chat box
        has the keyboard)."""
        active = self.active_bindings.get(key)
        if active is not None and active.enabled:
            await self.app.run_action(active.binding.action, active.node)

    def _set_columns(self, rows: list[tuple[str, str, str, str]]) -> None:
        """Columns that fit the screen's width: the number and status as wide as their widest
        cell, then the game and the seats (each gets what it needs if both fit, else the
        seats at least half of the room); a cell wider than its column wraps — so a long list
        of options never pushes the seats off the screen, and nothing is cut."""
        table = self.query_one(DataTable)
        heads = ("#", _("Game"), _("Status"), _("Seats"))
        width = (table.size.width or self.app.size.width) - 2 * table.cell_padding * 4 - 2
        need = [max([cell_len(heads[i])] + [cell_len(r[i]) for r in rows]) for i in range(4)]
        room = width - need[0] - need[2]
        if need[1] + need[3] <= room:
            game, seats = need[1], need[3]
        else:  # the seats first, but the game keeps at least half of the room
            seats = max(cell_len(heads[3]), min(need[3], max(room // 2, room - need[1])))
            game = max(cell_len(heads[1]), room - seats)
        widths = (need[0], game, need[2], seats)
        if widths == getattr(self, "_widths", None):
            return
        self._widths = widths
        table.clear(columns=True)
        for head, w in zip(heads, widths, strict=True):
            table.add_column(head, width=w)

    def action_page(self, step: int) -> None:
        """Show the next (``step`` 1) or previous (-1) page of tables."""
        self.page += step
        self.update_lobby(self.lobby)

    def selected_table(self) -> int | None:
        """The id of the highlighted table (or None when there is none)."""
        table = self.query_one(DataTable)
        if not table.row_count:
            return None
        try:
            key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key
        except Exception:  # noqa: BLE001 - an empty or redrawn table has no cursor row
            return None
        return int(key.value) if key.value is not None else None

    def add_chat(self, sender: str, text: str, channel: str, number: int | None = None) -> None:
        self.query_one("#lobby-chat", GameLog).add_chat(sender, text, channel, number)

    def add_note(self, text: str) -> None:
        self.query_one("#lobby-chat", GameLog).add_note(text)

    # -- intents --------------------------------------------------------------------------
    def _my_or_selected(self) -> int | None:
        you = (self.lobby.get("you") or {}).get("table")
        return you if you is not None else self.selected_table()

    @work(exclusive=True, group="pick")
    async def action_create(self) -> None:
        games = list(getattr(self.app, "games", None) or ["hexenhammer"])
        game = games[0] if len(games) == 1 else await answer(
            self.app, Picker(_("Which game?"), [(g.title(), g) for g in games]))
        if game is None:
            return
        sizes = seat_range(game)
        seats = await answer(
            self.app, Picker(_("How many seats at the {game} table?").format(game=game.title()),
                   [(ngettext("{n} player", "{n} players", n).format(n=n), n) for n in sizes]))
        if seats is None:
            return
        options: dict[str, Any] = {}
        choices = pace_choices(game)
        if choices:
            pace = await answer(self.app, Picker(_("Which pace?"), choices))
            if pace is None:
                return
            options["pace"] = pace
        await self.app.send({"type": "create", "game": game, "seats": seats, "options": options})

    async def action_sit(self) -> None:
        table = self.selected_table()
        if table is None:
            self.notify(_("No table to sit at: n creates one."), severity="warning")
            return
        await self.app.send({"type": "sit", "table": table, "seat": None})

    async def action_add_bot(self) -> None:
        table = self._my_or_selected()
        if table is None:
            self.notify(_("Choose a table first."), severity="warning")
            return
        await self.app.send({"type": "add_bot", "table": table, "seat": None,
                             "policy": "normal"})

    async def action_start(self) -> None:
        table = self._my_or_selected()
        if table is None:
            self.notify(_("Choose a table first."), severity="warning")
            return
        await self.app.send({"type": "start", "table": table})

    async def action_leave(self) -> None:
        await self.app.send({"type": "leave"})

    @work(exclusive=True, group="pick")
    async def action_watch(self) -> None:
        """Watch the highlighted table (at your own playing table: give up your seat first)."""
        table = self.selected_table()
        if table is None:
            self.notify(_("No table to watch."), severity="warning")
            return
        you = self.lobby.get("you") or {}
        info = next((t for t in self.lobby.get("tables") or [] if t.get("id") == table), {})
        # a player's lobby is not updated while they play (the host sends lobby frames only to
        # those not playing): its entry may still say "open", so the game's own view counts too
        view = self.app.views.get(table, ({}, []))[0]  # type: ignore[attr-defined]
        running = info.get("status") == "playing" or (bool(view) and not view.get("outcome"))
        if you.get("table") == table and running:
            sure = await answer(self.app, Picker(
                _("Give up your seat at table #{table} and watch it?").format(table=table),
                [(_("yes, leave my seat and watch"), True), (_("no"), False)]))
            if not sure:
                return
        await self.app.send({"type": "watch", "table": table})

    @work(exclusive=True, group="pick")
    async def action_profiles(self) -> None:
        """A profile: yours, or a player's at the highlighted table (:mod:`client.club`)."""
        from client.club import pick_profile

        await pick_profile(self.app, self.selected_table())

    async def action_unwatch(self) -> None:
        await self.app.send({"type": "unwatch"})

    async def action_watch_rules(self) -> None:
        """Allow or forbid watching the highlighted table (its creator only)."""
        table = self.selected_table()
        info = next((t for t in self.lobby.get("tables") or [] if t.get("id") == table), None)
        if info is None:
            self.notify(_("Choose a table first."), severity="warning")
            return
        await self.app.send({"type": "watch_rules", "table": table,
                             "allowed": info.get("watch") is False})

    def action_to_table(self) -> None:
        watching = (self.lobby.get("you") or {}).get("watching")
        if watching is not None:
            if not self.app.open_table(watching, watching=True):
                self.notify(_("The table you watch has not started yet."), severity="warning")
            return
        table = (self.lobby.get("you") or {}).get("table")
        if table is None or not self.app.open_table(table):
            self.notify(_("Your table has not started yet."), severity="warning")

    @on(DataTable.RowSelected, "#tables")
    async def _row_chosen(self) -> None:
        you = (self.lobby.get("you") or {}).get("table")
        chosen = self.selected_table()
        view = (getattr(self.app, "views", None) or {}).get(chosen, ({}, []))[0]
        if you is not None and you == chosen:
            self.action_to_table()
        elif view.get("outcome"):  # a finished table of yours: its results (and replay)
            self.app.show_results(chosen, view, asked=True)
        else:
            await self.action_sit()

    def action_chat(self) -> None:
        self.query_one(ChatInput).open()

    @on(ChatInput.Said)
    async def _send_chat(self, event: ChatInput.Said) -> None:
        self.query_one(DataTable).focus()
        if event.text:
            await self.app.send({"type": "chat", "text": event.text, "channel": "lobby"})

    @on(ChatInput.Closed)
    def _chat_closed(self) -> None:
        self.query_one(DataTable).focus()

