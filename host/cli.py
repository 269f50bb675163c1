"""``hexnet host``: run a host. With a screen a Textual dashboard (:mod:`host.dashboard`);
``--headless`` prints plain, timestamped log lines instead and runs until SIGINT/SIGTERM."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import signal
import socket
import sys
from collections.abc import Callable, Collection

from host.eventlog import EventLog, LineWriter
from host.flags import HOST_LIMITS
from host.server import Host
from host.server import run as run_fast

TOURNAMENT_IDLE_ABSENT = 120.0  # a tournament's default --idle-absent


def idle_absent(args: argparse.Namespace) -> float | None:
    """``--idle-absent`` as the Host takes it (None: never): given, else 120 s for a
    tournament (an idle entrant must not hold a round), else never."""
    given = getattr(args, "idle_absent", None)
    if given is None:
        return TOURNAMENT_IDLE_ABSENT if getattr(args, "tournament", None) else None
    return given or None


def history(args: argparse.Namespace) -> str:
    """What this host keeps of finished games (:mod:`host.club.history`): ``"club"`` (their
    journals, indexed with ratings), or ``"none"`` with ``--no-history``."""
    return "none" if getattr(args, "no_history", False) else "club"


def make_host(args: argparse.Namespace, log: Callable[[str], None]) -> Host:
    """The Host the command line describes (limits not given keep the Host's defaults)."""
    limits = {dest: getattr(args, dest) for _, dest, *_ in HOST_LIMITS
              if getattr(args, dest, None) is not None}
    host = Host(args.name or socket.gethostname() or "hexnet", args.config_dir, args.data_dir,
                open=args.open, mdns=not args.no_mdns, interfaces=args.interface, log=log,
                absent_after=args.absent_after, idle_absent=idle_absent(args), **limits,
                **({"secret_every": args.secret_every}
                   if getattr(args, "secret_every", None) is not None else {}),
                history=history(args),
                **({"bot_delay": args.bot_delay} if getattr(args, "bot_delay", None) is not None
                   else {}))
    return host


async def run_headless(args: argparse.Namespace) -> int:
    """Serve until a signal; mDNS unregistered and the host stopped in every case. Every
    table's public events are logged too, in English or ``--lang``. Log lines go to stdout,
    timestamped, through a writer thread (:class:`host.eventlog.LineWriter`): the loop never
    waits for a reader of the output."""
    writer = LineWriter(sys.stdout)
    try:
        return await _serve_headless(args, writer.line, writer.put)
    finally:
        writer.close()


async def _serve_headless(args: argparse.Namespace, log_line: Callable[[str], None],
                          log_lines: Callable[[Collection[str]], None]) -> int:
    from host.doors import Doors, open_doors

    host = make_host(args, log_line)
    events = EventLog(host.lobby.state_of, log_lines, getattr(args, "lang", None) or "en")
    events.prepare()
    host.add_listener(events)
    director = None
    if getattr(args, "tournament_settings", None):
        from host.event import Director, EventError

        director = Director(host, log=log_line, **args.tournament_settings)
        try:
            director.load()
        except EventError as exc:
            print(f"hexnet host: {exc}", file=sys.stderr)
            return 2
    doors = Doors()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    try:
        await host.start(args.bind, args.port)
        doors = await open_doors(host, args.bind, args.web, args.ssh)
        for line in doors.lines():
            log_line(line)
        from host.descriptors import BUDGET

        log_line(f"file descriptors: {BUDGET.limit}, {BUDGET.reserve} kept for journals and "
                 f"players already in; no door's logins take more than {BUDGET.share()}")
        # what start-up made (modules, every game and its log's words, catalogs, recovered
        # tables) lives as long as the host: the collector need not look at it again in every
        # full collection
        gc.collect()
        gc.freeze()
        log_line(f"hexnet host {host.name!r} ready on {args.bind}:{host.port}")
        log_line(host.history.line())
        if director is not None:
            director.begin()
            with contextlib.suppress(NotImplementedError, AttributeError):
                loop.add_signal_handler(signal.SIGUSR1, director.start)  # the organiser
                if director.start_when is None and director.start_at is None:
                    log_line(f"tournament: start it with: kill -USR1 {os.getpid()}")
        await stop.wait()
        log_line("stopping")
    except OSError as exc:
        print(f"hexnet host: cannot listen on {args.bind}: {exc}", file=sys.stderr)
        return 1
    finally:
        if director is not None:
            director.close()
        await doors.close()
        await host.stop()
    return 0


def check_dirs(args: argparse.Namespace) -> str | None:
    """Why the host cannot use its directories (made if missing), or None: the config
    directory must hold its key and room code, and the data directory's journals must be
    writable — a host that cannot journal would lose every game a crash interrupts."""
    from protocol import paths

    for flag, made in (("--config-dir", paths.config_dir), ("--data-dir", paths.data_dir)):
        given = getattr(args, flag[2:].replace("-", "_"), None)
        try:
            folder = made(given)
            if flag == "--data-dir":
                folder = paths.private_dir(folder / "journals")
            probe = folder / f".write-test-{os.getpid()}"
            probe.write_bytes(b"")
            probe.unlink()
        except OSError as exc:
            where = given or "the default directory"
            reason = exc.strerror or str(exc)
            if isinstance(exc, FileExistsError | NotADirectoryError):
                reason = "it is a file, not a directory"
            what = "journals" if flag == "--data-dir" else "the host key"
            return f"cannot keep {what} in {where} ({flag}): {reason}"
    return None


def run(args: argparse.Namespace) -> int:
    """``hexnet host``."""
    from host.doors import DoorError, check_extras
    from host.tourney_cli import CliError, tournament_settings

    try:
        check_extras(args.web, args.ssh)
        args.tournament_settings = tournament_settings(args)
    except (DoorError, CliError) as exc:
        print(f"hexnet host: {exc}", file=sys.stderr)
        return 2
    problem = check_dirs(args)
    if problem is not None:
        print(f"hexnet host: {problem}", file=sys.stderr)
        return 2
    from host.descriptors import prepare

    prepare()  # as many descriptors as the hard limit allows (host.descriptors keeps a reserve)
    if args.headless or not sys.stdout.isatty():
        return run_fast(run_headless(args))  # uvloop when installed
    from host.dashboard import Dashboard

    host = make_host(args, log=lambda line: None)
    return Dashboard(host, args.bind, args.port, web=args.web, ssh=args.ssh,
                     tournament=getattr(args, "tournament_settings", None)).run() or 0
