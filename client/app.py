"""The Textual app: discover → fingerprint → room code → lobby → table → results.

The network session lives in one worker (:meth:`HexnetApp.run_session`), which posts the typed
messages of :mod:`client.messages`; the handlers here hand them to the screens. Screens send
intents with :meth:`HexnetApp.send`. Nothing here knows a game's rules.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from functools import partial
from pathlib import Path
from typing import Any

from textual import events, work
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.notifications import Notification, Notify
from textual.screen import Screen
from textual.theme import Theme

from client import layout, palette
from client import messages as m
from client.autoseat import AutoSeat, next_message
from client.club import Replays, Seats
from client.refusals import CODE_WORDS, TOO_LATE_CODES, code_text, rejection_text
from client.screens import table_screen_for
from client.screens.code import CodeScreen
from client.screens.confirm import ConfirmQuit
from client.screens.dialog import answer
from client.screens.discover import DiscoverScreen
from client.screens.fingerprint import FingerprintScreen
from client.screens.help import HelpScreen
from client.screens.lobby import LobbyScreen
from client.screens.results import ResultsScreen
from client.screens.table_base import TableScreen
from client.widgets.footer import LocalFooter
from hexnet import i18n
from hexnet.i18n import N_, _

STYLES = Path(__file__).parent / "styles"
LOOK_NAMES = {"okabe-ito": N_("colour-blind safe (Okabe–Ito)"), "contrast": N_("high contrast"),
              "mono": N_("no colour")}
LOOK_ENV = "HEXNET_LOOK"  # the look to start with: okabe-ito or contrast (NO_COLOR: none)


def textual_theme(look: str) -> Theme:
    """The Textual theme of ``look`` (:data:`client.palette.THEMES`)."""
    c = palette.THEMES[look]
    return Theme(name=c.name, primary=c.primary, secondary=c.secondary, accent=c.accent,
                 warning=c.warning, error=c.error, success=c.success, foreground=c.foreground,
                 background=c.background, text_alpha=c.text_alpha, dark=True)


def chosen_look(no_color: bool, environ: dict[str, str] | None = None) -> str:
    """The look to start with: none at all under ``NO_COLOR``, else ``$HEXNET_LOOK`` when it
    names one, else the colour-blind-safe default."""
    env = os.environ if environ is None else environ
    if no_color:
        return "mono"
    wanted = env.get(LOOK_ENV, "").strip().lower()
    return wanted if wanted in palette.THEMES else "okabe-ito"


class HexnetApp(App):
    """One player's client. ``target`` (host, port) skips discovery."""

    TITLE = "hexnet"
    ENABLE_COMMAND_PALETTE = True  # ctrl+p: the language (and Textual's own commands)
    CSS_PATH = [STYLES / "app.tcss", STYLES / "table.tcss", STYLES / "layout.tcss"]
    BINDINGS = [
        Binding("question_mark", "help", N_("Help"), key_display="?"),
        Binding("f2", "next_language", N_("next language"), show=False),
        Binding("f3", "next_look", N_("next look"), show=False),
        # priority: a dialog (fingerprint, room code, help, a list) must not swallow it
        Binding("ctrl+q", "quit_asking", N_("Quit"), priority=True),
    ]

    def __init__(self, *, target: tuple[str, int] | None = None, name: str = "player",
                 code: str | None = None, config_dir: str | None = None,
                 fingerprint: str | None = None, accept_new: bool = False,
                 auto_seat: AutoSeat | None = None,
                 interfaces: list[str] | None = None, greeting: str = "",
                 lang: str | None = None, tutorial: str | None = None,
                 auto_watch: int | None = None, look: str | None = None,
                 leave_if_unreached: bool = False) -> None:
        i18n.set_language(lang or i18n.from_environment())
        # NO_COLOR: Textual then strips every colour (its NoColor filter, kept for native ANSI
        # colours) instead of turning them grey: what stands out does so by bold and reverse
        super().__init__(ansi_color=True if "NO_COLOR" in os.environ else None)
        for kind in palette.THEMES:
            self.register_theme(textual_theme(kind))
        self.set_look(look or chosen_look(self.no_color))
        self.greeting = greeting
        self.tutorial = tutorial  # hexnet play --tutorial: the game whose hints the tables show
        self.target = target
        self.player_name = name
        self.code = code
        self.config_dir = config_dir
        self.pinned = fingerprint
        self.accept_new = accept_new
        self.auto_seat = auto_seat
        self.auto_watch = auto_watch  # ``hexnet join --watch TABLE``: watch it once connected
        # ``hexnet join HOST``: a first connection that never gets in ends the app (exit 1)
        # and ``unreached`` says why, in one line — as ssh does, not a lobby with dead keys
        self.leave_if_unreached = leave_if_unreached
        self.unreached = ""
        self._got_in = False
        self.watch_views: dict[int, dict[str, Any]] = {}  # the public views of watched tables
        self._watch_opened: set[int] = set()  # watched tables whose screen was opened
        self.watchers: dict[int, list[str]] = {}  # who watches your tables (from their frames)
        self.interfaces = interfaces
        self.connect_options: dict[str, Any] = {}  # more keywords for Session.connect
        self.session: Any = None
        self.last_target: tuple[str, int] | None = None
        self.games: list[str] = []
        self.lobby: dict[str, Any] = {}
        self._looking: Any = None  # the ``look`` said to the host (client.connecting.Looking)
        self.views: dict[int, tuple[dict[str, Any], list[dict[str, Any]]]] = {}
        self.lobby_screen = LobbyScreen()
        self.table_screen: TableScreen | None = None
        self._opened: set[int] = set()
        self.tournament: dict[str, Any] | None = None  # the host's tournament, if it runs one
        self._standings_shown: tuple[Any, ...] | None = None
        self.fair_play_lines: dict[int, str] = {}
        self.host_names: dict[str, str] = {}  # known_hosts label → the name the LAN lists
        self._too_small: Notification | None = None
        self.fair_play_verdicts: dict[int, Any] = {}
        self.revealed: dict[int, list[dict[str, Any]]] = {}
        self.rematches: dict[int, dict[str, Any]] = {}  # finished table → its rematch offer
        self.club_seats = Seats()  # players' handles by table (client.club: p, profiles)
        self.replays = Replays()  # finished games' replays asked for

    def on_mount(self) -> None:
        self._set_layout(self.size.width, self.size.height)
        self.begin()
        if self.greeting and not self.tutorial:
            self.notify(self.greeting, timeout=12, markup=False)
        # a tutorial's greeting goes into its table's log: a toast would hide the hint line
        # (over the prompt at 80×24) for its first seconds, when it matters most

    def begin(self) -> None:
        """The first screen: the lobby while connecting to ``target``, else discovery."""
        if self.target:
            self.connect(*self.target)
        else:
            self.push_screen(DiscoverScreen(self.interfaces))

    # -- the network worker ---------------------------------------------------------------
    def connect(self, host: str, port: int, name: str | None = None) -> None:
        """Show the lobby and start the session worker for ``host:port`` (``name``: the host's
        name as the LAN lists it, for the first-contact dialog)."""
        from protocol.known_hosts import label

        self.last_target = (host, port)
        if name:
            self.host_names[label(host, port)] = name
        self.lobby_screen.set_connection(_("Connecting to {address}…").format(
            address=f"{host}:{port}"))
        if self.lobby_screen not in self.screen_stack:
            self.push_screen(self.lobby_screen)
        self.run_session(host, port)

    @work(exclusive=True, group="session")
    async def run_session(self, host: str, port: int) -> None:
        """Connect (asking for fingerprint and code as needed), then relay every message."""
        from client.connecting import Refused, connect
        from client.session import SessionError

        async def ask_code(label: str, problem: str) -> str | None:
            return await answer(self, CodeScreen(label, problem))

        try:
            session = await connect(host, port, name=self.player_name, code=self.code,
                                    ask_code=ask_code, confirm=self._confirm_fingerprint,
                                    pinned=self.pinned, accept_new=self.accept_new,
                                    config_dir=self.config_dir, **self.connect_options)
        except Refused as exc:
            self.post_message(m.Disconnected(str(exc), exc.kind))
            return
        self.session = session
        self.games = list(session.games)
        self.post_message(m.Connected(session.host_name, session.host_fingerprint))
        try:
            async for msg in session.messages():
                if msg["type"] == "reveal":  # checked by the session once all parts are in
                    self._fair_play_news(session, msg["table"])
                    continue
                self.post_message(self._typed(msg))
        except SessionError as exc:
            self.post_message(m.Disconnected(str(exc)))
        finally:
            session.close()
            self.session = None

    def action_reconnect(self) -> None:
        """Connect again to the last host (after the connection was lost)."""
        if self.session is not None:
            self.notify(_("Already connected."))
        elif self.last_target is None:
            self.notify(_("No host to reconnect to."), severity="warning")
        else:
            self.connect(*self.last_target)

    async def _confirm_fingerprint(self, host_label: str, human: str) -> bool:
        name = self.host_names.get(host_label)
        return bool(await answer(self, FingerprintScreen(
            host_label, human, name=name, interfaces=self.interfaces, lookup=name is None)))

    def _fair_play_news(self, session: Any, table: int) -> None:
        from client.fairplay import fair_play_line, table_game

        if table in session.fair_play:
            line = fair_play_line(session.fair_play[table], session.commitments.get(table),
                                  table_game(session, table))
            # kept for "replay this game" on the results screen (client.replay.launch)
            self.fair_play_verdicts[table] = session.fair_play[table]
            if table in session.revealed:
                self.revealed[table] = session.revealed[table]
            self.post_message(m.FairPlayChecked(table, line))

    def fair_play_text(self, table: int) -> str | None:
        """The results screens' fair-play line for ``table``; None if no commitment is known."""
        from client.fairplay import fair_play_line, table_game

        if table in self.fair_play_lines:
            return self.fair_play_lines[table]
        if self.session is None or table not in self.session.commitments:
            return None
        return fair_play_line(self.session.fair_play.get(table),
                              self.session.commitments[table], table_game(self.session, table))

    def on_fair_play_checked(self, msg: m.FairPlayChecked) -> None:
        self.fair_play_lines[msg.table] = msg.line
        for screen in self.screen_stack:
            if getattr(screen, "table", None) == msg.table:
                for widget in screen.query("#fair-play"):
                    widget.update(msg.line)

    def on_link_changed(self, msg: m.LinkChanged) -> None:
        note = ("" if msg.state == "connected" else
                _("⟳ reconnecting (attempt {n})…").format(n=msg.attempt))
        if self.table_screen is not None:
            self.table_screen.set_link(note)
        if note:
            self.lobby_screen.set_connection(_("Connection lost — {note} {why}").format(
                note=note, why=msg.message))
        elif self.session is not None:
            self.on_connected(m.Connected(self.session.host_name, self.session.host_fingerprint))
            screen = self.table_screen
            if screen is not None and screen.watching and screen.is_attached:
                # the host forgets watchers with their connection: watch again
                self.call_later(self.send, {"type": "watch", "table": screen.table})

    @staticmethod
    def _typed(msg: dict[str, Any]) -> Any:
        kind = msg["type"]
        if kind == "connection":  # the session's own news: reconnecting / connected again
            return m.LinkChanged(msg["state"], msg.get("attempt", 0), msg.get("message", ""))
        if kind == "lobby":
            return m.LobbyChanged(msg)
        if kind == "view":
            view = msg["view"]
            return m.ViewChanged(msg["table"], view, list(msg.get("legal") or []))
        if kind == "watch_view":
            return m.WatchViewChanged(msg["table"], msg["view"])
        if kind == "watchers":
            return m.WatchersChanged(msg["table"], list(msg["names"]))
        if kind == "unwatched":
            return m.Unwatched(msg["table"], msg["code"], msg["message"])
        if kind == "rejected":
            reason = msg.get("reason")
            return m.ActionRejected(msg["table"], msg["code"], msg["message"],
                                    {**reason["args"], "key": reason["key"]} if reason else None)
        if kind == "chat":
            n = msg.get("n")
            return m.ChatPosted(msg["from"], msg["text"], msg["channel"],
                                n if isinstance(n, int) and not isinstance(n, bool) else None)
        if kind == "tournament":
            return m.TournamentChanged(msg)
        if kind == "emote":
            return m.EmotePosted(msg["table"], msg["seat"], msg["emote"])
        if kind == "rematch":
            return m.RematchChanged(msg)
        if kind == "profile":
            return m.ProfileArrived(msg["player"], msg["profile"])
        if kind == "replay":
            return m.ReplayPart(msg)
        return m.HostError(str(msg.get("code", kind)), str(msg.get("message", "")))

    async def tell_looking(self, on: bool) -> None:
        """Say whether the lobby is on screen (:class:`client.connecting.Looking`)."""
        from client.connecting import Looking

        if self._looking is None:
            self._looking = Looking()
        await self._looking.tell(self.session, self.lobby, on)

    async def send(self, msg: dict[str, Any]) -> None:
        """Send an intent to the host; a refusal to send shows as a notification."""
        from client.connecting import send_intent

        problem = await send_intent(self.session, msg)
        if problem is not None:
            self.notify(problem[1], severity=problem[0], markup=False)  # type: ignore[arg-type]

    # -- messages from the worker ---------------------------------------------------------
    def on_connected(self, msg: m.Connected) -> None:
        from protocol.tls import human_fingerprint

        self._got_in = True
        self.lobby_screen.set_connection(
            _("{host} · key {key} · you are {name}").format(
                host=msg.host_name, key=human_fingerprint(msg.fingerprint),
                name=self.player_name))

    def on_lobby_changed(self, msg: m.LobbyChanged) -> None:
        self.lobby = msg.lobby
        self.club_seats.remember(msg.lobby)
        self.lobby_screen.update_lobby(msg.lobby)
        screen = self.table_screen
        if screen is not None and screen.watching and screen.is_attached:
            screen.set_link(screen.link_note)  # the watchers listed may have changed
        if self.auto_seat:
            self.call_later(self._auto_step)
        if self.auto_watch is not None and self.session is not None:
            table, self.auto_watch = self.auto_watch, None
            self.call_later(self.send, {"type": "watch", "table": table})
        watching = (msg.lobby.get("you") or {}).get("watching")
        self._watch_opened &= {watching}  # a new watch opens its table's screen again
        table = (msg.lobby.get("you") or {}).get("table")
        if table is not None and table in self.views and table not in self._opened:
            self.open_table(table)

    def on_view_changed(self, msg: m.ViewChanged) -> None:
        self.views[msg.table] = (msg.view, msg.legal)
        screen = self.table_screen
        if screen is not None and screen.table == msg.table and screen.watching:
            self.back_to_lobby()  # a watcher who sat down: the table again, as a player
            self.open_table(msg.table)
        elif self.table_screen is not None and self.table_screen.table == msg.table:
            self.table_screen.update_view(msg.view, msg.legal)
        elif msg.table not in self._opened:
            self.open_table(msg.table)

    def on_tournament_changed(self, msg: m.TournamentChanged) -> None:
        """The host's tournament moved on: the lobby's line, and the standings screen — by
        itself between rounds and at the end for an entrant not in the middle of a game."""
        from client.screens.standings import StandingsScreen

        self.tournament = msg.event
        self.lobby_screen.update_tournament(msg.event)
        shown = next((s for s in self.screen_stack if isinstance(s, StandingsScreen)), None)
        if shown is not None:
            shown.update_event(msg.event)
            return
        key = (msg.event.get("round"), msg.event.get("status"))
        if (msg.event.get("status") in ("between", "over") and msg.event.get("you")
                and key != self._standings_shown and not self._playing()):
            self._standings_shown = key
            self.push_screen(StandingsScreen(msg.event))

    def _playing(self) -> bool:
        """Whether a table screen of a game still running is open."""
        screen = self.table_screen
        if screen is None or screen not in self.screen_stack:
            return False
        return self.views.get(screen.table, ({}, []))[0].get("outcome") is None

    def action_show_standings(self) -> None:
        """The tournament's standings screen (a note if the host runs no tournament)."""
        from client.screens.standings import StandingsScreen

        if self.tournament is None:
            self.notify(_("This host runs no tournament."), severity="warning")
            return
        self.push_screen(StandingsScreen(self.tournament))

    def on_watch_view_changed(self, msg: m.WatchViewChanged) -> None:
        self.watch_views[msg.table] = msg.view
        screen = self.table_screen
        if screen is not None and screen.table == msg.table and screen.watching:
            screen.update_view(msg.view, [])
        elif msg.table not in self._watch_opened:  # once per watch: l goes to the lobby
            self._watch_opened.add(msg.table)
            self.open_table(msg.table, watching=True)

    def on_watchers_changed(self, msg: m.WatchersChanged) -> None:
        self.watchers[msg.table] = msg.names
        if self.table_screen is not None and self.table_screen.table == msg.table:
            self.table_screen.set_link(self.table_screen.link_note)  # redraws the status line

    def table_watchers(self, table: int) -> list[str]:
        """Who watches ``table``: as its frames said (you play there), else as the lobby says."""
        if table in self.watchers:
            return self.watchers[table]
        info = next((t for t in (self.lobby.get("tables") or []) if t.get("id") == table), {})
        return [str(n) for n in info.get("watchers") or []]

    def on_unwatched(self, msg: m.Unwatched) -> None:
        text = code_text(msg.code, msg.message)
        self.notify(text, title=_("Watching ended"), severity="warning", markup=False)
        screen = self.table_screen
        if screen is not None and screen.table == msg.table and screen.watching:
            self.back_to_lobby()

    def on_action_rejected(self, msg: m.ActionRejected) -> None:
        late = msg.code in TOO_LATE_CODES
        text = self.rejection_text(msg)
        self.notify(text, title=_("Too late") if late else _("Not accepted"),
                    severity="warning", markup=False)
        if self.table_screen is not None and self.table_screen.table == msg.table and (
                self.table_screen.is_attached):
            self.table_screen.add_note(text)

    def rejection_text(self, msg: m.ActionRejected) -> str:
        """Why the host refused, in the reader's language (:func:`client.refusals.
        rejection_text`); an answer that came after its question closed is "too late" — and
        what came first, in the table's own words, where the table screen knows it."""
        if msg.code in TOO_LATE_CODES:
            screen = self.table_screen
            what = screen.moved_on() if screen is not None and screen.table == msg.table else ""
            if what:
                return _("Too late: the game moved on before your answer arrived — {what}").format(
                    what=what)
        view = self.views.get(msg.table, ({}, []))[0]
        return rejection_text(view, msg.code, msg.message, msg.reason)

    def on_profile_arrived(self, msg: m.ProfileArrived) -> None:
        """A profile asked for (:mod:`client.club`) shows, in place of one already shown."""
        from client.screens.profile import ProfileScreen

        screen = ProfileScreen(msg.profile)
        if isinstance(self.screen, ProfileScreen):
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def on_replay_part(self, msg: m.ReplayPart) -> None:
        from client.club import open_replay

        parts = self.replays.add(msg.part)
        if parts is not None:
            open_replay(self, parts)

    def on_chat_posted(self, msg: m.ChatPosted) -> None:
        if msg.channel != "lobby" and self.table_screen is not None:
            self.table_screen.add_chat(msg.sender, msg.text, msg.channel, msg.number)
        self.lobby_screen.add_chat(msg.sender, msg.text, msg.channel, msg.number)

    def on_emote_posted(self, msg: m.EmotePosted) -> None:
        """An emote beside its player's name, on every screen at its table."""
        for screen in dict.fromkeys([*self.screen_stack, self.table_screen]):
            if getattr(screen, "table", None) == msg.table and hasattr(screen, "show_emote"):
                screen.show_emote(msg.seat, msg.emote)

    def on_rematch_changed(self, msg: m.RematchChanged) -> None:
        """A rematch offered, answered, started or withdrawn: its results screen shows who
        agreed; elsewhere a note says it was offered."""
        from client.words.party import rematch_line

        table = msg.offer["table"]
        first = table not in self.rematches
        self.rematches[table] = msg.offer
        shown = [s for s in self.screen_stack if getattr(s, "table", None) == table
                 and hasattr(s, "show_rematch")]
        for screen in shown:
            screen.show_rematch()
        if first and not shown and msg.offer.get("status") == "open":
            you = self.views.get(table, ({}, []))[0].get("seat")
            self.notify(rematch_line(msg.offer, you) + " — " + _(
                "choose table #{table} in the lobby for its results").format(table=table),
                title=_("Rematch"), markup=False)

    def secret_step_open(self, table: int) -> bool:
        """Whether a secret step is open at ``table`` (its frames name one): then this client
        sends only its step's frames — no emote, whose moment could say who is awake."""
        return self.session is not None and self.session.secret_step_open(table)

    def on_host_error(self, msg: m.HostError) -> None:
        known = msg.code in CODE_WORDS
        text = code_text(msg.code, msg.message)
        # titled in words: the code (``table_full``) is for programs, not for people
        self.notify(text, title=_("Not possible") if known else _("The host says"),
                    severity="error", markup=False)

    def on_disconnected(self, msg: m.Disconnected) -> None:
        if self.leave_if_unreached and not self._got_in:
            self.unreached = msg.reason
            self.exit(return_code=1)
            return
        self.lobby_screen.set_connection(_("Not connected: {why}").format(why=msg.reason))
        self.notify(msg.reason, title=_("Disconnected"), severity="error", timeout=8,
                    markup=False)
        if self.table_screen is not None and self.table_screen.is_attached:
            self.table_screen.connection_lost(msg.reason)
        discover = next((s for s in self.screen_stack if isinstance(s, DiscoverScreen)), None)
        if discover is not None and not self.lobby:
            # Never got in: back to the list of hosts to try another (or the same) again.
            self.back_to_lobby()
            if self.screen is self.lobby_screen:
                self.pop_screen()
            discover.browse()

    # -- screens --------------------------------------------------------------------------
    def open_table(self, table: int, watching: bool = False) -> bool:
        """Show ``table``'s screen (its game's) with the latest view; False if none yet.
        ``watching``: the public view, read-only (no action keys, a "watching" banner)."""
        if table not in (self.watch_views if watching else self.views):
            return False
        if watching:
            view, legal = self.watch_views[table], []
        else:
            self._opened.add(table)
            view, legal = self.views[table]
        if self.table_screen is not None and self.table_screen in self.screen_stack:
            if self.table_screen.table == table and self.table_screen.watching == watching:
                return True
            self.back_to_lobby()
        screen = table_screen_for(str(view.get("game", "")))(table, watching=watching)
        screen.update_view(view, legal)
        self.table_screen = screen
        self.push_screen(screen, callback=lambda _: self._table_closed(screen))
        if self.tutorial and self.greeting and not watching:
            greeting, self.greeting = self.greeting, ""  # once
            self.call_after_refresh(screen.add_note, greeting)
        return True

    def _table_closed(self, screen: TableScreen) -> None:
        if self.table_screen is screen:
            self.table_screen = None

    def show_results(self, table: int, view: dict[str, Any], asked: bool = False) -> None:
        """Show the outcome of ``table`` over its screen (``asked``: by a key, not by the
        game's end — its keys need not wait)."""
        self.push_screen(ResultsScreen(table, view, asked))

    def back_to_lobby(self) -> None:
        """Pop every screen above the lobby."""
        while self.screen is not self.lobby_screen and len(self.screen_stack) > 2:
            popped = self.screen
            self.pop_screen()
            if popped is self.table_screen:
                self.table_screen = None

    # -- quitting -------------------------------------------------------------------------
    def running_table(self) -> int | None:
        """The table you are playing at while its game runs (None if none)."""
        screen = self.table_screen
        if screen is None or self.session is None:
            return None
        view = screen.view
        if not view or view.get("outcome") or not isinstance(view.get("seat"), int):
            return None
        return screen.table

    def action_quit_asking(self) -> None:
        """Ctrl+Q: quit — after asking once if your game is still running (Ctrl+Q again, y or
        Enter quits; n or Esc stays)."""
        if isinstance(self.screen, ConfirmQuit):
            self.exit()
            return
        table = self.running_table()
        if table is None:
            self.exit()
            return
        self.push_screen(ConfirmQuit(table, local=self.auto_seat is not None),
                         callback=self._quit_answered)

    def _quit_answered(self, leave: bool | None) -> None:
        if leave:
            self.exit()

    # -- the layout, and a terminal too small ----------------------------------------------
    @property
    def layout_name(self) -> layout.Layout:
        """The layout the screens take at the terminal's size (:mod:`client.layout`)."""
        return layout.layout_for(self.size.width, self.size.height)

    def _set_layout(self, width: int, height: int) -> None:
        now = layout.layout_for(width, height)
        for name, css_class in layout.CLASSES.items():
            if css_class:
                self.set_class(name == now, css_class)

    def on_resize(self, event: events.Resize) -> None:
        """The layout's class follows the size; below the one-column layout's least a notice
        says what is missing (until the terminal is large enough)."""
        self._set_layout(event.size.width, event.size.height)
        if layout.too_small(event.size.width, event.size.height):
            text = _("This terminal is {width}×{height}; hexnet needs at least {min_width}×"
                     "{min_height}. Make the window larger (or the font smaller).").format(
                width=event.size.width, height=event.size.height,
                min_width=layout.SMALLEST[0], min_height=layout.SMALLEST[1])
            if self._too_small is not None and self._too_small.message == text:
                return
            self._drop_too_small()
            self._too_small = Notification(text, _("Terminal too small"), "warning",
                                           timeout=24 * 3600, markup=False)
            self.post_message(Notify(self._too_small))
        else:
            self._drop_too_small()

    def _drop_too_small(self) -> None:
        if self._too_small is not None:
            if self._too_small in self._notifications:
                self._unnotify(self._too_small)
            self._too_small = None

    @property
    def too_small_notice(self) -> str | None:
        """The "terminal too small" notice shown now, if any."""
        return self._too_small.message if self._too_small is not None else None

    def action_help(self) -> None:
        """Every key the current screen answers to, with what it does (over a table: in a
        pane of the table, the prompt staying in view)."""
        screen = self.screen
        keys = []
        for ab in self.active_bindings.values():
            b = ab.binding
            # The screen's and the app's own keys; widgets' (lists, inputs) are in GENERAL.
            if (ab.node in (screen, self) and b.description
                    and b.key not in ("question_mark", "tab", "shift+tab", "ctrl+c",
                                      "super+c", "ctrl+q", "f2", "escape")):
                keys.append((b.key_display or b.key, b.description))
        notes = screen.help_notes() if hasattr(screen, "help_notes") else ""
        title = _(getattr(screen, "HELP_TITLE", type(screen).__name__.removesuffix("Screen")))
        explain = screen.help_explain() if hasattr(screen, "help_explain") else ""
        if isinstance(screen, TableScreen):
            screen.show_help(title, keys, notes, screen.help_extra(), explain, screen.game)
        else:
            self.push_screen(HelpScreen(title, keys, notes, explain))

    # -- the look ---------------------------------------------------------------------------
    def set_look(self, look: str) -> None:
        """Colour the client as ``look`` says (:mod:`client.palette`): its roles and the
        Textual theme of the chrome (``mono``: the default theme, turned grey by Textual's
        ``NO_COLOR`` filter where the terminal shows colour at all)."""
        palette.set_look(look)
        self.look = look
        self.theme = palette.THEMES.get(look, palette.THEMES["okabe-ito"]).name

    def action_next_look(self) -> None:
        """F3: the next look (Okabe–Ito ↔ high contrast; without colour there is no other)."""
        if self.no_color:
            self.notify(_("NO_COLOR is set: hexnet shows no colours (bold and reverse "
                          "instead)."))
            return
        looks = [name for name in palette.LOOKS if name in palette.THEMES]
        self.switch_look(looks[(looks.index(self.look) + 1) % len(looks)]
                         if self.look in looks else looks[0])

    def switch_look(self, look: str) -> None:
        """Show everything in ``look`` from now on, the screens already open too."""
        self.set_look(look)
        for screen in dict.fromkeys([*self.screen_stack, self.lobby_screen]):
            if screen.is_attached and hasattr(screen, "retranslate"):
                screen.retranslate()
        self.notify(_("Look: {name}").format(name=_(LOOK_NAMES[look])))

    # -- the language ---------------------------------------------------------------------
    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """Textual's commands, and one per language hexnet speaks."""
        yield from super().get_system_commands(screen)
        for lang in i18n.LANGS:
            name = i18n.LANGUAGE_NAMES[lang]
            yield SystemCommand(_("Language: {name}").format(name=name),
                                _("Show hexnet in {language} (F2 switches)").format(
                                    language=name), partial(self.switch_language, lang))
        if not self.no_color:
            for look in palette.THEMES:
                yield SystemCommand(_("Look: {name}").format(name=_(LOOK_NAMES[look])),
                                    _("Colours for everyone at the table (F3 switches)"),
                                    partial(self.switch_look, look))

    def action_next_language(self) -> None:
        """F2: the next language (English → Magyar → Deutsch → Čeština → English)."""
        self.switch_language(i18n.next_language(i18n.language()))

    def switch_language(self, lang: str) -> None:
        """Show everything in ``lang`` from now on, the screens already open too."""
        i18n.set_language(lang)
        screens = [*self.screen_stack, self.lobby_screen]
        if self.table_screen is not None:
            screens.append(self.table_screen)
        for screen in dict.fromkeys(screens):
            if screen.is_attached and hasattr(screen, "retranslate"):
                screen.retranslate()
            for footer in screen.query(LocalFooter):
                footer.refresh(recompose=True)
        self.notify(_("Language: {name}").format(name=i18n.LANGUAGE_NAMES[lang]))

    # -- hexnet play ----------------------------------------------------------------------
    async def _auto_step(self) -> None:
        if self.auto_seat is None or self.session is None:
            return
        msg = next_message(self.auto_seat, self.lobby)
        if msg is not None:
            await self.send(msg)
