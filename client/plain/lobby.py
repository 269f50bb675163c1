"""The lobby in the plain mode: the host's tables as numbered sentences, where you are, and the
lobby's commands (``tables``, ``new``, ``sit 2``, ``bot``, ``start``, ``watch 2``, ``unwatch``,
``leave``, ``watching on|off``, ``enter``, ``standings``).

News is said as it comes, but only what concerns you: your own table (who sat down, that it
started) and where you are; ``tables`` reads the list (``tables 2``: its second page).
"""

from __future__ import annotations

from typing import Any

from client.plain.console import sentence
from client.plain.front_api import Front
from client.words.lobby import (
    STATUS,
    game_text,
    headline,
    pace_choices,
    seat_range,
    seats_summary,
    you_line,
)
from hexnet.i18n import _, ngettext

PAGE = 20  # tables a page of ``tables``


def table_line(table: dict[str, Any]) -> str:
    """``Table 2: Hexenhammer (normal pace), open, 1 of 3 seats: Eve, —, —.``"""
    seats = table.get("seats") or []
    taken = sum(1 for s in seats if s.get("kind") != "empty")
    status = str(table.get("status", ""))
    return _("Table {id}: {game}, {status}, {taken} of {total} seats: {seats}.").format(
        id=table.get("id"), game=game_text(table), status=_(STATUS.get(status, status)),
        taken=taken, total=table.get("seats_total", len(seats)),
        seats=seats_summary(table).replace("—", _("empty")))


class LobbyDesk:
    """The lobby as lines, and its commands."""

    def __init__(self, front: Front) -> None:
        self.front = front
        self.lobby: dict[str, Any] = {}
        self.you_said = ""
        self.mine_said = ""
        self.count_said: int | None = None
        self.event_said = ""

    def say(self, *lines: str) -> None:
        self.front.say(*lines)

    def tables(self) -> list[dict[str, Any]]:
        return [t for t in self.lobby.get("tables") or [] if isinstance(t, dict)]

    def table(self, table_id: int) -> dict[str, Any] | None:
        return next((t for t in self.tables() if t.get("id") == table_id), None)

    # -- news -----------------------------------------------------------------------------
    def update(self, lobby: dict[str, Any]) -> None:
        """Say what changed for you: where you are, your table, how many tables there are."""
        self.lobby = lobby
        you = lobby.get("you") or {}
        count = len(self.tables())
        if count != self.count_said and you.get("table") is None and you.get(
                "watching") is None:
            self.say(ngettext("The host has {n} table. Type tables to hear it.",
                              "The host has {n} tables. Type tables to hear them.",
                              count).format(n=count))
        self.count_said = count
        line = self.you_line()
        if line != self.you_said:
            self.you_said = line
            self.say(line)
        mine = self.table(you["table"]) if you.get("table") is not None else None
        said = table_line(mine) if mine else ""
        if said and said != self.mine_said:
            self.say(said)
        self.mine_said = said

    def you_line(self) -> str:
        """Where you are in the lobby and what you may do there."""
        you = self.lobby.get("you") or {}
        name = you.get("name", "?")
        if you.get("watching") is not None:
            return _("You are {name}, watching table {table}. Type unwatch to stop watching, "
                     "sit to take a free seat.").format(name=name, table=you["watching"])
        if you.get("table") is None:
            return _("You are {name}, not seated. Type new to create a table, sit and a "
                     "table's number to sit down, watch and a number to watch.").format(
                name=name)
        seat = you.get("seat")
        table = self.table(you["table"]) or {}
        if table.get("status") == "open":
            return _("You are {name}, seated at table {table}, seat {seat}. Type bot to add "
                     "a bot, start to start the game.").format(
                name=name, table=you["table"], seat=seat + 1 if isinstance(seat, int) else "?")
        return _("You are {name}, playing at table {table}, seat {seat}.").format(
            name=name, table=you["table"], seat=seat + 1 if isinstance(seat, int) else "?")

    def tournament(self, event: dict[str, Any]) -> None:
        """The host's tournament moved on: its headline, when it changed."""
        line = headline(event)
        if line != self.event_said:
            self.event_said = line
            self.say(sentence(line))

    # -- commands -------------------------------------------------------------------------
    async def command(self, verb: str, rest: str) -> bool:
        """Carry out a lobby command; False if ``verb`` is not one."""
        if verb in ("tables", "lobby"):
            await self.front.look(True)
            page = int(rest) if rest.strip().isdigit() else 1
            self.list_tables(page)
            return True
        if verb == "new":
            self.create()
            return True
        if verb == "sit":
            await self.on_table(rest, "sit", require=True)
            return True
        if verb == "watch":
            await self.on_table(rest, "watch", require=True)
            return True
        if verb == "bot":
            await self.on_table(rest, "add_bot")
            return True
        if verb == "start":
            await self.on_table(rest, "start")
            return True
        if verb == "unwatch":
            await self.front.send({"type": "unwatch"})
            return True
        if verb == "leave":
            await self.front.send({"type": "leave"})
            return True
        if verb == "watching":
            await self.watch_rules(rest)
            return True
        if verb == "enter":
            await self.front.send({"type": "enter"})
            return True
        if verb == "standings":
            self.front.standings()
            return True
        return False

    def list_tables(self, page: int = 1) -> None:
        tables = self.tables()
        if not tables:
            self.say(_("The host has no tables yet. Type new to create one."))
            return
        pages = max(1, -(-len(tables) // PAGE))
        page = max(1, min(page, pages))
        shown = tables[(page - 1) * PAGE:page * PAGE]
        self.say(*[table_line(t) for t in shown])
        if pages > 1:
            self.say(_("Page {page} of {pages}; type tables and a page's number for "
                       "another.").format(page=page, pages=pages))
        self.say(self.you_line())

    def chosen_table(self, rest: str, require: bool) -> int | None:
        """The table a command names (else your own); None (said why) if there is none."""
        text = rest.strip().lstrip("#")
        if text.isdigit():
            return int(text)
        you = self.lobby.get("you") or {}
        if you.get("watching") is not None:
            return int(you["watching"])
        if not require and you.get("table") is not None:
            return int(you["table"])
        self.say(_("Which table? Type its number after the command, e.g. sit 2."))
        return None

    async def on_table(self, rest: str, kind: str, require: bool = False) -> None:
        table = self.chosen_table(rest, require)
        if table is None:
            return
        if kind == "sit":
            await self.front.send({"type": "sit", "table": table, "seat": None})
        elif kind == "watch":
            await self.front.watch(table)
        elif kind == "add_bot":
            await self.front.send({"type": "add_bot", "table": table, "seat": None,
                                   "policy": "heuristic"})
        else:
            await self.front.send({"type": "start", "table": table})

    async def watch_rules(self, rest: str) -> None:
        word = rest.strip().lower()
        if word not in ("on", "off"):
            self.say(_("Type watching on or watching off (for your own table)."))
            return
        table = self.chosen_table("", require=False)
        if table is not None:
            await self.front.send({"type": "watch_rules", "table": table,
                                   "allowed": word == "on"})

    def create(self) -> None:
        """Ask the game, the seats and the pace as numbered lines, then create the table."""
        games = list(self.front.games or ["hexenhammer"])

        def with_game(game: Any) -> None:
            sizes = seat_range(str(game))
            self.front.ask_choice(
                _("How many seats at the {game} table?").format(game=str(game).title()),
                [(ngettext("{n} player", "{n} players", n).format(n=n), n) for n in sizes],
                lambda seats: with_seats(game, seats))

        def with_seats(game: Any, seats: Any) -> None:
            choices = pace_choices(str(game))
            if not choices:
                self.front.spawn(self.front.send({"type": "create", "game": game,
                                                  "seats": seats, "options": {}}))
                return
            self.front.ask_choice(_("Which pace?"), [(label, pace) for label, pace in choices],
                                  lambda pace: self.front.spawn(self.front.send(
                                      {"type": "create", "game": game, "seats": seats,
                                       "options": {"pace": pace}})))

        if len(games) == 1:
            with_game(games[0])
        else:
            self.front.ask_choice(_("Which game?"), [(g.title(), g) for g in games], with_game)


def standings_lines(event: dict[str, Any]) -> list[str]:
    """A tournament's standings: where it stands, whether you entered, every entrant's line."""
    lines = [sentence(headline(event)), you_line(event)]
    rows = event.get("standings") or []
    if not rows:  # before the first round ends: the entrants in seed order
        return lines + [f"{i}. {name}" for i, name in enumerate(event.get("entrants") or [], 1)]
    for r in rows:
        lines.append(_("{rank}. {name}: {points} points, {wins} wins, {games} games, {byes} "
                       "byes.").format(rank=r["rank"], name=r["name"], points=f"{r['points']:g}",
                                       wins=r["wins"], games=r["games"], byes=r["byes"]))
    return lines
