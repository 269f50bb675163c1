"""The plain mode's client: the same network session as the full screen
(:class:`client.session.Session`, connected through :mod:`client.connecting`), with lines in
and out instead of a screen.

One loop takes, in the order they come, the host's messages, the lines the player types and a
tick twice a second (the timer's warning), so nothing is said twice or out of turn. The lobby
(:mod:`.lobby`) and each table (:mod:`.table`) say their news and answer their commands; what
is left (help, chat, the language, quitting) is answered here.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from client.autoseat import AutoSeat, next_message
from client.connecting import Looking, Refused, connect, send_intent
from client.plain.console import Console
from client.plain.lobby import LobbyDesk
from client.plain.table import TableDesk
from client.refusals import TOO_LATE_CODES, code_text, rejection_text
from client.session import SessionError
from hexnet import i18n
from hexnet.i18n import _

TICK = 0.5  # seconds between ticks (the timer's warning)


@dataclass
class Question:
    """A question asked as numbered lines; ``then`` gets the value picked."""

    title: str
    options: list[tuple[str, Any]]
    then: Callable[[Any], None]


class PlainClient:
    """One player's client in lines. ``target`` (host, port) skips the search of the LAN."""

    def __init__(self, *, target: tuple[str, int] | None, name: str = "", code: str | None = None,
                 config_dir: str | None = None, fingerprint: str | None = None,
                 accept_new: bool = False, auto_seat: AutoSeat | None = None,
                 greeting: str = "", lang: str | None = None, tutorial: str | None = None,
                 auto_watch: int | None = None, interfaces: list[str] | None = None,
                 console: Console | None = None) -> None:
        i18n.set_language(lang or i18n.from_environment())
        self.target = target
        self.name = name
        self.code = code
        self.config_dir = config_dir
        self.pinned = fingerprint
        self.accept_new = accept_new
        self.auto_seat = auto_seat
        self.greeting = greeting
        self.tutorial = tutorial
        self.auto_watch = auto_watch
        self.interfaces = interfaces
        self.connect_options: dict[str, Any] = {}
        self.console = console or Console()
        self.inbox: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        self.session: Any = None
        self.games: list[str] = []
        self.lobby = LobbyDesk(self)
        self.desks: dict[int, TableDesk] = {}
        self.current: TableDesk | None = None  # the table your commands go to
        self.watchers: dict[int, list[str]] = {}
        self.question: Question | None = None
        self.tournament: dict[str, Any] | None = None
        self.looking = Looking()
        self.quitting = False
        self.done = False
        self._tasks: set[asyncio.Task[Any]] = set()

    # -- lines ----------------------------------------------------------------------------
    def say(self, *lines: str) -> None:
        self.console.say(*lines)

    def _typed(self, line: str | None) -> None:
        self.inbox.put_nowait(("line", line))

    async def ask(self, prompt: str) -> str | None:
        """Say ``prompt`` and wait for the next typed line (None at the end of input). Only
        before the session runs: afterwards the loop reads the lines."""
        self.say(prompt)
        while True:
            kind, item = await self.inbox.get()
            if kind == "line":
                return item

    def ask_choice(self, title: str, options: list[tuple[str, Any]],
                   then: Callable[[Any], None]) -> None:
        """Ask ``title`` with numbered ``options``; the next number typed answers it."""
        self.question = Question(title, options, then)
        self.say(title)
        self.say(*[f"{i}. {label}" for i, (label, _value) in enumerate(options, 1)])
        self.say("0. " + _("Back."))

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run ``coro`` beside the loop (kept until it ends)."""
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def later(self, seconds: float, make: Callable[[], Awaitable[Any]]) -> None:
        """Run ``make()`` after ``seconds``."""
        async def wait() -> None:
            await asyncio.sleep(seconds)
            await make()
        self.spawn(wait())

    # -- running --------------------------------------------------------------------------
    async def run(self) -> int:
        """Connect, then play until the player quits or the connection ends; 0, or 1 when the
        connection could not be made or was lost."""
        self.console.start(self._typed)
        try:
            return await self._run()
        finally:
            self.console.stop()
            for task in list(self._tasks):
                task.cancel()
            if self.session is not None:
                await self.session.aclose()

    async def _run(self) -> int:
        self.say(_("hexnet in plain lines. Type help at any time for every command."))
        if not self.name:
            name = await self.ask(_("Your name at the table:"))
            if not name:
                return 0
            self.name = name[:24]
        target = self.target or await self.discover()
        if target is None:
            return 0
        self.say(_("Connecting to {address}…").format(address=f"{target[0]}:{target[1]}"))
        try:
            self.session = await connect(
                target[0], target[1], name=self.name, code=self.code, ask_code=self.ask_code,
                confirm=self.confirm, pinned=self.pinned, accept_new=self.accept_new,
                config_dir=self.config_dir, **self.connect_options)
        except Refused as exc:
            self.say(_("Not connected: {why}").format(why=str(exc)))
            return 1
        from protocol.tls import human_fingerprint

        session = self.session
        self.games = list(session.games)
        self.say(_("{host} · key {key} · you are {name}").format(
            host=session.host_name, key=human_fingerprint(session.host_fingerprint),
            name=self.name))
        if self.greeting:
            self.say(self.greeting)
        self.spawn(self._pump())
        self.spawn(self._tick())
        while not self.done:
            kind, item = await self.inbox.get()
            if kind == "line":
                if item is None:
                    break
                await self.command(item)
            elif kind == "host":
                await self.host_message(item)
            elif kind == "tick":
                for desk in self.desks.values():
                    desk.tick()
            elif kind == "lost":
                self.say(_("Disconnected: {reason}").format(reason=item))
                return 1
        return 0

    async def _pump(self) -> None:
        try:
            async for msg in self.session.messages():
                self.inbox.put_nowait(("host", msg))
            self.inbox.put_nowait(("lost", _("the session ended.")))
        except SessionError as exc:
            self.inbox.put_nowait(("lost", str(exc)))

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(TICK)
            self.inbox.put_nowait(("tick", None))

    async def discover(self) -> tuple[str, int] | None:
        """Hosts found on the LAN as numbered lines; the one picked (or typed as an address)."""
        from client.discovery import browse
        from client.target import parse_target, short_fingerprint

        while True:
            self.say(_("Looking for hexnet hosts on the LAN…"))
            hosts = await browse(3.0, self.interfaces)
            for i, h in enumerate(hosts, 1):
                self.say(_("{n}. {name} at {address}, key {key}, games: {games}.").format(
                    n=i, name=h.name, address=f"{h.address}:{h.port}",
                    key=short_fingerprint(h.fingerprint), games=", ".join(h.games) or "-"))
            if not hosts:
                self.say(_("No host found."))
            line = await self.ask(_("Type a host's number, an address such as "
                                    "192.168.1.20:7878, again to look once more, or quit."))
            if line is None or line.lower() in ("quit", "exit"):
                return None
            if line.lower() == "again" or not line:
                continue
            if line.isdigit() and 1 <= int(line) <= len(hosts):
                chosen = hosts[int(line) - 1]
                return chosen.address, chosen.port
            try:
                return parse_target(line)
            except ValueError as exc:
                self.say(str(exc))

    async def ask_code(self, label: str, problem: str) -> str | None:
        if problem:
            self.say(problem)
        line = await self.ask(_("The host at {host} needs its room code. Type the code its "
                                "screen shows (or quit):").format(host=label))
        return None if not line or line.lower() in ("quit", "exit") else line

    async def confirm(self, host_label: str, fingerprint: str) -> bool:
        self.say(_("First contact with {host}. Its key is {key}.").format(
            host=host_label, key=fingerprint))
        line = await self.ask(_("Compare it with the key on the host's screen. Type yes if "
                                "they match; anything else refuses."))
        return (line or "").strip().lower() in ("yes", "y", _("yes").lower())

    # -- what the host says ---------------------------------------------------------------
    async def host_message(self, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind == "connection":
            if msg.get("state") == "connected":
                self.say(_("Connected again."))
            else:
                self.say(_("⟳ reconnecting (attempt {n})…").format(n=msg.get("attempt", 0)))
        elif kind == "lobby":
            await self.lobby_changed(msg)
        elif kind == "view":
            self.desk(msg["table"]).update(msg["view"], list(msg.get("legal") or []))
        elif kind == "watch_view":
            self.desk(msg["table"], watching=True).update(msg["view"], [])
        elif kind == "watchers":
            self.watchers[msg["table"]] = list(msg["names"])
        elif kind == "unwatched":
            self.say(_("Watching ended: {why}").format(
                why=code_text(msg["code"], msg["message"])))
            desk = self.desks.pop(msg["table"], None)
            if desk is self.current:
                self.current = None
        elif kind == "rejected":
            reason = msg.get("reason")
            view = self.desks[msg["table"]].view if msg["table"] in self.desks else {}
            text = rejection_text(view, msg["code"], msg["message"],
                                  {**reason["args"], "key": reason["key"]} if reason else None)
            late = msg["code"] in TOO_LATE_CODES
            self.say(text if late else _("Not accepted: {why}").format(why=text))
        elif kind == "chat":
            self.chat_said(msg)
        elif kind == "reveal":
            self.reveal(msg["table"])
        elif kind == "tournament":
            self.tournament = msg
            self.lobby.tournament(msg)
        elif kind == "emote":
            if msg["table"] in self.desks:
                self.desks[msg["table"]].emote_said(msg["seat"], msg["emote"])
        elif kind == "rematch":
            self.rematch(msg)
        elif kind == "error":
            self.say(_("Not possible: {why}").format(
                why=code_text(str(msg.get("code", "")), str(msg.get("message", "")))))

    async def lobby_changed(self, lobby: dict[str, Any]) -> None:
        self.lobby.update(lobby)
        if self.auto_seat is not None:
            step = next_message(self.auto_seat, lobby)
            if step is not None:
                await self.send(step)
        if self.auto_watch is not None:
            table, self.auto_watch = self.auto_watch, None
            await self.watch(table)

    def desk(self, table: int, watching: bool = False) -> TableDesk:
        """The desk of ``table`` (made at its first view), which commands now go to."""
        desk = self.desks.get(table)
        if desk is None or desk.watching != watching:
            desk = self.desks[table] = TableDesk(self, table, watching)
        self.current = desk
        return desk

    def chat_said(self, msg: dict[str, Any]) -> None:
        channel, sender, text = msg["channel"], msg["from"], msg["text"]
        if channel == "lobby":
            line = _("In the lobby, {name} says: {text}").format(name=sender, text=text)
        elif channel == "witches":
            line = _("{name} whispers to the witches: {text}").format(name=sender, text=text)
        else:
            line = _("{name} says: {text}").format(name=sender, text=text)
        self.say(line)
        desk = self.desks.get(msg["table"]) if "table" in msg else self.current
        if desk is not None and channel != "lobby":
            desk.chat_line(line)

    def rematch(self, offer: dict[str, Any]) -> None:
        """A rematch offered, answered, started or withdrawn: said, with what you may type."""
        from client.words.party import rematch_sentences

        desk = self.desks.get(offer["table"])
        you = desk.view.get("seat") if desk is not None else None
        self.say(*rematch_sentences(offer, you))
        mine = next((s.get("answer") for s in offer.get("seats") or []
                     if s.get("seat") == you), None)
        if offer.get("status") == "open" and mine == "waiting":
            self.say(_("Type rematch to play again, rematch no if not."))

    def secret_step_open(self, table: int) -> bool:
        """Whether a secret step is open at ``table`` (no emote then)."""
        return self.session is not None and self.session.secret_step_open(table)

    def reveal(self, table: int) -> None:
        line = self.fair_play_text(table)
        desk = self.desks.get(table)
        if line and table in self.session.fair_play and desk is not None and not desk.fair_said:
            desk.fair_said = True
            self.say(line)

    def fair_play_text(self, table: int) -> str | None:
        """The fair-play line of ``table`` (None if no commitment is known)."""
        from client.fairplay import fair_play_line, table_game

        session = self.session
        if session is None or table not in session.commitments:
            return None
        return fair_play_line(session.fair_play.get(table), session.commitments[table],
                              table_game(session, table))

    # -- what the player says -------------------------------------------------------------
    async def command(self, line: str) -> None:
        """Carry out one typed line."""
        text = line.strip()
        if not text:
            return
        verb, _sep, rest = text.partition(" ")
        verb = verb.lower()
        if verb != "quit":
            self.quitting = False
        if verb in ("play", "use", "choose", "pick") and rest.strip().isdigit():
            verb, rest = rest.strip(), ""
        if verb.isdigit():
            await self.number(int(verb))
            return
        if verb in ("help", "?"):
            self.help()
        elif verb in ("quit", "exit", "bye"):
            self.quit()
        elif verb in ("language", "lang"):
            self.language(rest)
        elif verb == "replay":
            self.replay(rest)
        elif verb == "fair":
            line2 = self.fair_play_text(self.current.table) if self.current else None
            self.say(line2 or _("No fair-play check for this table yet."))
        elif verb == "results" and rest.strip().lstrip("#").isdigit():
            desk = self.desk_named(rest)
            if desk is None or str(desk.table) != rest.strip().lstrip("#"):
                self.say(_("You have no results of table {table}.").format(table=rest.strip()))
            else:
                await desk.do_results("")
        elif verb == "table" and (self.current is None or not self.current.view):
            self.say(_("Your table has not started yet."))
        elif verb == "table":
            await self.look(False)
            await self.current.command(verb, rest)
        elif verb == "chat" and not self.playing():
            await self.chat(rest, "lobby")
        elif not await self.dispatch(verb, rest):
            self.say(_("Unknown command {word}. Type help for every command.").format(
                word=repr(verb)))

    async def dispatch(self, verb: str, rest: str) -> bool:
        """The table's commands first, then the lobby's; False if neither knows ``verb``."""
        if self.current is not None and await self.current.command(verb, rest):
            return True
        return await self.lobby.command(verb, rest)

    async def number(self, number: int) -> None:
        question = self.question
        if question is not None:
            if number == 0:
                self.question = None
                self.say(_("Cancelled."))
            elif 1 <= number <= len(question.options):
                self.question = None
                question.then(question.options[number - 1][1])
            else:
                self.say(_("There is no choice {n}; type a number from 1 to {last}, or 0 to go "
                           "back.").format(n=number, last=len(question.options)))
            return
        if self.current is None:
            self.say(_("Nothing to choose now. Type help for every command."))
            return
        await self.current.choose(number)

    def help(self) -> None:
        lines = [
            _("Commands (type them and press Enter):"),
            _("a number, or play and a number: choose that entry of the list said last; 0 or "
              "back: one step back."),
            _("pass: pass, end your turn, let a reaction go, say ready or OK. yes, no: vote on "
              "a proposal (Fang)."),
            _("hand: your cards (Fang: your role card and ingredients); role: turn the role "
              "card up or down (Fang)."),
            _("table: the whole table; status: the phase and whom the game waits for; menu: "
              "your choices again; time: the seconds left; who: who is here."),
            _("log and a number: the last lines of the game's log (log 10)."),
            _("chat and a text: say it to the table (in the lobby: to the lobby); whisper and "
              "a text: to the witches only (Fang)."),
            _("results, fair, replay: the results, the fair-play check, the whole game as "
              "lines (after the end)."),
            _("rematch: play the table again after the end (rematch no: not; rematch bots: the "
              "creator gives silent seats to bots); results 3, replay 3: an earlier table's. "
              "emote and a word (emote thumbs, emote laugh): a quick reaction everyone at the "
              "table hears. bots pause, bots go, bots slow 2: the table's creator holds or "
              "slows the host's bots."),
            _("Lobby: tables (and a page), new, sit and a number, bot, start, watch and a "
              "number, unwatch, leave, watching on or off, enter, standings."),
            _("language and a code (en, hu, de, cs): another language; quit: leave hexnet."),
        ]
        self.say(*lines)

    def playing(self) -> TableDesk | None:
        """The table whose game you play while it runs (None if none)."""
        return next((d for d in self.desks.values() if not d.watching and d.view
                     and not d.view.get("outcome")), None)

    def quit(self) -> None:
        running = self.playing()
        if running is not None and not self.quitting:
            self.quitting = True
            self.say(_("Your game at table {table} still runs; if you leave, the game plays "
                       "for you after a while. Type quit again to leave.").format(
                table=running.table))
            return
        self.say(_("Goodbye."))
        self.done = True

    def language(self, code: str) -> None:
        lang = code.strip().lower()
        if lang not in i18n.LANGS:
            self.say(_("Type language and one of: {codes}.").format(
                codes=", ".join(f"{c} ({i18n.LANGUAGE_NAMES[c]})" for c in i18n.LANGS)))
            return
        i18n.set_language(lang)
        self.say(_("Language: {name}").format(name=i18n.LANGUAGE_NAMES[lang]))

    def replay(self, rest: str = "") -> None:
        """The finished game of the current table (or of table ``rest``: an earlier one, say
        before a rematch) as lines, from the host's reveal."""
        from client.replay.text import lines
        from hexnet.record import Record, RecordError
        from hexnet.replay import ALL, Replay

        desk = self.desk_named(rest)
        session = self.session
        if desk is None or session is None or desk.table not in session.revealed:
            self.say(_("The host has not revealed this game yet; try again in a moment."))
            return
        verdict = session.fair_play.get(desk.table)
        if verdict is None or not verdict.ok:
            self.say(_("The revealed game failed the fair-play check; it is not replayed."))
            return
        seat = desk.view.get("seat")
        try:
            record = Record.from_reveal(session.revealed[desk.table], desk.view.get("outcome"))
            replayed = Replay(record, seat if isinstance(seat, int) else ALL)
        except (RecordError, ValueError) as exc:
            self.say(str(exc))
            return
        self.say(*[line.removeprefix("# ") for line in lines(replayed)])

    def desk_named(self, rest: str) -> TableDesk | None:
        """The table a command names by number (``results 3``), else the current one."""
        number = rest.strip().lstrip("#")
        if number.isdigit() and int(number) in self.desks:
            return self.desks[int(number)]
        return self.current

    def standings(self) -> None:
        from client.plain.lobby import standings_lines

        if self.tournament is None:
            self.say(_("This host runs no tournament."))
            return
        self.say(*standings_lines(self.tournament))

    # -- sending --------------------------------------------------------------------------
    async def send(self, msg: dict[str, Any]) -> None:
        """Send to the host; a refusal to send is said."""
        problem = await send_intent(self.session, msg)
        if problem is not None:
            self.say(problem[1])

    async def chat(self, text: str, channel: str) -> None:
        text = text.strip()
        if not text:
            self.say(_("Type chat and what you want to say."))
            return
        await self.send({"type": "chat", "text": text, "channel": channel})

    async def watch(self, table: int) -> None:
        await self.send({"type": "watch", "table": table})

    async def look(self, on: bool) -> None:
        """Tell the host whether the lobby is what you follow now (while you play)."""
        await self.looking.tell(self.session, self.lobby.lobby, on)


async def run_plain(**options: Any) -> int:
    """Run the plain client with ``options`` (see :class:`PlainClient`)."""
    return await PlainClient(**options).run()
