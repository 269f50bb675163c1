"""The chrome every game's table shares: status line (phase, who is waited on), the game area
a game's screen fills, the log with the chat, the prompt with the host's countdown, the help
pane, and the action picker.

The screen never decides what is legal: it receives the seat's legal actions with every view and
narrows them down by keyboard (card, then the fields that still differ, one small picker each).
A game's screen subclasses :class:`TableScreen`, fills :meth:`compose_game` / :meth:`show_game`,
and may name things better in :meth:`label_value`. Screens register in ``client.screens``.

The calm clock (issue 14): the countdown stands in front of every prompt and in every list
opened over the table; when the question changes under the cursor the answering keys wait a
moment (:mod:`client.widgets.guard`); the help (``?``) is a pane of the table, so the prompt
stays in view and answerable; a list opened over the table follows the table — its entries are
always the ones still possible, and when none is left it closes and says that the moment passed
("too late"), so no pick is ever sent for a question that is gone.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, ClassVar

from rich.cells import cell_len
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from client import layout
from client.choosing import distinct, field_title, matching, next_question, selector, values
from client.screens.dialog import answer
from client.screens.help import HelpPane
from client.screens.picker import Choices, Picker
from client.widgets import names, presence
from client.widgets.chat import ChatInput
from client.widgets.countdown import Countdown, clock
from client.widgets.footer import LocalFooter
from client.widgets.guard import GUARD_SECONDS, PAUSED, KeyGuard
from client.widgets.log import GameLog
from client.widgets.pages import PageTabs
from client.words.party import Shown, bots_text
from client.words.table import Action, TableWords, seat_name
from hexnet.i18n import N_, _, ngettext

Select = Callable[[Action], bool]
NAME_CAP = 10  # letters of a player's name on the status line (then cut: ``Bartholom…``)
# from LARGE columns to below this many columns or rows the table is drawn for large print (a big
# font, a zoomed browser): the side pane narrower, the game area without what is only drawn
# (styles/table.tcss); below LARGE it takes the one-column layout (client/layout.py)
LARGE_PRINT = layout.WHOLE

CLOCK_NOTE = N_("⏱ 6s before the prompt: the seconds left to answer (then the host decides as "
                "the prompt says). ⏸: the question just changed, keys wait a moment.")
PRESENCE_NOTE = N_("⟳ link dropped (coming back) · ⚡ client closed · absent in N s · ⌀ "
                   "default moves · ⚙ bot plays · #3 table")


class TableScreen(Screen):
    """One table seen from your seat. Subclasses draw the game; this draws everything else."""

    GAME: ClassVar[str] = ""
    HORIZONTAL_BREAKPOINTS = [(0, "-one-column"), (layout.LARGE[0], "-large-print"),
                              (LARGE_PRINT[0], "-normal")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (LARGE_PRINT[1], "-tall")]
    # the keys a watcher keeps (read-only: no action, no table chat); games may add theirs
    WATCH_ACTIONS: ClassVar[frozenset[str]] = frozenset({"lobby", "results", "help",
                                                         "scroll_log"})
    HELP_TITLE: ClassVar[str] = N_("Table")
    HELP_NOTES: ClassVar[tuple[str, ...] | str] = ()
    # the game's words (client/words); its CONFIRM_FIELDS are asked even with one value: the
    # choice is shown and confirmed, never made silently (a key typed ahead must not pick the
    # next question's first entry)
    WORDS: ClassVar[type[TableWords]] = TableWords
    # Actions that answer the table: their keys wait a moment after the question changed.
    ANSWER_ACTIONS: ClassVar[frozenset[str]] = frozenset({"pass_turn"})
    BINDINGS = [
        Binding("a", "all_actions", N_("Actions")),
        Binding("p", "pass_turn", N_("Pass")),
        Binding("c", "chat", N_("Chat")),
        Binding("l", "lobby", N_("Lobby")),
        Binding("question_mark", "app.help", N_("Help"), key_display="?"),
        Binding("b", "back", N_("I'm back")),
        Binding("m", "react", N_("React")),
        Binding("o", "bots", N_("Bots")),
        # the one-column layout's pages (client/layout.py): ← → as the tabs
        Binding("left", "page(-1)", N_("Previous page"), show=False, key_display="←"),
        Binding("right", "page(1)", N_("Next page"), show=False, key_display="→"),
        # the log takes no focus (Tab would move ↑↓ off the hand with no sign of it): these
        # page it, whatever has the focus
        Binding("pageup", "scroll_log(-1)", N_("Log: earlier"), key_display="PgUp",
                show=False, priority=True),
        Binding("pagedown", "scroll_log(1)", N_("Log: later"), key_display="PgDn",
                show=False, priority=True),
    ]
    # The one-column layout's pages, first shown first: "side" (compose_side's widgets), "game"
    # (the game area), "log". Games name them in their own words.
    PAGES: ClassVar[tuple[tuple[str, str], ...]] = (
        ("side", N_("Hand")), ("game", N_("Board")), ("log", N_("Log")))

    def __init__(self, table: int, watching: bool = False) -> None:
        super().__init__()
        self.table = table
        self.watching = watching  # the public view, read-only (host/watchers.py)
        self.view: dict[str, Any] = {}
        self.legal: list[Action] = []
        self._results_shown = False
        self._ready = False
        self.link_note = ""  # "⟳ reconnecting…" while the session reconnects
        self._name_cap = NAME_CAP  # status_name's cut (6 while a crowded status line is made)
        self.guard = KeyGuard()
        self._question: tuple[Any, ...] | None = None  # what the seat is asked now
        self.live_picker: Picker | None = None  # the list open over this table, if any
        self._presence: list[Any] = []  # every seat's presence (client/widgets/presence.py)
        self._presence_since = 0.0  # when it arrived (its countdowns run from then)
        self.emotes = Shown()  # the emotes shown beside the players' names now
        self._bots: Any = None  # the host's bots held or slowed (view part ``bots``)

    # -- layout ---------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        if self.watching:
            yield Static(self.watch_banner(), id="watch-banner", markup=False)
        with Horizontal(id="status-bar"):
            yield Static("", id="status", markup=False)
        yield PageTabs([(page, _(label)) for page, label in self.PAGES], id="pages")
        with Horizontal(id="table-body"):
            with Vertical(id="game-area"):
                yield from self.compose_game()
            with Vertical(id="side"):
                for widget in self.compose_side():
                    widget.add_class("side-part")  # a page of its own in the narrow layout
                    yield widget
                yield GameLog(id="log")
        help_pane = HelpPane(id="table-help")
        help_pane.display = False
        yield help_pane
        yield Static("", id="tutorial-hint", markup=False)
        with Horizontal(id="prompt-row"):
            yield Countdown(id="countdown")
            yield Static("", id="prompt", markup=False)
        yield ChatInput(self.chat_placeholder(), id="chat-input")
        yield LocalFooter()

    def watch_banner(self) -> str:
        """The line over a watched table: you watch, you cannot act, how to leave."""
        info = self.table_info()
        text = _("👁 WATCHING table #{table} — read-only, the public view only · l lobby").format(
            table=self.table)
        if info.get("watch_delay"):  # first: the line is cut at the terminal's width
            text = ngettext("{n} action late", "{n} actions late", int(info["watch_delay"])
                            ).format(n=info["watch_delay"]) + " · " + text
        return text

    def chat_placeholder(self) -> str:
        """What the empty chat box says."""
        return _("say something to the table (Enter send · Esc close)")

    def compose_game(self) -> ComposeResult:
        """The game's own area (left). Subclasses override."""
        with VerticalScroll():
            yield Static("", id="generic-view", markup=False)

    def compose_side(self) -> ComposeResult:
        """Widgets above the log on the right (e.g. your hand). Subclasses override."""
        return iter(())

    def on_mount(self) -> None:
        self._ready = True
        self.show_page(self.PAGES[0][0])
        self.set_interval(1.0, self._count_presence)
        if self.view:
            self.update_view(self.view, self.legal)
        self.call_later(self._not_looking)

    def on_screen_resume(self) -> None:
        self.call_later(self._not_looking)

    @property
    def shown(self) -> bool:
        """Whether the screen's widgets are there to draw on: mounted, and not being taken away
        (news of the table — a view, a lobby update — may arrive while the screen closes, when
        its widgets go one by one; or after, when the app keeps the screen without them)."""
        return self._ready and self.is_attached and self.is_running

    def on_resize(self) -> None:
        """A new size (large print or not): the game area drawn again to fit it."""
        if self.shown and self.view:
            self.show_game(self.view, self.legal)

    async def _not_looking(self) -> None:
        """The table is on screen, not the lobby: the host may stop sending the lobby."""
        if self.app.screen is self and not self.watching:
            await self.app.tell_looking(False)  # type: ignore[attr-defined]

    def retranslate(self) -> None:
        """Everything again in the current language (after a language switch): the log, the
        status and prompt lines, the game area and the chat box."""
        self.query_one(ChatInput).placeholder = self.chat_placeholder()
        if self.watching:
            self.query_one("#watch-banner", Static).update(self.watch_banner())
        self.query_one(GameLog).rerender(self.event_text)
        if self.view:
            self.update_view(self.view, self.legal)

    # -- rendering ------------------------------------------------------------------------
    def update_view(self, view: dict[str, Any], legal: list[Action]) -> None:
        """Show ``view`` with ``legal`` (the seat's legal actions). Called for every new view."""
        self.view = view
        self.legal = [] if self.watching else list(legal)
        seen = list(view.get("presence") or [])
        if seen != self._presence:
            self._presence, self._presence_since = seen, time.monotonic()
        if not self.shown:  # not yet mounted, or closing or closed
            return
        self.query_one(Countdown).set_deadline(view.get("deadline"))
        self.query_one(GameLog).add_events(list(view.get("log") or []), self.event_text)
        self._bots_changed(view.get("bots"))
        self.query_one("#status", Static).update(self.status_text())
        self._note_question()
        self.show_game(view, legal)
        self.show_hint(view, legal)
        self.show_prompt()
        self.refresh_bindings()  # the key bar offers what fits the new question
        if self.live_picker is not None:
            self.live_picker.refresh_choices()
        if view.get("outcome") and not self._results_shown:
            self._results_shown = True
            # a watcher has typed nothing for the table: its results take keys at once
            self.app.show_results(self.table, view, asked=self.watching)

    def show_prompt(self) -> None:
        """The prompt line (``⏸`` in front while keys wait)."""
        if not self.shown:
            return
        prompt = self.query_one("#prompt", Static)
        text = self.away_text() or self.prompt_text()
        waiting = self.guard.active and bool(self.legal)
        prompt.update(f"{PAUSED} {text}" if waiting else text)
        prompt.set_class(bool(self.legal), "your-move")
        prompt.set_class(waiting, "-waiting")

    # -- the calm clock -------------------------------------------------------------------
    def question(self) -> tuple[Any, ...]:
        """What the seat is asked now: the deadline's key and the legal actions."""
        key = (self.view.get("deadline") or {}).get("key")
        return key, repr(self.legal)

    def _note_question(self) -> None:
        """A new question while one was already shown: the answering keys wait a moment."""
        question = self.question()
        changed = self._question is not None and question != self._question
        self._question = question
        if changed and self.legal:
            self.guard.arm()
            self.refresh_bindings()
            self.set_timer(GUARD_SECONDS + 0.05, self._guard_over)

    def _guard_over(self) -> None:
        if not self.guard.active and self.is_attached:
            self.show_prompt()
            self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A watcher has no action keys (they are hidden from the footer too); answering keys
        are shown dimmed (and do nothing) while keys wait."""
        if action == "page":  # ← → are the pages' only in the one-column layout
            return getattr(self.app, "layout_name", "") == "narrow"
        if self.watching and action not in self.WATCH_ACTIONS:
            return False
        if action == "bots":  # the table's owner, while host bots play at it
            return self.owns_bots()
        if action == "react":
            return not self.view.get("outcome")
        if not self.key_fits(action) or (action == "back" and not self.away()):
            return False
        if action in self.ANSWER_ACTIONS and self.guard.active:
            return None
        return True

    def key_fits(self, action: str) -> bool:
        """Whether a game's key fits the question now; one that does not is left off the key
        bar (and does nothing) until it does. Every key fits unless a game says otherwise."""
        return True

    def legal_types(self) -> set[str]:
        """The kinds of action the seat may take now."""
        return {str(a.get("type")) for a in self.legal}

    def answering(self) -> bool:
        """Whether an answering key may act now (not while keys wait: then a bell)."""
        if self.guard.active:
            self.app.bell()
            return False
        return True

    def clock_text(self) -> str:
        """The countdown as the prompt shows it ("⏱ 6s", or "" when nothing is timed)."""
        left = self.query_one(Countdown).remaining if self._ready else None
        return "" if left is None else clock(left)

    def too_late(self) -> None:
        """A list over the table lost its last entry: the moment to answer passed — and what
        passed it (the game's last move), where the log says."""
        what = self.moved_on()
        text = (_("Too late — the game moved on: {what}").format(what=what) if what else
                _("Too late: that question is closed (the countdown ran out or the game moved "
                  "on)."))
        self.notify(text, title=_("Too late"), severity="warning", markup=False)

    def moved_on(self) -> str:
        """The table's last move in words (its latest log line), "" if the log is empty."""
        log = [e for e in self.view.get("log") or [] if isinstance(e, dict)]
        return self.event_text(log[-1]) if log else ""

    # -- the one-column layout's pages ----------------------------------------------------
    @property
    def page(self) -> str:
        """The page the one-column layout shows ("side", "game" or "log")."""
        return self.query_one(PageTabs).current

    def show_page(self, page: str) -> None:
        """Show ``page`` in the one-column layout (the other layouts show every part)."""
        self.query_one(PageTabs).current = page
        for name, _label in self.PAGES:
            self.set_class(name == page, f"-page-{name}")
        if page != "log":
            self.focus_default()

    def action_page(self, step: int) -> None:
        """← / →: the previous or next page."""
        pages = [name for name, _label in self.PAGES]
        self.show_page(pages[(pages.index(self.page) + step) % len(pages)])

    @on(PageTabs.Chosen)
    def _page_tapped(self, event: PageTabs.Chosen) -> None:
        self.show_page(event.page)

    # -- help over the table --------------------------------------------------------------
    def show_help(self, title: str, keys: list[tuple[str, str]], notes: str,
                  extra: str = "", explain: str = "", game: str = "") -> None:
        """Show the help in place of the table body (the prompt and keys stay); ? again or
        Esc closes it."""
        pane = self.query_one(HelpPane)
        if pane.display:
            self.close_help()
            return
        self.query_one("#table-body").display = False
        pane.show_help(title, keys, notes, extra, explain, game)

    def close_help(self) -> None:
        """Back to the table body."""
        pane = self.query_one(HelpPane)
        if pane.display:
            pane.display = False
            self.query_one("#table-body").display = True
            self.focus_default()

    def action_close_help(self) -> None:
        self.close_help()

    @property
    def help_open(self) -> bool:
        """Whether the help pane is showing."""
        return self._ready and self.query_one(HelpPane).display

    def show_hint(self, view: dict[str, Any], legal: list[Action]) -> None:
        """In a tutorial (the app's ``tutorial`` names the game), the hint line for this view:
        what is happening and what you might do (:func:`hexnet.tutorial.hint_text`)."""
        line = self.query_one("#tutorial-hint", Static)
        game = getattr(self.app, "tutorial", None)
        text = ""
        if game:
            from hexnet.tutorial import hint_text

            text = hint_text(game, view, legal)
        line.update(text)
        line.display = bool(text)

    def show_game(self, view: dict[str, Any], legal: list[Action]) -> None:
        """Draw the game area. The default (games without a screen of their own) shows the
        view's plain fields and your legal actions; ``a`` picks one."""
        skip = {"log", "players", "seat", "game", "state_id", "active", "deadline", "outcome",
                "presence", "bots"}
        lines = [f"{k}: {v}" for k, v in view.items()
                 if k not in skip and isinstance(v, str | int | float | bool | list)
                 and len(str(v)) < 120]
        lines += ["", _("You can:")] + ([f"  {self.describe(a)}" for a in legal[:12]]
                                        or ["  " + _("(nothing now)")])
        if len(legal) > 12:
            lines.append("  " + _("… {n} more (a)").format(n=len(legal) - 12))
        self.query_one("#generic-view", Static).update("\n".join(lines))

    def help_extra(self) -> str:
        """Reference the help shows beside the keys (a game's villagers, roles…); "" = none."""
        return ""

    def help_notes(self) -> str:
        """What the help screen says about this screen beyond its keys, translated."""
        notes = self.HELP_NOTES
        text = _(notes) if isinstance(notes, str) else "\n".join(_(line) for line in notes)
        text += "\n" + _(CLOCK_NOTE)
        if self.link_note or self.presence_text() or self.title_text() not in self.status_text():
            text += "\n" + _(PRESENCE_NOTE)  # only while the top line shows such marks
        return text

    def help_explain(self) -> str:
        """What the help screen says first: what your role or the selected card does (a game
        says; nothing by default)."""
        return ""

    @property
    def game(self) -> str:
        """The game's id (its catalog's domain)."""
        return self.GAME or str(self.view.get("game", ""))

    def words(self) -> TableWords:
        """This table's words now (:mod:`client.words`): from the view and the legal actions,
        names as this screen writes them."""
        return self.WORDS(self.view, self.legal, watching=self.watching, name=self.player_name,
                          short=self.status_name)

    def event_text(self, event: dict[str, Any]) -> str:
        """One log event in the reader's language."""
        return self.words().event_text(event)

    def phase_text(self) -> str:
        """The phase in words (each game's words name their phases)."""
        return self.words().phase_text()

    def status_text(self) -> str:
        """The top line: game, phase, and who the game waits for (a lost link, and players
        lost, absent or played by a bot, first), and who watches. Made to fit its row: if the
        whole line is too wide, the game's name goes (``#3`` is left), then the names in it are
        cut to 6 characters (``Barth…``); only then is it cut at the right."""
        # who is lost or absent first: the line is one row and is cut at the right
        width = self.query_one("#status", Static).size.width or self.app.size.width
        line = ""
        for short_title, cap in ((False, NAME_CAP), (True, NAME_CAP), (True, 6)):
            self._name_cap = cap
            try:
                title = self.stacked_title(short=short_title)
                waiting = (_("waiting: {who}").format(who=self.waiting_text())
                           if self.waited_on() else "")  # (nobody: the game moves by itself)
                parts = [self.link_note, self.presence_text(), bots_text(self._bots),
                         self.emotes.line(lambda s: self.status_name(s, you=False)), title,
                         self.phase_text(), waiting, self.watchers_text()]
            finally:
                self._name_cap = NAME_CAP
            line = " │ ".join(p for p in parts if p)
            if cell_len(line) <= width:
                break
        return line

    # -- the party: emotes, the bots held or slowed ----------------------------------------
    def show_emote(self, seat: int, key: str) -> None:
        """Show an emote beside ``seat``'s name on the status line for a few seconds."""
        stays = self.emotes.add(seat, key)
        self._redraw_status()
        self.set_timer(stays + 0.1, self._redraw_status)

    def _redraw_status(self) -> None:
        """The status line drawn again — where there is one: a lobby update may reach a table
        screen whose widgets are being taken away (it closes, or a watcher's table screen is
        replaced as she watches again)."""
        if self.shown:
            for status in self.query("#status").results(Static):
                status.update(self.status_text())

    def owns_bots(self) -> bool:
        """Whether you own this table (the lobby says whose it is) and host bots play at it."""
        seat = self.view.get("seat")
        return (isinstance(seat, int) and self.table_info().get("owner") == seat
                and not self.view.get("outcome")
                and any(e.get("state") in ("bot", "stand_in") for e in self._presence
                        if isinstance(e, dict)))

    def _bots_changed(self, bots: Any) -> None:
        """The host's bots held or let go: the clock stops or runs on; the log says so."""
        was, self._bots = self._bots, bots
        paused = isinstance(bots, dict) and bool(bots.get("paused"))
        self.query_one(Countdown).hold(paused)
        if (isinstance(was, dict) and bool(was.get("paused"))) != paused:
            self.add_note(bots_text(bots) if paused else _("▶ The bots play on; the clock "
                                                           "runs again."))

    @work(group="party")
    async def action_react(self) -> None:
        """m: an emote beside your name, for everyone at the table."""
        from client.party import react

        await react(self.app, self.table)

    @work(group="party")
    async def action_bots(self) -> None:
        """o (the table's owner): pause the bots and the clock, or set the bots' pace."""
        from client.party import control_bots

        await control_bots(self.app, self.table, self._bots)

    def status_name(self, seat: int | None, you: bool = True) -> str:
        """``player_name`` as the status line shows it: cut to its current cap (``Bartholom…``)."""
        name = self.player_name(seat, you=you)
        cap = self._name_cap
        if len(name) <= cap or not isinstance(seat, int):
            return names.cut(name, cap)
        return self.names_in(cap, you=you)(seat)

    def names_in(self, width: int, you: bool = True) -> Callable[[Any], str]:
        """:meth:`player_name` for a column ``width`` cells wide: cut to fit, every seat still
        told apart from the others ("host bo…1", "host bo…2", not "host bot…" twice)."""
        seats = range(len(self.view.get("players") or []))
        fitted = names.fit([self.player_name(s, you=you) for s in seats], width)

        def name(seat: Any) -> str:
            if isinstance(seat, int) and 0 <= seat < len(fitted):
                return fitted[seat]
            return names.cut(self.player_name(seat, you=you), width)
        return name

    def presence_text(self) -> str:
        """Who at the table is not simply there (lost with the countdown to absent, absent,
        played by a bot); "" when everyone is."""
        return presence.line(self._presence, lambda s: self.status_name(s, you=False),
                             self._presence_since)

    def _count_presence(self) -> None:
        """Once a second: redraw the status line while a countdown to absent runs."""
        if presence.counting(self._presence):
            self._redraw_status()

    def watchers_text(self) -> str:
        """``👁 Vera, Zoe``: who watches this table ("" if nobody)."""
        names = getattr(self.app, "table_watchers", lambda table: [])(self.table)
        return "👁 " + ", ".join(names) if names else ""

    def title_text(self) -> str:
        """The game and the table's number (each game's screen may word it)."""
        return f"{self.GAME.title() or self.view.get('game', '')} #{self.table}"

    def stacked_title(self, short: bool = False) -> str:
        """:meth:`title_text` (``short``: the table's number alone, ``#3``), and a warning when
        the host stacked the position (every seat of the table reads it, as the lobby and the
        results screen say it)."""
        title = f"#{self.table}" if short else self.title_text()
        if self.table_info().get("stacked"):
            title += " " + _("⚠ stacked")
        return title

    def table_info(self) -> dict[str, Any]:
        """This table's entry in the latest lobby ({} if none)."""
        lobby = getattr(getattr(self.app, "lobby_screen", None), "lobby", None) or {}
        for info in lobby.get("tables") or []:
            if isinstance(info, dict) and info.get("id") == self.table:
                return info
        return {}

    def waited_on(self) -> bool:
        """Whether the game waits for anyone now (else it moves on by itself: a timer, the
        host)."""
        return any(isinstance(s, int) for s in self.view.get("active") or [])

    def waiting_prompt(self) -> str:
        """The prompt while you have nothing to do: whom the game waits for, or that it moves
        on by itself (never "waiting for nobody")."""
        if not self.waited_on():
            return _("The game moves on…")
        return _("Waiting for {who}…").format(who=self.waiting_text())

    def waiting_text(self) -> str:
        return self.words().waiting_text()

    def player_name(self, seat: int | None, you: bool = True) -> str:
        """The name at ``seat``; ``you`` for your own seat when ``you`` is set."""
        return seat_name(self.view, seat, you)

    def away(self) -> bool:
        """Whether the host counts you absent while you are here (you kept the table waiting
        too long, or the host said so): the game plays your moves until ``b``."""
        return self.words().away()

    def away_text(self) -> str:
        """The prompt while :meth:`away` ("" otherwise)."""
        return (_("You were away too long, so the game plays for you — b: I'm back")
                if self.away() else "")

    def action_back(self) -> None:
        """``b`` while away: take your seat back (a ``sit`` at your own seat)."""
        if not self.away():
            return
        self.run_worker(self.app.send({"type": "sit", "table": self.table,
                                       "seat": self.view.get("seat")}), group="send")

    def prompt_text(self) -> str:
        """One line saying what you can do now (or whom we wait for)."""
        if self.watching and not self.view.get("outcome"):
            if not self.waited_on():
                return _("Watching — the game moves on… (l lobby)")
            return _("Watching — waiting for {who}… (l lobby)").format(who=self.waiting_text())
        if self.view.get("outcome"):
            return _("The game is over — r results · l lobby")
        if not self.legal:
            return self.waiting_prompt()
        said = self.words()
        kinds = said.kinds()
        keys = self.type_keys()
        words = distinct([keys[k] for k in kinds if k in keys])
        others = [said.label_value("type", k) for k in kinds if k not in keys]
        if others:
            words.append("a: " + ", ".join(others))
        expiry = self.expiry_text()
        tail = _(" — on timeout: {what}").format(what=expiry) if expiry else ""
        return self.move_heading() + " · ".join(words) + tail

    def expiry_text(self) -> str:
        """What the running deadline's expiry does, in words ("" if nothing is timed)."""
        return self.words().expiry_text()

    def type_keys(self) -> dict[str, str]:
        """Action type → how to do it here (a key and a word). Games refine it by phase."""
        return {"pass": _("p: pass"), "done": _("p: done")}

    def move_heading(self) -> str:
        """``Your move: `` — games say more (e.g. that this is a reaction out of turn)."""
        return self.words().move_heading()

    # -- naming ---------------------------------------------------------------------------
    def label_value(self, field: str, value: Any) -> str:
        """How ``value`` of action field ``field`` reads to a player."""
        return self.words().label_value(field, value)

    def describe(self, action: Action) -> str:
        """A whole action in words, for menus."""
        return self.words().describe(action)

    def describe_fixed(self, candidates: list[Action], before: str) -> str:
        """What is already settled among ``candidates`` (fields before ``before``), in words."""
        return self.words().describe_fixed(candidates, before)

    # -- choosing and sending -------------------------------------------------------------
    def matching(self, select: Select, fixed: dict[str, Any]) -> list[Action]:
        """The legal actions now that ``select`` accepts and that carry every ``fixed`` value."""
        return matching(self.legal, select, fixed)

    def next_question(self, candidates: list[Action], fixed: dict[str, Any]) -> str | None:
        """The field to ask about next (:func:`client.choosing.next_question`, with this game's
        fields that are always confirmed)."""
        return next_question(candidates, fixed, self.WORDS.CONFIRM_FIELDS)

    @staticmethod
    def selector(candidates: list[Action]) -> Select:
        """Accepts the actions among ``candidates`` (by value)."""
        return selector(candidates)

    async def ask(self, title: str, source: Callable[[], Choices]) -> tuple[Any, bool]:
        """A live list over the table; (the value picked or None, whether it vanished)."""
        picker = Picker(title, source(), side=True, source=source, clock=self.clock_text)
        self.live_picker = picker
        try:
            picked = await answer(self.app, picker)
        finally:  # a flow cancelled (a new one began) takes its list away with it
            if self.live_picker is picker:
                self.live_picker = None
            picker.close(None)
        return picked, picker.gone

    @work(exclusive=True, group="pick")
    async def choose_and_send(self, candidates: list[Action] | Select,
                              first_title: str = "") -> None:
        """Narrow the legal actions ``candidates`` (or those a predicate accepts) down by
        pickers, then confirm (:meth:`confirm_text`) and send the one left. Every list follows
        the table: it shows only what is still possible."""
        select = self.selector(candidates) if isinstance(candidates, list) else candidates
        fixed: dict[str, Any] = {}
        while True:
            now = self.matching(select, fixed)
            if not now:
                self.too_late()
                return
            key = self.next_question(now, fixed)
            if key is None:
                break
            question = first_title or field_title(key)
            first_title = ""
            chosen = self.describe_fixed(now, key)
            title = f"{chosen}\n{question}" if chosen else question

            picked, gone = await self.ask(title, self._choices_of(select, dict(fixed), key))
            if gone:
                self.too_late()
            if picked is None:
                return
            fixed[key] = picked
        confirm = self.confirm_text(now[0])
        if confirm:
            action = now[0]
            ok, gone = await self.ask(confirm, lambda: [(self.confirm_label(action), True)]
                                      if action in self.legal else [])
            if gone:
                self.too_late()
            if not ok:
                return
            now = [action]
        await self.send_action(now[0])

    def _choices_of(self, select: Select, fixed: dict[str, Any], key: str
                    ) -> Callable[[], Choices]:
        """The live entries for the question ``key``: its values among the actions still
        possible."""
        def source() -> Choices:
            found = self.matching(select, fixed)
            return [(self.choice_label(key, v, found), v) for v in values(found, key)]
        return source

    def choice_label(self, key: str, value: Any, candidates: list[Action]) -> str:
        """How a value reads in a list (games add what it would do)."""
        return self.words().choice_label(key, value, candidates)

    def confirm_text(self, action: Action) -> str:
        """What the final confirmation shows before ``action`` is sent ("" = send at once)."""
        return self.words().confirm_text(action)

    def confirm_label(self, action: Action) -> str:
        """The one entry of the confirmation."""
        return _("▶ do it")

    async def send_action(self, action: Action) -> None:
        """Send ``action`` for this table at the view's state id."""
        await self.app.send({"type": "act", "table": self.table,
                             "state_id": self.view.get("state_id", 0), "action": action})

    def actions_of_type(self, *types: str) -> list[Action]:
        return [a for a in self.legal if a.get("type") in types]

    def action_all_actions(self) -> None:
        if not self.legal:
            self.notify(_("Nothing to do now."), severity="warning")
            return
        self._pick_then_send()

    @work(exclusive=True, group="pick")
    async def _pick_then_send(self) -> None:
        """Every legal action as a list that follows the table; the pick is confirmed where
        the game previews it."""
        picked, gone = await self.ask(_("Every action you can take"),
                                      lambda: [(self.describe(a), a) for a in self.legal])
        if gone:
            self.too_late()
        if picked is not None:
            self.choose_and_send([picked])

    def action_pass_turn(self) -> None:
        if not self.answering():
            return
        passes = self.actions_of_type("pass", "done")
        if not passes:
            self.notify(_("You cannot pass now."), severity="warning")
            return
        self.choose_and_send(passes)

    # -- chat and leaving -----------------------------------------------------------------
    def action_chat(self) -> None:
        self.query_one(ChatInput).open()

    def chat_channel(self) -> str:
        """Where the chat box talks: the whole table (a game may offer a private channel)."""
        return "table"

    @on(ChatInput.Said)
    async def _send_chat(self, event: ChatInput.Said) -> None:
        self.focus_default()
        if event.text:
            await self.app.send({"type": "chat", "text": event.text,
                                 "channel": self.chat_channel()})

    @on(ChatInput.Closed)
    def _chat_closed(self) -> None:
        self.focus_default()

    def focus_default(self) -> None:
        """Give the keyboard back to the game area."""
        self.focus_next()

    # The app keeps this screen after ``l`` pops it (Ctrl+Q asks while your game runs), but its
    # widgets are gone then: news of the table is drawn only while it is shown.
    def add_chat(self, sender: str, text: str, channel: str, number: int | None = None) -> None:
        if self.shown:
            self.query_one(GameLog).add_chat(sender, text, channel, number)

    def action_scroll_log(self, step: int) -> None:
        """Page the log back (-1) or on (1)."""
        log = self.query_one(GameLog)
        (log.scroll_page_up if step < 0 else log.scroll_page_down)(animate=False)

    def add_note(self, text: str) -> None:
        if self.shown:
            self.query_one(GameLog).add_note(text)

    def set_link(self, note: str) -> None:
        """Show (or clear, with "") the connection state at the head of the status line."""
        self.link_note = note
        self._redraw_status()

    def connection_lost(self, reason: str) -> None:
        """The host is gone: say so where the prompt was; nothing can be sent any more."""
        self.legal = []
        if not self.shown:
            return
        self.add_note(reason)
        prompt = self.query_one("#prompt", Static)
        prompt.update(_("Disconnected: {reason} — l lobby, r there reconnects").format(
            reason=reason))
        prompt.set_class(False, "your-move")

    def action_lobby(self) -> None:
        self.app.pop_screen()

    def action_results(self) -> None:
        if self.view.get("outcome"):
            self.app.show_results(self.table, self.view, asked=True)
