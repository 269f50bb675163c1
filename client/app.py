"""The Textual app: discover → fingerprint → room code → lobby → table → results.

The network session lives in one worker (:meth:`HexnetApp.run_session`), which posts the typed
messages of :mod:`client.messages`; the handlers here hand them to the screens. Screens send
intents with :meth:`HexnetApp.send`. Nothing here knows a game's rules.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from textual import events, work
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.notifications import Notification, Notify
from textual.screen import Screen

from client import messages as m
from client.screens import table_screen_for
from client.screens.code import CodeScreen
from client.screens.confirm import ConfirmQuit
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
MAX_CODE_TRIES = 5
SMALLEST = (80, 24)  # the terminal the client is made for; below it a notice says so
# Refusals of an answer that came after its question closed (the host's ``stale``; a
# dedicated "too late" code where the host has one): said as "too late", not as a rules error.
TOO_LATE_CODES = frozenset({"stale", "too_late", "late"})
# What the host's refusals and errors say, by code, where the words need nothing only the host
# knows (otherwise its own — English — sentence is shown).
CODE_WORDS = {
    "stale": N_("Too late: the game moved on before your answer arrived (the window had "
                "closed or the question changed). Look again and choose anew."),
    "not_playing": N_("This table is not playing."),
    "not_seated": N_("You have no seat at that table."),
    "empty": N_("That message was empty."),
    "no_channel": N_("You may not speak on that channel."),
    "table_full": N_("That table has no empty seat."),
    "seat_taken": N_("That seat is taken."),
    "not_open": N_("That table has already started."),
    "seats_empty": N_("Every seat needs a player or a bot before the start."),
    "too_many_tables": N_("This host has as many tables as it can show."),
    "playing": N_("You are playing at another table; leave it first."),
    "no_table": N_("There is no such table."),
    "journal_failed": N_("The host could not write this table's journal, so it stopped the "
                         "table."),
    "no_watching": N_("That table may not be watched."),
    "not_creator": N_("Only the table's creator or the host may set who watches it."),
    "registration_closed": N_("The tournament has started; registration is closed."),
    "event_full": N_("The tournament has as many entrants as it can take."),
    "rate_limited": N_("Too many messages; slow down."),
    "idle": N_("No message for too long."),
    "too_many_watchers": N_("That table has as many watchers as it can take."),
    "name_taken": N_("No free variant of that name is left."),
    "unknown_game": N_("This host does not have that game."),
    "bad_seats": N_("That game cannot be played with that many seats."),
    "no_seat": N_("There is no player in that seat."),
    "host_only": N_("Only the host may do that."),
    "no_option": N_("This table has no such setting."),
    "internal": N_("The host failed on that request; it was not carried out."),
    "too_fast": N_("You change what you watch too often; wait a second and try again."),
    "chat_too_fast": N_("You are writing faster than the others can read; wait a moment."),
}
# refusals whose host sentence carries what matters (an option's bounds, a bot policy's error)
# or that only a broken client meets (the handshake's): shown as the host words them
HOST_WORDED = ("bad_options", "bad_policy", "unexpected", "version", "bad_signature",
               "code_required", "bad_code")


def table_game(session: Any, table: int) -> str | None:
    """The game a table plays, from the last view of it the session holds (None if none)."""
    view = session.views.get(table) or getattr(session, "watch_views", {}).get(table) or {}
    game = view.get("game")
    return game if isinstance(game, str) else None


@dataclass
class AutoSeat:
    """For ``hexnet play``: take ``seat`` at ``table`` as soon as connected, then start it."""

    table: int
    seat: int = 0
    start: bool = True
    step: str = "sit"  # sit → start → done


class HexnetApp(App):
    """One player's client. ``target`` (host, port) skips discovery."""

    TITLE = "hexnet"
    ENABLE_COMMAND_PALETTE = True  # ctrl+p: the language (and Textual's own commands)
    CSS_PATH = [STYLES / "app.tcss", STYLES / "table.tcss"]
    BINDINGS = [
        Binding("question_mark", "help", N_("Help"), key_display="?"),
        Binding("f2", "next_language", N_("next language"), show=False),
        # priority: a dialog (fingerprint, room code, help, a list) must not swallow it
        Binding("ctrl+q", "quit_asking", N_("Quit"), priority=True),
    ]

    def __init__(self, *, target: tuple[str, int] | None = None, name: str = "player",
                 code: str | None = None, config_dir: str | None = None,
                 fingerprint: str | None = None, accept_new: bool = False,
                 auto_seat: AutoSeat | None = None,
                 interfaces: list[str] | None = None, greeting: str = "",
                 lang: str | None = None, tutorial: str | None = None,
                 auto_watch: int | None = None, leave_if_unreached: bool = False) -> None:
        i18n.set_language(lang or i18n.from_environment())
        super().__init__()
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
        self._looking_said: tuple[bool, int] | None = None  # the last ``look``, and when
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

    def on_mount(self) -> None:
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
        from client.session import BadRoomCode, RateLimited, Session, SessionError

        label = f"{host}:{port}"
        code, problem = self.code, ""
        confirmed: list[str] = []  # a key the user confirmed is written to known_hosts only
        # once the host authenticated; until then later tries (with the code) trust it as given

        async def confirm(host_label: str, fingerprint: str) -> bool:
            ok = await self._confirm_fingerprint(host_label, fingerprint)
            if ok:
                confirmed.append(fingerprint)
            return ok

        for _attempt in range(MAX_CODE_TRIES):
            try:
                session = await Session.connect(
                    host, port, name=self.player_name, code=code, config_dir=self.config_dir,
                    confirm_fingerprint=confirm, accept_new=self.accept_new,
                    pinned_fingerprint=self.pinned or (confirmed[-1] if confirmed else None),
                    reconnect=True, **self.connect_options)
                break
            except RateLimited as exc:
                self.post_message(m.Disconnected(str(exc), "rate_limited"))
                return
            except BadRoomCode as exc:
                problem = str(exc) if code else ""
                code = await self.push_screen_wait(CodeScreen(label, problem))
                if code is None:
                    self.post_message(m.Disconnected(_("No room code given."), "cancelled"))
                    return
            except SessionError as exc:
                self.post_message(m.Disconnected(str(exc), type(exc).__name__))
                return
        else:
            self.post_message(m.Disconnected(_("Too many wrong room codes."), "bad_code"))
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
        return bool(await self.push_screen_wait(FingerprintScreen(
            host_label, human, name=name, interfaces=self.interfaces, lookup=name is None)))

    def _fair_play_news(self, session: Any, table: int) -> None:
        from client.fairplay import fair_play_line

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
        from client.fairplay import fair_play_line

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
        return m.HostError(str(msg.get("code", kind)), str(msg.get("message", "")))

    async def tell_looking(self, on: bool) -> None:
        """Say whether the lobby is on screen (``look``): a player seated at a playing table
        is sent the lobby only while it is. Said when it changes, and again after a
        reconnect (the host then knows nothing of it); quiet if it cannot be said."""
        session = self.session
        seated = (self.lobby.get("you") or {}).get("table") is not None
        if session is None or session.reconnecting or not seated:
            return
        said = (on, session.reconnects)
        if said == self._looking_said:
            return
        self._looking_said = said
        with contextlib.suppress(Exception):
            await session.send({"type": "look", "on": on})

    async def send(self, msg: dict[str, Any]) -> None:
        """Send an intent to the host; a refusal to send shows as a notification."""
        from client.session import SessionError

        if self.session is None:
            self.notify(_("Not connected."), severity="error")
            return
        if self.session.reconnecting:  # do not block the screen while the link is down
            self.notify(_("Reconnecting to the host… try again in a moment."),
                        severity="warning")
            return
        try:
            await self.session.send(msg)
        except SessionError as exc:
            self.notify(str(exc), severity="error", markup=False)

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
        text = _(CODE_WORDS[msg.code]) if msg.code in CODE_WORDS else msg.message
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
        """Why the host refused, in the reader's language (the engine's reason as data); an
        answer that came after its question closed is "too late", whatever the host adds."""
        if msg.code in TOO_LATE_CODES:
            screen = self.table_screen
            what = screen.moved_on() if screen is not None and screen.table == msg.table else ""
            if what:  # what came first, in the table's own words
                return _("Too late: the game moved on before your answer arrived — {what}").format(
                    what=what)
            return _(CODE_WORDS["stale"])
        if msg.reason is None:
            return _(CODE_WORDS[msg.code]) if msg.code in CODE_WORDS else msg.message
        view = self.views.get(msg.table, ({}, []))[0]
        text = i18n.render_reason(str(view.get("game") or "") or None, msg.reason,
                                  view.get("players") or [])
        return msg.message if text == i18n.MISSING.format(msg.reason.get("key")) else text

    def on_chat_posted(self, msg: m.ChatPosted) -> None:
        if msg.channel != "lobby" and self.table_screen is not None:
            self.table_screen.add_chat(msg.sender, msg.text, msg.channel, msg.number)
        self.lobby_screen.add_chat(msg.sender, msg.text, msg.channel, msg.number)

    def on_host_error(self, msg: m.HostError) -> None:
        known = msg.code in CODE_WORDS
        text = _(CODE_WORDS[msg.code]) if known else msg.message
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

    # -- a terminal too small -------------------------------------------------------------
    def on_resize(self, event: events.Resize) -> None:
        """Below 80×24 a notice says what is missing (until the terminal is large enough)."""
        small = event.size.width < SMALLEST[0] or event.size.height < SMALLEST[1]
        if small:
            text = _("This terminal is {width}×{height}; hexnet needs at least {min_width}×"
                     "{min_height}. Make the window larger (or the font smaller).").format(
                width=event.size.width, height=event.size.height, min_width=SMALLEST[0],
                min_height=SMALLEST[1])
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

    # -- the language ---------------------------------------------------------------------
    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """Textual's commands, and one per language hexnet speaks."""
        yield from super().get_system_commands(screen)
        for lang in i18n.LANGS:
            name = i18n.LANGUAGE_NAMES[lang]
            yield SystemCommand(_("Language: {name}").format(name=name),
                                _("Show hexnet in {language} (F2 switches)").format(
                                    language=name), partial(self.switch_language, lang))

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
        auto = self.auto_seat
        if auto is None or self.session is None:
            return
        you = self.lobby.get("you") or {}
        table = next((t for t in self.lobby.get("tables") or [] if t["id"] == auto.table), None)
        if auto.step == "sit":
            auto.step = "start" if auto.start else "done"
            await self.send({"type": "sit", "table": auto.table, "seat": auto.seat})
        elif (auto.step == "start" and table is not None and you.get("table") == auto.table
              and table.get("status") == "open"
              and all(s.get("kind") != "empty" for s in table.get("seats") or [])):
            auto.step = "done"
            await self.send({"type": "start", "table": auto.table})
