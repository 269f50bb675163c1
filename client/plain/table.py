"""One table in the plain mode: every change of its view said in sentences, and the table's
commands (a number or ``play N``, ``pass``, ``hand``, ``table``, ``log 10``, ``chat …``).

What is said when a view arrives, in this order: the log's new lines; the phase when it
changed; whom the game waits for (when it is not you); the timer of a new deadline (and, while
you are asked, a warning at 10 seconds); what you are asked, with your choices as numbered
lines; the tutorial's hint; the results when the game is over. A choice that needs more (a
card's accuser and target, a cat to look at) is asked in numbered lines too; ``0`` or
``back`` goes back. When the question changes under a half-made choice, that choice is
dropped and the new question said. Nothing here decides a rule: every choice is one of the
legal actions the host sent.
"""

from __future__ import annotations

import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from client.choosing import field_title, matching, next_question, selector, values
from client.plain.console import sentence
from client.plain.describe import Describer, Entry, describer_for
from client.plain.front_api import Front
from client.plain.results import results_lines
from client.words.fang import FangWords
from client.words.party import bots_text, emote_asked, emote_choices, emote_words
from client.words.results import you_mark
from client.words.table import Action, TableWords
from hexnet.i18n import _, ngettext

WARN_AT = 10  # seconds left when an asked seat is warned
WATCH_SECONDS = 1.5  # a frog's or banished cat's OK goes by itself after this long
MAX_KEPT = 400  # log lines kept for ``log N``


@dataclass
class Pick:
    """A choice being made: the entry picked, the fields settled so far, and the numbered
    options of the question asked now (``stage``: field, list or confirm)."""

    entry: Entry
    fixed: dict[str, Any] = field(default_factory=dict)
    stage: str = ""
    key: str | None = None
    options: list[tuple[str, Any]] = field(default_factory=list)
    listed: bool = False  # an action was picked from the list


class TableDesk:
    """A table (yours, or one you watch) as lines."""

    def __init__(self, front: Front, table: int, watching: bool = False) -> None:
        self.front = front
        self.table = table
        self.watching = watching
        self.view: dict[str, Any] = {}
        self.legal: list[Action] = []
        self.describer: Describer = Describer()
        self.seen = -1
        self.kept: list[dict[str, Any] | str] = []  # log events (data) and chat lines (text)
        self.status_said = ""
        self.waiting_said = ""
        self.question: tuple[Any, ...] | None = None
        self.menu: list[Entry] = []
        self.pick: Pick | None = None
        self.deadline: tuple[Any, float, float] | None = None  # key, seconds, since
        self.warned: Any = None
        self.role_shown = False
        self.chosen: set[int] = set()
        self.results_said = False
        self.fair_said = False
        self.hint = ""
        self.auto_sent: Any = None
        self.presence_since = 0.0
        self.away_said = False
        self.sitting_out_said = False
        self.bots: Any = None  # the host's bots held or slowed (view part ``bots``)
        self.held: float | None = None  # seconds left of the deadline while the clock is held

    def say(self, *lines: str) -> None:
        self.front.say(*lines)

    # -- words ----------------------------------------------------------------------------
    @property
    def game(self) -> str:
        return str(self.view.get("game", ""))

    def words(self) -> TableWords:
        return self.describer.words(self.view, self.legal, watching=self.watching,
                                    role_shown=self.role_shown)

    def title(self) -> str:
        """``Hexenhammer, table 1`` (watching: said so)."""
        from hexnet.games import get_game

        try:
            name = get_game(self.game).title
        except (KeyError, ModuleNotFoundError):
            name = self.game
        if self.watching:
            return _("{game}, table {table}, watching").format(game=name, table=self.table)
        return _("{game}, table {table}").format(game=name, table=self.table)

    # -- a new view -----------------------------------------------------------------------
    def update(self, view: dict[str, Any], legal: list[Action]) -> None:
        """Say what changed with ``view`` (and the seat's ``legal`` actions)."""
        first = not self.view
        if first:
            self.describer = describer_for(str(view.get("game", "")))
        if str(view.get("game")) == "fang":
            view = {**view, "log": FangWords.shown_log(view)}
            if view.get("scene") != "proposal" or not any(
                    a.get("type") == "propose" for a in legal):
                self.chosen = set()
        if list(view.get("presence") or []) != list(self.view.get("presence") or []):
            self.presence_since = time.monotonic()
        self.view, self.legal = view, ([] if self.watching else list(legal))
        w = self.words()
        if first:
            self.say(sentence(self.title()))
            if not self.watching and isinstance(view.get("seat"), int):
                self.say(_("You sit at seat {seat}. Type hand for your cards, table for the "
                           "whole table, help for every command.").format(
                    seat=int(view["seat"]) + 1))
        self._new_events(w)
        status = "" if view.get("outcome") else self.describer.status(w)
        if status and status != self.status_said:
            self.status_said = status
            self.say(sentence(status))
        self._deadline(w)
        self._bots(view.get("bots"))
        self._away(w)
        self._question(w)
        self._hint(w)
        self._auto_confirm(w)
        if view.get("outcome") and not self.results_said:
            self.results_said = True
            self.pick = None
            self.say(*results_lines(view, self.table))
            self.say(_("Type lobby to go back to the lobby, replay to read the game again, or "
                       "quit."))
            if not self.watching and isinstance(view.get("seat"), int):
                self.say(_("Type rematch to play this table again, the seats shuffled."))

    def _new_events(self, w: TableWords) -> None:
        for event in w.view.get("log") or []:
            n = event.get("n", -1)
            if isinstance(n, int) and n <= self.seen:
                continue
            self.seen = max(self.seen, n if isinstance(n, int) else self.seen)
            self.keep(event)
            self.say(w.event_text(event))

    def keep(self, line: dict[str, Any] | str) -> None:
        self.kept.append(line)
        del self.kept[:max(0, len(self.kept) - MAX_KEPT)]

    def _deadline(self, w: TableWords) -> None:
        """Follow the view's deadline (it is said with the question it times)."""
        from client.widgets.countdown import seconds_of

        deadline = w.view.get("deadline")
        seconds = seconds_of(deadline.get("seconds")) if isinstance(deadline, dict) else None
        if seconds is None:
            self.deadline = None
        elif self.deadline is None or self.deadline[0] != deadline.get("key"):
            self.deadline = (deadline.get("key"), seconds, time.monotonic())
            if self.held is not None:  # a new deadline while the clock is held waits whole
                self.held = seconds

    def _bots(self, bots: Any) -> None:
        """The host's bots held or let go (host/pause.py): said, and the clock held with them."""
        from client.widgets.countdown import RESUME_LEAST

        was, self.bots = self.bots, bots
        paused = isinstance(bots, dict) and bool(bots.get("paused"))
        if paused and self.held is None:
            self.held = float(self.left() or 0)
        elif not paused and self.held is not None:
            if self.deadline is not None:
                self.deadline = (self.deadline[0], max(self.held, RESUME_LEAST),
                                 time.monotonic())
            self.held = None
        if bots_text(bots) != bots_text(was):
            self.say(sentence(bots_text(bots)) if bots_text(bots)
                     else _("The bots play on at the host's pace; the clock runs again."))

    def timer_line(self, w: TableWords) -> str:
        """``Timer: 20 seconds. When it runs out: …`` ("" when nothing is timed)."""
        left = self.left()
        if left is None:
            return ""
        line = ngettext("Timer: {n} second.", "Timer: {n} seconds.", left).format(n=left)
        expiry = w.expiry_text()
        if expiry:
            line += " " + _("When it runs out: {what}.").format(what=expiry.rstrip("."))
        return line

    def left(self) -> int | None:
        """Whole seconds left of the running deadline (None when nothing is timed)."""
        if self.deadline is None:
            return None
        if self.held is not None:
            return math.ceil(self.held)
        _key, seconds, since = self.deadline
        return max(0, math.ceil(seconds - (time.monotonic() - since)))

    def tick(self) -> None:
        """Twice a second: warn an asked seat when 10 seconds are left."""
        left = self.left()
        if (left is None or not self.legal or self.deadline is None
                or self.deadline[1] <= WARN_AT or self.warned == self.deadline[0]):
            return
        if left <= WARN_AT:
            self.warned = self.deadline[0]
            self.say(ngettext("{n} second left to answer.", "{n} seconds left to answer.",
                              left).format(n=left))

    def _away(self, w: TableWords) -> None:
        away = w.away()
        if away and not self.away_said:
            self.say(_("You were away too long, so the game plays for you. Type back to take "
                       "your seat again."))
        self.away_said = away

    def _question(self, w: TableWords) -> None:
        question = ((w.view.get("deadline") or {}).get("key"), repr(self.legal))
        if question != self.question:
            self.question = question
            if self.pick is not None:
                self.pick = None
                self.say(_("That question is closed: the game moved on."))
            if self.legal:
                self.waiting_said = ""
                self.present(w)
            else:
                self.menu = []
        if self.legal or w.view.get("outcome"):
            return
        waiting = w.waiting_text() if w.active() else ""
        if waiting != self.waiting_said:
            self.waiting_said = waiting
            if waiting:
                self.say(_("Waiting for {who}.").format(who=waiting))

    def present(self, w: TableWords | None = None) -> None:
        """Say what you are asked and your choices, numbered."""
        w = w or self.words()
        if not self.legal:
            self.say(_("Nothing to choose now."))
            return
        self.menu = self.describer.entries(w, self.chosen)
        heading = self.describer.heading(w, self.chosen)
        if heading:
            self.say(sentence(heading))
        self.say(self.timer_line(w))
        self.say(*[f"{i}. {entry.label}" for i, entry in enumerate(self.menu, 1)])
        if len(self.menu) == 1 and self.menu[0].kind == "send" and len(
                self.menu[0].actions) > 1:
            self.start_pick(self.menu[0])

    def _hint(self, w: TableWords) -> None:
        game = getattr(self.front, "tutorial", None)
        if not game or self.watching:
            return
        from hexnet.tutorial import hint_text

        hint = hint_text(game, w.view, self.legal)
        if hint and hint != self.hint:
            self.say(_("Hint: {hint}").format(hint=hint))
        self.hint = hint

    def _auto_confirm(self, w: TableWords) -> None:
        action = getattr(self.describer, "auto_confirm", lambda _w: None)(w)
        if action is None:
            return
        state = w.view.get("state_id")
        if self.auto_sent == state:
            return
        self.auto_sent = state
        if not self.sitting_out_said:
            self.sitting_out_said = True
            self.say(_("You only watch now: each step goes on by itself after a moment; type "
                       "pass to go on at once."))
        self.front.later(WATCH_SECONDS, lambda: self._confirm_if(state))

    async def _confirm_if(self, state: Any) -> None:
        if self.view.get("state_id") == state:
            found = [a for a in self.legal if a.get("type") == "confirm"]
            if found:
                await self.send(found[0], quiet=True)

    # -- choosing -------------------------------------------------------------------------
    def start_pick(self, entry: Entry) -> None:
        self.pick = Pick(entry)
        self.front.spawn(self.advance())

    async def choose(self, number: int) -> None:
        """The player typed ``number``: an option of the question asked, else an entry of
        the menu."""
        pick = self.pick
        if pick is not None:
            if number == 0:
                await self.back()
                return
            if not 1 <= number <= len(pick.options):
                self.say(_("There is no choice {n}; type a number from 1 to {last}, or 0 to go "
                           "back.").format(n=number, last=len(pick.options)))
                return
            value = pick.options[number - 1][1]
            if pick.stage == "confirm":
                pick.listed = True
                pick.stage = "confirmed"
            elif pick.stage == "list":
                pick.entry = Entry(pick.entry.label, [value])
                pick.listed = True
            elif pick.key is not None:
                pick.fixed[pick.key] = value
            await self.advance()
            return
        if not self.legal:
            self.say(_("Nothing to choose now."))
            return
        if not 1 <= number <= len(self.menu):
            self.say(_("There is no choice {n}; type a number from 1 to {last}.").format(
                n=number, last=len(self.menu)))
            return
        entry = self.menu[number - 1]
        if entry.kind == "toggle" and entry.seat is not None:
            self.chosen ^= {entry.seat}
            self.present()
        elif entry.kind == "propose":
            await self.propose()
        else:
            self.pick = Pick(entry)
            await self.advance()

    async def propose(self) -> None:
        from client.widgets.fang_choices import proposal_action

        action = proposal_action(self.legal, self.chosen)
        if action is None:
            size = int(self.view.get("proposal_size") or 0)
            self.say(ngettext("Choose exactly {n} cat first.", "Choose exactly {n} cats first.",
                              size).format(n=size))
            return
        await self.send(action)

    async def advance(self) -> None:
        """Ask the pick's next question, confirm it, or send it."""
        pick = self.pick
        if pick is None:
            return
        w = self.words()
        now = matching(self.legal, selector(pick.entry.actions), pick.fixed)
        if not now:
            self.pick = None
            self.say(_("Too late: that question is closed (the countdown ran out or the game "
                       "moved on)."))
            return
        if self.describer.BY_FIELD:
            key = next_question(now, pick.fixed, w.CONFIRM_FIELDS)
            if key is not None:
                pick.stage, pick.key = "field", key
                pick.options = [(w.choice_label(key, v, now), v) for v in values(now, key)]
                context = w.describe_fixed(now, key)
                title = field_title(key)
                self.say(f"{context}: {title}" if context else title)
                self.say_options(pick.options)
                return
        elif not pick.listed and (len(now) > 1 or self.describer.AIMED & set(now[0])):
            pick.stage, pick.key = "list", None
            pick.options = [(self.describer.option_label(w, a), a) for a in now]
            self.say(pick.entry.label + ":")
            self.say_options(pick.options)
            return
        action = now[0]
        confirm = w.confirm_text(action)
        if confirm and pick.stage != "confirmed":
            pick.stage, pick.key = "confirm", None
            pick.options = [(_("Do it."), True)]
            self.say(*confirm.split("\n"))
            self.say_options(pick.options)
            return
        await self.send(action)

    def say_options(self, options: list[tuple[str, Any]]) -> None:
        self.say(*[f"{i}. {label}" for i, (label, _value) in enumerate(options, 1)])
        self.say("0. " + _("Back."))

    async def back(self) -> None:
        """One question back; from the first, back to the menu."""
        pick = self.pick
        if pick is None:
            return
        if pick.stage == "field" and pick.fixed:
            pick.fixed.popitem()
            await self.advance()
            return
        self.pick = None
        self.present()

    async def send(self, action: Action, quiet: bool = False) -> None:
        """Send ``action`` at the view's state id (and say what was sent). What is asked next
        is said again even when it is the same question (a second action of a turn)."""
        self.pick = None
        self.question = None
        if not quiet:
            self.say(_("Sent: {what}.").format(what=self.describer.option_label(
                self.words(), action).rstrip(".")))
        await self.front.send({"type": "act", "table": self.table,
                               "state_id": self.view.get("state_id", 0), "action": action})

    # -- commands -------------------------------------------------------------------------
    async def command(self, verb: str, rest: str) -> bool:
        """Carry out a table command; False if ``verb`` is not one."""
        handlers: dict[str, Callable[[str], Awaitable[None]]] = {
            "pass": self.do_pass, "ok": self.do_pass, "ready": self.do_pass,
            "done": self.do_pass, "yes": self.do_yes, "y": self.do_yes, "no": self.do_no,
            "n": self.do_no, "back": self.do_back, "cancel": self.do_back,
            "menu": self.do_menu, "choices": self.do_menu, "hand": self.do_hand,
            "cards": self.do_hand, "role": self.do_role, "table": self.do_table,
            "board": self.do_table, "status": self.do_status, "log": self.do_log,
            "who": self.do_who, "time": self.do_time, "chat": self.do_chat,
            "say": self.do_chat, "whisper": self.do_whisper, "results": self.do_results,
            "emote": self.do_emote, "react": self.do_emote, "rematch": self.do_rematch,
            "bots": self.do_bots,
        }
        handler = handlers.get(verb)
        if handler is None:
            return False
        await handler(rest)
        return True

    async def do_pass(self, rest: str) -> None:
        found = self.describer.passes(self.words())
        if not found:
            self.say(_("You cannot pass now."))
            return
        await self.send(found[0])

    async def _vote(self, yes: bool) -> None:
        votes = getattr(self.describer, "votes", None)
        found = votes(self.words(), yes) if votes else []
        if not found:
            self.say(_("There is no yes or no to give now."))
            return
        await self.send(found[0])

    async def do_yes(self, rest: str) -> None:
        await self._vote(True)

    async def do_no(self, rest: str) -> None:
        await self._vote(False)

    async def do_back(self, rest: str) -> None:
        if self.pick is not None:
            await self.back()
        elif self.words().away():
            await self.front.send({"type": "sit", "table": self.table,
                                   "seat": self.view.get("seat")})
        else:
            self.say(_("Nothing to go back from."))

    async def do_menu(self, rest: str) -> None:
        if self.watching:
            self.say(_("You are watching: there is nothing to choose."))
        elif self.pick is not None:
            self.say_options(self.pick.options)
        else:
            self.present()

    async def do_hand(self, rest: str) -> None:
        if self.watching:
            self.say(_("You are watching: you have no hand."))
            return
        self.say(*self.describer.hand_lines(self.words()))

    async def do_role(self, rest: str) -> None:
        if self.game != "fang" or self.watching:
            self.say(_("This game has no role card."))
            return
        self.role_shown = not self.role_shown
        if self.role_shown:
            self.say(_("Your role card is face up:"))
            self.say(*self.describer.hand_lines(self.words()))
        else:
            self.say(_("Your role card is face down again."))

    async def do_table(self, rest: str) -> None:
        self.say(sentence(self.title()), *self.describer.table_lines(self.words()))

    async def do_status(self, rest: str) -> None:
        w = self.words()
        lines = [sentence(self.title()), sentence(self.describer.status(w))]
        if self.legal:
            lines.append(sentence(self.describer.heading(w, self.chosen)))
        elif not w.view.get("outcome"):
            lines.append(_("Waiting for {who}.").format(who=w.waiting_text()))
        self.say(*lines)
        await self.do_time("")

    async def do_log(self, rest: str) -> None:
        count = int(rest) if rest.strip().isdigit() else 10
        w = self.words()
        lines = [line if isinstance(line, str) else w.event_text(line)
                 for line in self.kept[-max(1, min(count, MAX_KEPT)):]]
        self.say(*(lines or [_("Nothing has happened yet.")]))

    async def do_who(self, rest: str) -> None:
        w = self.words()
        players = ", ".join(f"{i + 1} {w.player_name(i, you=False)}{you_mark(w.view, i)}"
                            for i in range(len(w.view.get("players") or [])))
        self.say(_("At the table: {players}.").format(players=players))
        self.say(*(self.describer.presence_lines(w, self.presence_since)
                   or [_("Everyone is here.")]))
        watchers = self.front.watchers.get(self.table)
        if watchers:
            self.say(_("Watching: {names}.").format(names=", ".join(watchers)))

    async def do_time(self, rest: str) -> None:
        self.say(self.timer_line(self.words()) or _("Nothing is timed now."))

    async def do_chat(self, rest: str) -> None:
        if self.watching:
            self.say(_("Watchers do not chat at the table."))
            return
        await self.front.chat(rest, "table")

    async def do_whisper(self, rest: str) -> None:
        allowed = getattr(self.describer, "whisper_allowed", lambda _v: False)
        if not allowed(self.view):
            self.say(_("Only the witches whisper."))
            return
        await self.front.chat(rest, "witches")

    async def do_results(self, rest: str) -> None:
        if not self.view.get("outcome"):
            self.say(_("The game is not over yet."))
            return
        self.say(*results_lines(self.view, self.table))
        line = self.front.fair_play_text(self.table)
        if line:
            self.say(line)

    # -- the party: emotes, a rematch, the bots held or slowed ------------------------------
    async def do_emote(self, rest: str) -> None:
        """``emote thumbs`` (or ``react 👍``, or its words): everyone at the table hears it."""
        if self.watching or not isinstance(self.view.get("seat"), int):
            self.say(_("Only the players at a table react there."))
            return
        key = emote_asked(rest)
        if key is None:
            self.say(_("Type emote and one of: {emotes}.").format(
                emotes=", ".join(label for label, _key in emote_choices())))
            return
        if self.front.secret_step_open(self.table):
            self.say(_("Not now: a secret step is open, and the moment of an emote could tell "
                       "who is awake."))
            return
        await self.front.send({"type": "emote", "table": self.table, "emote": key})

    def emote_said(self, seat: int, key: str) -> None:
        """Someone at this table reacted: said in words."""
        w = self.words()
        line = _("{name} reacts: {emote}.").format(name=w.player_name(seat, you=False),
                                                   emote=emote_words(key))
        self.keep(line)
        self.say(line)

    async def do_rematch(self, rest: str) -> None:
        """``rematch`` (yes: play this table again), ``rematch no``, ``rematch bots`` (the
        owner: bots for the seats still silent)."""
        if not self.view.get("outcome") or self.watching:
            self.say(_("A rematch is offered after the game, by its players."))
            return
        word = rest.strip().lower() or "yes"
        answer = {"yes": "yes", "y": "yes", "no": "no", "n": "no", "bots": "bots"}.get(word)
        if answer is None:
            self.say(_("Type rematch, rematch no or rematch bots."))
            return
        await self.front.send({"type": "rematch", "table": self.table, "answer": answer})

    async def do_bots(self, rest: str) -> None:
        """``bots pause``, ``bots go``, ``bots slow 2`` (seconds a move), ``bots pace`` (the
        host's): the table's owner holds or slows the host's bots."""
        words = rest.split()
        word = words[0].lower() if words else ""
        bots = self.bots if isinstance(self.bots, dict) else {}
        paused, delay = bool(bots.get("paused")), bots.get("delay")
        if word in ("pause", "stop", "hold"):
            paused = True
        elif word in ("go", "resume", "play", "on"):
            paused = False
        elif word == "pace":
            delay = None
        elif word == "slow" and len(words) > 1 and words[1].replace(".", "", 1).isdigit():
            delay = float(words[1])
        else:
            self.say(sentence(bots_text(bots)) if bots_text(bots) else _(
                "The bots play at the host's pace."))
            self.say(_("Type bots pause, bots go, bots slow and seconds a move (bots slow 2), "
                       "or bots pace (the host's). Only the table's creator may."))
            return
        await self.front.send({"type": "bots", "table": self.table, "paused": paused,
                               "delay": delay})

    # -- news from outside the view -------------------------------------------------------
    def chat_line(self, line: str) -> None:
        """A chat line at this table (already said by the front)."""
        self.keep(line)
