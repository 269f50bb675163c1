"""``hexnet``: the one front door, above every room (it may use the rules, the host and the
client; nothing imports it).

Every subcommand's arguments are declared here (argparse only, so ``hexnet --help`` stays fast);
its work is done by ``run(args) -> int`` in the module named in ``_HANDLERS``, imported only when
that command runs. ``hexnet play`` is composed here (:mod:`hexnet.cli.play`): a host and a client
in one process.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from hexnet.cli import checks
from hexnet.cli.checks import PORT, Folder, OutputFile, seconds, whole
from host.flags import HOST_LIMITS
from protocol import traffic

GAMES = ["hexenhammer", "fang", "hranice"]
LANGS = ["en", "hu", "de", "cs"]  # as hexnet.i18n.LANGS (not imported: --help stays fast)
POLICIES = ["random", "heuristic", "search"]  # the built-in bots
LEVELS = ["easy", "normal", "hard"]  # as hexnet.levels.LEVELS (not imported: --help stays fast)
DEFAULT_LEVEL = "normal"

_HANDLERS = {
    "play": "hexnet.cli.play:run",
    "host": "host.cli:run",
    "join": "client.cli:run_join",
    "list": "client.cli:run_list",
    "bot": "client.cli:run_bot",
    "tournament": "hexnet.tools.ladder:run",
    "selfplay": "hexnet.tools.selfplay:run",
    "replay": "client.replay:run",
    "verify": "host.verify:run",
    "rules": "hexnet.cli:run_rules",
    "bench": "host.bench:run",
    "drill": "hexnet.cli.drill:run",
    "stats": "hexnet.cli.club:run_stats",
    "db": "hexnet.cli.club:run_db",
}


def _add_level(p: argparse.ArgumentParser, policy_default: str | None, policy_help: str,
               choices: list[str] | None = None) -> None:
    """``--level easy|normal|hard`` or ``--policy P`` (one of them; default: level normal)."""
    who = p.add_mutually_exclusive_group()
    who.add_argument("--level", choices=LEVELS,
                     help="how well the bots play: easy (slips like a beginner), normal (the "
                          "default), hard (searches: thinks --think seconds a move)")
    who.add_argument("--policy", default=policy_default, choices=choices, metavar="POLICY",
                     help=policy_help)


def run_rules(args: argparse.Namespace) -> int:
    """``hexnet rules GAME [--lang L]``: print the project's rules text in ``L`` (default: the
    locale's language); English, with a one-line note on stderr, where no translation exists."""
    from hexnet import i18n
    from hexnet.i18n import _
    from hexnet.seeds import rules_text

    lang = args.lang or i18n.from_environment()
    i18n.set_language(lang)
    try:
        text = rules_text(args.game, lang)
    except FileNotFoundError:
        try:
            text = rules_text(args.game)
        except FileNotFoundError:
            print(f"hexnet rules: no rules text for {args.game} yet", file=sys.stderr)
            return 1
        print(_("hexnet rules: no {language} text for {game} yet; here it is in English.")
              .format(language=i18n.LANGUAGE_NAMES[lang], game=args.game), file=sys.stderr)
    sys.stdout.write(text)
    return 0


def _add_lang(p: argparse.ArgumentParser) -> None:
    p.add_argument("--lang", choices=LANGS,
                   help="language: en, hu (Magyar), de (Deutsch), cs (Čeština) "
                        "(default: from LC_ALL, LC_MESSAGES or LANG; English otherwise)")


def _add_plain(p: argparse.ArgumentParser) -> None:
    p.add_argument("--plain", action="store_true",
                   help="screen-reader mode: plain lines in the normal scrollback, commands "
                        "typed as lines (help lists them)")


def _add_think(p: argparse.ArgumentParser, playouts: bool) -> None:
    p.add_argument("--think", type=checks.THINK, metavar="S",
                   help="seconds a search bot thinks per decision (default 0.5)")
    if playouts:
        p.add_argument("--playouts", type=checks.PLAYOUTS, metavar="N",
                       help="search bots play N playouts per decision instead of a think time "
                            "(reproducible: same seed, same games)")


def _add_host_target(p: argparse.ArgumentParser, required: bool) -> None:
    p.add_argument("target", nargs=None if required else "?", metavar="HOST[:PORT]",
                   help="the host to join"
                   + ("" if required else " (default: discover on the LAN)"))
    p.add_argument("--code", help="the room code the host shows")
    p.add_argument("--fingerprint", help="pin the host's key fingerprint up front")
    p.add_argument("--config-dir", type=Folder(checks.IDENTITY_FOLDER),
                   help="where identity and known_hosts live "
                   "(default: $XDG_CONFIG_HOME/hexnet)")


def _add_workers(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument("--workers", type=whole(1),
                   help=f"worker processes to spread the {what} over (default: the cores; "
                        "1 plays in this process); the results are the same for any number")
    p.add_argument("--scheduler", metavar="tcp://HOST:8786",
                   help=f"play the {what} on this Dask cluster instead "
                        "(needs pip install 'hexnet[cluster]')")
    p.add_argument("--progress", action="store_true",
                   help="show progress on stderr even when it is not a terminal")


def _positive(kind: type) -> checks.Number:
    """A finite number above 0 (a whole one at least 1) of ``kind``."""
    return checks.whole(1) if kind is int else checks.Number(float, 0, above=True)


def _add_secret_every(p: argparse.ArgumentParser) -> None:
    p.add_argument("--secret-every", type=seconds(*traffic.SECRET_EVERY_RANGE),
                   metavar="SECONDS",
                   default=traffic.SLOT_EVERY,
                   help="seconds between the ticks of a secret step, when every seat sends and "
                        f"is sent one frame (default {traffic.SLOT_EVERY:g}; shorter: quicker "
                        "bot games, more frames)")


def build_parser() -> argparse.ArgumentParser:
    """The full command line."""
    parser = argparse.ArgumentParser(
        prog="hexnet",
        description="LAN-party witch-hunt card games in the terminal.",
        epilog="Start a game against bots at once: hexnet play")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("play",
                       help="play at once: local host, bots in the other seats, your screen")
    p.add_argument("game", nargs="?", default="hexenhammer", choices=GAMES)
    p.add_argument("--players", type=whole(), help="seats at the table (default: the game's "
                   "usual)")
    p.add_argument("--name", help="your name at the table")
    _add_level(p, None, "a bot policy instead of a level: "
               + ", ".join(POLICIES) + " (search thinks ~0.5 s a move)",
               choices=POLICIES + LEVELS)
    _add_think(p, playouts=False)
    p.add_argument("--seed", type=whole(), help="fix the shuffle (default: random)")
    p.add_argument("--lan", action="store_true",
                   help="also advertise the table on the LAN so friends can join")
    p.add_argument("--interface", action="append",
                   help="with --lan: advertise only on this address (repeatable)")
    p.add_argument("--pace", choices=["relaxed", "normal", "quick"],
                   help="how long the table's timed windows are (default: the game's normal; "
                        "relaxed with --plain)")
    p.add_argument("--option", action="append", metavar="KEY=VALUE",
                   help="a table option (repeatable; within the bounds players may choose, "
                        "e.g. panic_seconds=20 for Hexenhammer, deal=standard for Fang); it "
                        "wins over what --pace sets")
    p.add_argument("--tutorial", action="store_true",
                   help="a guided first game: a prepared table, predictable bots and a hint "
                        "at every step (about 5 minutes)")
    p.add_argument("--port", type=PORT, default=0, help="host port (default: any free port)")
    p.add_argument("--bot-delay", type=seconds(0, 60), metavar="SECONDS",
                   help="seconds a bot waits before it moves, so you can follow its move "
                        "(default 0.4; the tutorial's 1)")
    _add_secret_every(p)
    _add_lang(p)
    _add_plain(p)

    p = sub.add_parser("host", help="run a host: tables, seats, mDNS")
    p.add_argument("--port", type=PORT, default=7878, help="TCP port (default 7878)")
    p.add_argument("--bind", default="0.0.0.0", help="address to listen on (default all)")
    p.add_argument("--interface", action="append",
                   help="advertise mDNS only on this address (repeatable)")
    p.add_argument("--no-mdns", action="store_true", help="do not advertise on the LAN")
    p.add_argument("--name", help="host name shown to players (default: this machine's)")
    p.add_argument("--open", action="store_true", help="seats may be taken without the room code")
    p.add_argument("--headless", action="store_true", help="plain log lines instead of a screen")
    p.add_argument("--config-dir", type=Folder(checks.KEY_FOLDER),
                   help="key and certificate (default: $XDG_CONFIG_HOME/hexnet)")
    p.add_argument("--data-dir", type=Folder(checks.JOURNAL_FOLDER),
                   help="journals (default: $XDG_DATA_HOME/hexnet); the host refuses to start "
                        "if it cannot write them there")
    p.add_argument("--absent-after", type=seconds(0, 86400, above=True), default=60.0,
                   help="seconds before a disconnected seat counts as absent (default 60)")
    p.add_argument("--bot-delay", type=seconds(0, 60), metavar="SECONDS",
                   help="seconds a host-side bot waits before it moves (default 0.4)")
    _add_secret_every(p)
    p.add_argument("--no-history", action="store_true",
                   help="keep no history: no club database (ratings, profiles, hexnet "
                        "stats), and each finished game's journal deleted (default: kept)")
    p.add_argument("--idle-absent", type=seconds(10, 3600, never=True), metavar="SECONDS",
                   help="seconds a connected player may keep a table waiting before the game "
                        "plays for them as absent (they come back with b at the table); "
                        "10–3600, 0 = never (default: never; 120 with --tournament)")
    p.add_argument("--lang", choices=LANGS, default="en",
                   help="language of the headless log's game events (default en)")
    p.add_argument("--web", nargs="?", type=PORT, const=8080, metavar="PORT",
                   help="also serve the client to browsers on PORT (default 8080; "
                        "needs hexnet[web])")
    p.add_argument("--ssh", nargs="?", type=PORT, const=2222, metavar="PORT",
                   help="also run an SSH server on PORT whose only program is the client "
                        "(default 2222; needs hexnet[ssh])")
    for flag, dest, kind, default, text in HOST_LIMITS:
        p.add_argument(flag, dest=dest, type=_positive(kind), default=None,
                       metavar="N", help=f"{text} (default {default})")
    t = p.add_argument_group("tournament (see README: Running a tournament)")
    t.add_argument("--tournament", choices=["swiss", "round-robin", "knockout"],
                   help="run one tournament on this host: entrants register from their "
                        "clients (hexnet join, then e in the lobby; hexnet bot HOST --count "
                        "N); needs --game; it starts at --start-when/--start-at or when the "
                        "organiser says so (T on the dashboard; SIGUSR1 to a --headless "
                        "host: kill -USR1 PID)")
    t.add_argument("--game", choices=GAMES, help="the game every table of the tournament plays")
    t.add_argument("--rounds", type=whole(1),
                   help="rounds to play (default: swiss 3, round-robin the whole schedule; "
                        "a knockout plays its bracket)")
    t.add_argument("--table-size", type=whole(),
                   help="seats per table (default 4, or the nearest the game seats)")
    t.add_argument("--bots", metavar="heuristic:K",
                   help="K host-side bots enter the tournament too (heuristic:K or random:K)")
    t.add_argument("--results", type=OutputFile(folders=True), metavar="PATH.json",
                   help="write every game and the standings after each round here (rewritten "
                        "each round), and the final standings as CSV beside it (PATH.csv)")
    t.add_argument("--start-when", type=whole(1), metavar="N",
                   help="start as soon as N entrants (host bots included) have registered")
    t.add_argument("--entrants-per-address", type=whole(1), metavar="N",
                   help="entrants that may enter from one address (default 2: keys are free "
                        "to make; raise it for a room behind one address or for hexnet bot "
                        "--count N from one machine)")
    t.add_argument("--start-at", metavar="TIME",
                   help="start at TIME: HH:MM[:SS] today (local time) or an ISO date and "
                        "time, e.g. 2026-12-01T20:00")
    t.add_argument("--option", action="append", metavar="KEY=VALUE",
                   help="a game option for every table (repeatable; values as in the "
                        "game's options, e.g. variant=quick or reaction_seconds=10), or a "
                        "watching one: watch=false, watch_delay=N (watchers N actions late)")
    t.add_argument("--pause", type=seconds(0, 3600), default=5.0, metavar="SECONDS",
                   help="seconds between a round's standings and the next round (default 5)")
    t.add_argument("--seed-by-rating", action="store_true",
                   help="seed the entrants by their rating in the game (the club database; "
                        "newcomers as such) instead of the order they entered: a Swiss "
                        "event's first round, a knockout's bracket")

    p = sub.add_parser("drill", help="drills on 127.0.0.1: the host killed mid-game (the "
                                     "crash drill), or --hostile: every door attacked at once")
    p.add_argument("--hostile", action="store_true",
                   help="the hostile-room drill: slowloris, SSH resize storms, wrong codes, "
                        "throwaway keys and a seated player's floods against one host at "
                        "--descriptors descriptors, while an honest player gets in and plays "
                        "(needs hexnet[web,ssh] for those doors' attacks)")
    p.add_argument("--seconds", type=_positive(float),
                   help="--hostile: how long the attacks run (default 45)")
    p.add_argument("--descriptors", type=_positive(int),
                   help="--hostile: the host's file-descriptor limit (default 256)")
    p.add_argument("--game", choices=GAMES, help="the crash drill's game (default hexenhammer)")
    p.add_argument("--seed", type=whole(), help="the crash drill: fixes when the kills come")
    p.add_argument("--timeout", type=_positive(float),
                   help="the crash drill's limit in seconds (default 240)")
    p.add_argument("--games", type=_positive(int),
                   help="the crash drill: games to try when one ends too early (default 3)")
    p.add_argument("--steps", metavar="K1,CUT,K2",
                   help="the crash drill: journal steps of the kills and the cut")
    p.add_argument("--keep", metavar="DIR", help="work in DIR and keep it")

    p = sub.add_parser("join", help="join a host (found on the LAN, or named)")
    _add_host_target(p, required=False)
    p.add_argument("--name", help="your name at the table")
    p.add_argument("--interface", action="append",
                   help="look for hosts only on this address (repeatable)")
    p.add_argument("--watch", type=_positive(int), metavar="TABLE",
                   help="watch table TABLE as soon as connected (needs HOST)")
    _add_lang(p)
    _add_plain(p)

    p = sub.add_parser("list", help="list the hosts advertised on the LAN")
    p.add_argument("--interface", action="append", help="listen only on this address")
    p.add_argument("--timeout", type=seconds(0.1, 60), default=3.0,
                   help="seconds to listen, 0.1–60 (default 3)")
    _add_lang(p)

    p = sub.add_parser("bot", help="sit bot clients at a new table and play it to the end; "
                                   "without --game: enter the host's tournament")
    _add_host_target(p, required=True)
    p.add_argument("--game", choices=GAMES,
                   help="the game of the new table; leave it out to enter the tournament the "
                        "host runs (--count bot entrants play every table they are seated at "
                        "until the event ends, then the standings are printed)")
    p.add_argument("--count", type=whole(1), default=1, help="how many bots (default 1)")
    p.add_argument("--seats", type=whole(1), help="table size (default: --count)")
    _add_level(p, None, "a bot policy instead of a level: random, heuristic, search, or "
               "MODULE:FUNCTION: your own choose(view, legal, rng) -> action, from a module "
               "in the current directory or on the Python path, or a file (./mybot.py:choose)")
    _add_think(p, playouts=False)
    p.add_argument("--name", default="bot", help="name prefix")
    p.add_argument("--resend", type=seconds(0, 3600), default=5.0,
                   help="send an action again after this many seconds without an answer "
                        "(0: never; default 5)")
    p.add_argument("--seed", type=whole(),
                   help="fix the bots' choices (bot i draws from SEED + i; default: random)")
    _add_lang(p)

    p = sub.add_parser("tournament", help="a headless tournament of bots over many tables")
    p.add_argument("--game", required=True, choices=GAMES, help="the game every table plays")
    p.add_argument("--players", type=whole(2), required=True, help="seats per table")
    p.add_argument("--bots", required=True,
                   help="entrants' policies in seed order, comma-separated: a level (easy, "
                        "normal, hard) or random, heuristic, "
                        "search (Fang also search-village, search-witches; with a budget of "
                        "its own: search@200p, search@0.5s) or MODULE:FUNCTION (your own; see "
                        "hexnet bot --help)")
    p.add_argument("--rounds", type=whole(1),
                   help="rounds to play (default: swiss 3, round-robin the whole schedule; "
                        "a knockout plays its bracket)")
    p.add_argument("--format", choices=["swiss", "round-robin", "knockout"], default="swiss",
                   help="swiss by standing (default), round-robin by schedule, knockout by seed")
    p.add_argument("--seed", type=whole(), default=1, help="the first table's seed (default 1)")
    p.add_argument("--out", type=OutputFile(), metavar="PATH.json",
                   help="write standings, pairings and every table's record as JSON here")
    p.add_argument("--option", action="append", metavar="KEY=VALUE",
                   help="a game option for every table (repeatable; within the bounds players "
                        "may choose, e.g. deal=standard for Fang)")
    _add_workers(p, "tables")
    _add_think(p, playouts=True)

    p = sub.add_parser("selfplay", help="bots play complete games in-process; prints figures")
    p.add_argument("--game", default="hexenhammer", choices=GAMES,
                   help="the game to play (default hexenhammer)")
    p.add_argument("--players", type=whole(), default=4, help="seats per game (default 4)")
    p.add_argument("--games", type=whole(1), default=100, help="games to play (default 100)")
    p.add_argument("--seed", type=whole(), default=1,
                   help="the first game's seed; game i plays seed + i (default 1)")
    p.add_argument("--bots", default="random",
                   help="one policy for all seats, or one per seat: heuristic,random,random,random"
                        " (a level: easy, normal, hard; or random, heuristic, search; Fang also "
                        "search-village, search-witches: "
                        "search for one side, heuristic for the other; MODULE:FUNCTION for your "
                        "own)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    _add_workers(p, "games")
    _add_think(p, playouts=True)

    p = sub.add_parser("replay", help="step through a finished (or running) game's journal",
                       description="Step through a game from its journal: the public view, "
                                   "one seat's (--as) or every hand (--all, after the end). "
                                   "The journal is checked like hexnet verify first.")
    p.add_argument("journal", nargs="?", help="the journal file (hexnet replay --list shows "
                                              "them)")
    who = p.add_mutually_exclusive_group()
    who.add_argument("--as", dest="seat", metavar="SEAT",
                     help="see what this seat saw (a seat number from 0, or a player's name)")
    who.add_argument("--all", action="store_true",
                     help="all-seeing: every hand and every private line (finished games only)")
    p.add_argument("--text", action="store_true",
                   help="print the game as plain lines (one per action, the log in --lang) "
                        "instead of opening the replay screen")
    p.add_argument("--list", action="store_true",
                   help="list the journals on this machine (game, date, players, result)")
    p.add_argument("--speed", type=checks.Number(float, 0.5, 16), default=2.0, metavar="STEPS",
                   help="steps a second when the replay plays by itself (Space; default 2)")
    p.add_argument("--data-dir", type=Folder(checks.JOURNAL_FOLDER),
                   help="where the journals are (default: $XDG_DATA_HOME/hexnet)")
    _add_lang(p)
    _add_plain(p)

    p = sub.add_parser("verify", help="check a finished journal's revealed seed against its play")
    p.add_argument("journal")

    p = sub.add_parser("rules", help="print a game's rules")
    p.add_argument("game", choices=GAMES)
    _add_lang(p)

    p = sub.add_parser("bench", help="measure a host against the bare TLS wire (127.0.0.1)")
    p.add_argument("--games", nargs="+", default=GAMES, choices=GAMES, metavar="GAME",
                   help="games to measure (default: all three)")
    p.add_argument("--repeats", type=whole(1), default=3,
                   help="repeat echo and game measurements; medians are reported (default 3)")
    p.add_argument("--actions", type=whole(1), default=300,
                   help="accepted actions to time per game and repeat (default 300)")
    p.add_argument("--game-seconds", type=seconds(0, 3600, above=True), default=30.0,
                   help="at most this long per game and repeat (default 30)")
    p.add_argument("--echo-rounds", type=whole(1), default=2000,
                   help="echo round trips per repeat (default 2000)")
    p.add_argument("--tables", type=whole(0), default=0,
                   help="also run N tables of 4 bots at a human-plus pace (default 0: skip)")
    p.add_argument("--seconds", type=seconds(0, 3600, above=True), default=20.0,
                   help="how long the --tables run is measured (default 20)")
    p.add_argument("--selfplay-seconds", type=seconds(0, 3600), default=3.0,
                   help="in-process selfplay per game, 0 to skip (default 3)")
    p.add_argument("--search-seconds", type=seconds(0, 3600), default=3.0,
                   help="in-process search playouts per game, 0 to skip (default 3)")
    p.add_argument("--slow-disk", type=checks.Number(float, 0, 1000), default=0.0, metavar="MS",
                   help="make the host's every fsync MS milliseconds slower, as on a real disk "
                        "(default 0)")
    _add_secret_every(p)
    p.add_argument("--breakdown", action="store_true",
                   help="also count the host's CPU by function (thread CPU per call of the "
                        "functions on its path for an action and a tick) and print where it "
                        "went")
    p.add_argument("--seed", type=whole(), default=1, help="the bots' random seed (default 1)")
    p.add_argument("--json", type=OutputFile(), metavar="FILE",
                   help="also write the figures as JSON to FILE")
    _add_club(sub)
    checks.name_types(parser)
    checks.one_line(parser)
    return parser


def _add_club(sub: argparse._SubParsersAction) -> None:
    """``hexnet stats`` and ``hexnet db``: the club database (host/club)."""
    p = sub.add_parser(
        "stats", help="the host's leaderboard: every player's rating per game",
        description="The leaderboard of this host's club database (built from its verified "
                    "journals): rank, name, key (fingerprint), games, wins, rating μ ± σ and "
                    "its ordinal μ − 3σ, best first. --forget removes a player.",
        epilog="Ratings: OpenSkill (Plackett–Luce); see README, Club nights.")
    p.add_argument("--game", choices=GAMES, help="only this game (default: every game)")
    p.add_argument("--since", metavar="DATE",
                   help="rate only the games since DATE (2026-01-31 or 2026-01-31T20:00, "
                        "local time): a season's table")
    p.add_argument("--csv", action="store_true", help="print CSV (full keys) instead")
    p.add_argument("--forget", metavar="FINGERPRINT",
                   help="remove this player (a key, or its start as the leaderboard shows "
                        "it): names and ratings go, their games stay anonymised, and a "
                        "rebuild keeps them forgotten; asks first")
    p.add_argument("--yes", action="store_true", help="with --forget: do not ask")
    p.add_argument("--data-dir", type=Folder(checks.CLUB_FOLDER),
                   help="the host's data directory (default: "
                   "$XDG_DATA_HOME/hexnet)")
    p.add_argument("--progress", action="store_true",
                   help="show progress on stderr even when it is not a terminal")
    p = sub.add_parser("db", help="the club database: rebuild it from journals")
    actions = p.add_subparsers(dest="db_command", metavar="ACTION", required=True)
    r = actions.add_parser(
        "rebuild", help="build the club database again from journals alone",
        description="Build the club database of --data-dir again from journals alone: this "
                    "host's, or the DIRs given (data directories or journal folders; several "
                    "hosts' merge, a game counted once by its table commitment). Only "
                    "journals that verify count; every other one is named with the reason.")
    r.add_argument("dirs", nargs="*", metavar="DIR", help="journal directories to read "
                   "(default: the data directory's journals)")
    r.add_argument("--data-dir", type=Folder(checks.CLUB_FOLDER),
                   help="the host's data directory, where the database is "
                   "(default: $XDG_DATA_HOME/hexnet)")
    r.add_argument("--progress", action="store_true",
                   help="show progress on stderr even when it is not a terminal")


def _lang_asked(argv: list[str]) -> str | None:
    """The ``--lang`` of a command line, read before the rest (its mistakes are told in it)."""
    for i, word in enumerate(argv):
        value = (argv[i + 1] if word == "--lang" and i + 1 < len(argv)
                 else word.partition("=")[2] if word.startswith("--lang=") else None)
        if value in LANGS:
            return value
    return None


def parse(argv: list[str]) -> argparse.Namespace:
    """``argv`` read and checked; a mistake is one line on stderr and SystemExit(2)."""
    checks.LANG[0] = _lang_asked(argv)
    args, extra = build_parser().parse_known_args(argv)
    if extra:
        where = " ".join(w for w in ("hexnet", getattr(args, "command", None),
                                     getattr(args, "db_command", None)) if w)
        print(f"{where}: unrecognized arguments: {' '.join(extra)}", file=sys.stderr)
        sys.exit(2)
    return args


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``hexnet`` console script."""
    try:
        args = parse(sys.argv[1:] if argv is None else list(argv))
    except SystemExit as exc:  # a mistake (2), or --help (0): said already
        return int(exc.code or 0)
    if "level" in args and args.policy is None:  # a level is a policy's name
        args.policy = args.level or DEFAULT_LEVEL
    if not args.command:
        build_parser().print_help()
        return 0
    module_name, func = _HANDLERS[args.command].split(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and module_name.startswith(exc.name):
            print(f"hexnet {args.command}: not available in this build yet", file=sys.stderr)
            return 2
        raise
    try:
        return int(getattr(module, func)(args) or 0)
    except KeyboardInterrupt:
        return 130

