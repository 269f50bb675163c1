"""``hexnet play [GAME] [--players N]``: a host on this machine, bots in the other seats, and
your client — one command.

The host is the real :class:`host.server.Host` (TLS, protocol, timers), bound to 127.0.0.1 on a
free port and open (no room code); with ``--lan`` it binds every address and advertises itself by
mDNS so friends can join with ``hexnet join``. The host gets a table with bots in every seat but
the first (with ``--lan`` the seats stay open for friends; ``b`` in the lobby adds bots); the
client connects to it like any other client (pinned to the host's own fingerprint), sits in the
first seat, and starts the game. Composed here, above both rooms: the client never imports the
host, so this module is the one place where both run in one process.

``--tutorial`` plays the game's guided first game instead (:mod:`hexnet.tutorial`): its table
from ``seeds/tutorials/<game>.toml`` — a position stacked by this host's own code, never by a
network option — with the tutorial's predictable bots, and the client shows a hint line.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path
from typing import Any

from client.app import AutoSeat, HexnetApp
from client.cli import default_name, use_language
from hexnet.games import get_game
from hexnet.i18n import N_, _
from hexnet.options import OptionError, parse_flags
from hexnet.search import budgeted
from hexnet.tutorial import Tutorial, load
from host.server import Host
from protocol import paths
from protocol.journalfile import PLAY_DIR

DEFAULT_PLAYERS = {"hexenhammer": 4, "fang": 6, "hranice": 4}
TUTORIAL_BOT_DELAY = 1.0  # seconds a tutorial bot waits: time to follow its move
BOT_DELAY = 0.4  # at other tables
TUTORIAL_GREETING = N_("A guided first game: the line above the prompt says what is happening "
                       "and what you might do. ? lists the keys and the rules.")


def play_data_dir() -> Path:
    """Where ``hexnet play`` journals its games: ``<data dir>/play`` (its ``journals`` folder
    beside, never inside, the one ``hexnet host`` recovers from; ``hexnet replay --list``
    reads both)."""
    return paths.data_dir() / PLAY_DIR


def table_size(game: str, players: int | None) -> int:
    """``players`` if the game allows it (SystemExit with a sentence if not), else its default."""
    engine = get_game(game)
    n = players if players is not None else DEFAULT_PLAYERS.get(game, engine.min_players)
    if not engine.min_players <= n <= engine.max_players:
        raise SystemExit(_("hexnet play: {game} takes {low}–{high} players, not {n}.").format(
            game=engine.title, low=engine.min_players, high=engine.max_players, n=n))
    return n


def tutorial_of(args: argparse.Namespace) -> Tutorial | None:
    """The tutorial ``--tutorial`` asks for (None without it); SystemExit with a sentence if
    the game has none or another option contradicts it."""
    if not getattr(args, "tutorial", False):
        return None
    if args.players or args.seed is not None or args.lan:
        raise SystemExit(_("hexnet play: --tutorial sets its own table; leave out --players, "
                           "--seed and --lan."))
    try:
        return load(args.game)
    except FileNotFoundError:
        raise SystemExit(_("hexnet play: {game} has no tutorial yet.").format(
            game=args.game)) from None


def tutorial_table(host: Host, tutorial: Tutorial) -> int:
    """A table of ``tutorial`` at ``host``: its stacked position (set by this host's own code),
    the tutorial's bots in every seat but the player's. Its id."""
    table = host.lobby.create_table(tutorial.game, tutorial.seats, dict(tutorial.options),
                                    seed=tutorial.seed, owner_seat=tutorial.seat)
    for seat in range(tutorial.seats):
        if seat != tutorial.seat:
            host.lobby.add_bot(table, seat, "tutorial")
    return table


def bot_delay(args: argparse.Namespace, tutorial: bool) -> float:
    """Seconds a bot waits before it moves: ``--bot-delay`` (0 to 60, checked as the command
    line is read), else 1 in the tutorial and 0.4 at other tables."""
    delay = getattr(args, "bot_delay", None)
    if delay is None:
        return TUTORIAL_BOT_DELAY if tutorial else BOT_DELAY
    return delay


def table_options(args: argparse.Namespace) -> dict[str, Any]:
    """The table's options from the command line: ``--pace`` (relaxed with ``--plain``), then
    each ``--option KEY=VALUE`` (checked against the game's bounds); a bad one ends the command
    with its one-line error. The tutorial's table is prepared: it takes none."""
    if getattr(args, "option", None) and getattr(args, "tutorial", False):
        raise SystemExit(_("hexnet play: --option does not go with --tutorial (its table is "
                           "prepared)."))
    pace = getattr(args, "pace", None)
    if pace is None and getattr(args, "plain", False):
        pace = "relaxed"  # a screen reader needs time to read a question out
    try:
        chosen = parse_flags(get_game(args.game), getattr(args, "option", None))
    except OptionError as exc:
        raise SystemExit(f"hexnet play: {exc.message}") from None
    return ({"pace": pace} if pace else {}) | chosen


async def play(args: argparse.Namespace) -> int:
    """Start the host, run the app against it until the player quits, stop the host."""
    lang = use_language(args)
    tutorial = tutorial_of(args)
    seats = tutorial.seats if tutorial else table_size(args.game, args.players)
    options = table_options(args)
    name = (args.name or default_name())[:24]
    interfaces = getattr(args, "interface", None)
    if interfaces and not args.lan:
        raise SystemExit(_("hexnet play: --interface needs --lan (it says where the table is "
                           "advertised)."))
    try:
        data_dir = play_data_dir()
    except OSError as exc:
        raise SystemExit(_("hexnet play: cannot keep journals in {folder}: {why}").format(
            folder=exc.filename or "$XDG_DATA_HOME/hexnet", why=exc.strerror or exc)) from None
    host = Host(name=f"{name}'s table", config_dir=None, data_dir=data_dir, open=True,
                mdns=bool(args.lan), interfaces=interfaces,
                recover=False,  # journaled, but a new play starts fresh
                history="journals",  # a throwaway identity: rating it would be noise
                bot_delay=bot_delay(args, tutorial is not None),
                **({"secret_every": args.secret_every}
                   if getattr(args, "secret_every", None) is not None else {}))
    port = await host.start(bind="0.0.0.0" if args.lan else "127.0.0.1", port=args.port or 0)
    greeting = (_("On the LAN as {host} (port {port}): friends run hexnet join and sit at "
                  "your table; b fills a seat with a bot, g starts.").format(
        host=repr(host.name), port=port) if args.lan else "")
    mine = 0
    if tutorial:
        mine = tutorial.seat
        greeting = _(TUTORIAL_GREETING)
        table = tutorial_table(host, tutorial)
    else:
        table = host.lobby.create_table(args.game, seats, options,
                                        seed=args.seed, owner_seat=mine)  # yours: o, rematch
        if not args.lan:  # with --lan the seats wait for friends (or bots added from the lobby)
            for seat in range(1, seats):
                host.lobby.add_bot(table, seat,
                                   budgeted(args.policy, getattr(args, "think", None)))
    try:
        # A throwaway client identity: local play leaves no pins or keys behind.
        with tempfile.TemporaryDirectory(prefix="hexnet-play-") as client_dir:
            seat = AutoSeat(table, seat=mine, start=not args.lan)
            if getattr(args, "plain", False):  # the screen-reader mode: lines, not a screen
                from client.plain.front import run_plain

                await run_plain(target=("127.0.0.1", port), name=name, config_dir=client_dir,
                                fingerprint=host.fingerprint, auto_seat=seat,
                                greeting=plain_greeting(greeting, tutorial is not None),
                                lang=lang, tutorial=args.game if tutorial else None)
                return 0
            app = HexnetApp(target=("127.0.0.1", port), name=name, config_dir=client_dir,
                            fingerprint=host.fingerprint, auto_seat=seat,
                            greeting=greeting, lang=lang,
                            tutorial=args.game if tutorial else None)
            await app.run_async()
    finally:
        await host.stop()
    return 0


def plain_greeting(greeting: str, tutorial: bool) -> str:
    """The greeting of ``--plain``: the tutorial's says how its hints come (no hint line, no
    keys); any other as the screen's."""
    if tutorial:
        return _("A guided first game: a hint is said at every step. Type help for every "
                 "command.")
    return greeting


def run(args: argparse.Namespace) -> int:
    """Entry point of ``hexnet play``."""
    try:
        return asyncio.run(play(args))
    except SystemExit as exc:
        if isinstance(exc.code, str):
            print(exc.code, file=sys.stderr)
            return 2
        raise
