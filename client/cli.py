"""Client subcommands: ``hexnet join`` (the Textual app), ``hexnet list`` and ``hexnet bot``
(bot clients at a new table, :mod:`client.bot`, or a tournament's entrants, :mod:`client.entrant`).
"""

from __future__ import annotations

import argparse
import getpass
import sys


def default_name() -> str:
    """The login name, cut to the 24 characters a seat name may have."""
    try:
        name = getpass.getuser()
    except (KeyError, OSError):
        name = "player"
    return (name or "player")[:24]


def use_language(args: argparse.Namespace) -> str:
    """The language a client command shows: ``--lang``, else the locale's (English if the
    locale names a language hexnet does not speak); set for this process and returned."""
    from hexnet import i18n

    lang = getattr(args, "lang", None) or i18n.from_environment()
    i18n.set_language(lang)
    return lang


def run_join(args: argparse.Namespace) -> int:
    """``hexnet join [HOST[:PORT]] [--name N] [--code C] [--fingerprint F] [--lang L]
    [--watch TABLE]``: the Textual client (``--watch``: watching that table once connected).

    Without HOST it opens on the discovery screen (hosts found on the LAN).
    """
    from client.target import parse_target

    lang = use_language(args)
    target = None
    if args.target:
        try:
            target = parse_target(args.target)
        except ValueError as exc:
            print(f"hexnet join: {exc}", file=sys.stderr)
            return 2
    watch = getattr(args, "watch", None)
    if watch is not None and target is None:
        from hexnet.i18n import _

        print(_("hexnet join: --watch needs a HOST to watch at"), file=sys.stderr)
        return 2
    if getattr(args, "plain", False):  # the screen-reader mode: lines, not a screen
        import asyncio

        from client.plain.front import run_plain

        return asyncio.run(run_plain(
            target=target, name=(args.name or default_name())[:24], code=args.code,
            config_dir=args.config_dir, fingerprint=args.fingerprint, lang=lang,
            interfaces=getattr(args, "interface", None), auto_watch=watch))
    from client.app import HexnetApp

    app = HexnetApp(target=target, name=(args.name or default_name())[:24], code=args.code,
                    config_dir=args.config_dir, fingerprint=args.fingerprint, lang=lang,
                    interfaces=getattr(args, "interface", None), auto_watch=watch,
                    leave_if_unreached=target is not None)
    app.run()
    if app.unreached:  # never got in: one line, as ssh says it
        print(f"hexnet join: {app.unreached}", file=sys.stderr)
        return 1
    return app.return_code or 0


def format_host(h) -> str:
    """One line of ``hexnet list``: name, address:port, short fingerprint, games, open seats."""
    from hexnet.i18n import _, ngettext
    from protocol.tls import short_fingerprint

    try:
        fp = short_fingerprint(h.fingerprint)
    except ValueError:
        fp = "?"
    seats = ngettext("{n} open seat", "{n} open seats", h.open_seats).format(n=h.open_seats)
    return (f"{h.name}  {h.address}:{h.port}  {fp}  {','.join(h.games) or '-'}  {seats}"
            + ("  " + _("(no code)") if h.open else ""))


def run_list(args: argparse.Namespace) -> int:
    """``hexnet list [--interface ADDR] [--timeout S]``: print the hosts advertised on the LAN,
    one a line; exit 0 even when none is found (says so on stderr)."""
    import asyncio

    from client.discovery import browse
    from hexnet.i18n import _

    use_language(args)
    hosts = asyncio.run(browse(args.timeout, args.interface))
    for h in hosts:
        print(format_host(h))
    if not hosts:
        print(_("no hexnet hosts found"), file=sys.stderr)
    return 0


def run_bot(args: argparse.Namespace) -> int:
    """``hexnet bot``: its report in ``--lang`` (default: the locale's language)."""
    import asyncio
    import statistics

    from client.bot import parse_target, run_bots
    from client.session import SessionError
    from hexnet import i18n
    from hexnet.i18n import _, ngettext
    from hexnet.policies import load_policy
    from hexnet.search import budgeted

    i18n.set_language(getattr(args, "lang", None) or i18n.from_environment())
    try:
        host, port = parse_target(args.target)
    except ValueError:
        print(_("hexnet bot: cannot read {target} as HOST[:PORT]").format(
            target=repr(args.target)), file=sys.stderr)
        return 2
    if args.game is None:
        return _run_entrants(args, host, port)
    try:
        if args.seats is not None and args.seats < args.count:
            raise ValueError(_("--seats {seats} cannot hold --count {count} bots").format(
                seats=args.seats, count=args.count))
        load_policy(args.game, args.policy)
    except ValueError as exc:  # PolicyError among them
        print(f"hexnet bot: {exc}", file=sys.stderr)
        return 2
    try:
        report = asyncio.run(run_bots(
            host, port, game=args.game, count=args.count, seats=args.seats,
            policy=budgeted(args.policy, getattr(args, "think", None)), code=args.code,
            config_dir=args.config_dir, name=args.name, pinned_fingerprint=args.fingerprint,
            resend=args.resend if args.resend and args.resend > 0 else None,
            seed=getattr(args, "seed", None)))
    except SessionError as exc:
        print(f"hexnet bot: {exc}", file=sys.stderr)
        return 1
    except TimeoutError:
        print(_("hexnet bot: the game did not end in time"), file=sys.stderr)
        return 1
    if report.outcome is None:
        print(_("hexnet bot: the table ended without an outcome"), file=sys.stderr)
        return 1
    o = report.outcome
    print(_("table {table}: {game} over after {actions} bot actions in {seconds} s; scores "
            "{scores}, winners {winners}").format(
        table=report.table, game=args.game, actions=report.actions_sent,
        seconds=f"{report.seconds:.1f}", scores=o.get("scores"), winners=o.get("winners"))
          + (_(", result {result}").format(result=o["result"]) if "result" in o else ""))
    if report.reconnects:
        print(ngettext("reconnected {n} time", "reconnected {n} times",
                       report.reconnects).format(n=report.reconnects))
    if report.rejected:
        print(_("rejected: {codes}").format(
            codes=", ".join(f"{k} {v}" for k, v in sorted(report.rejected.items()))))
    if report.latencies:
        figures = (f"p50 {report.percentile(0.5) * 1000:.1f} ms, "
                   f"p99 {report.percentile(0.99) * 1000:.1f} ms, "
                   f"mean {statistics.fmean(report.latencies) * 1000:.1f} ms "
                   f"(n={len(report.latencies)})")
        print(ngettext("latency action → the client holds the new view: {figures}",
                       "latency action → all {n} clients hold the new view: {figures}",
                       args.count).format(n=args.count, figures=figures))
    return 0


def _run_entrants(args: argparse.Namespace, host: str, port: int) -> int:
    """``hexnet bot HOST --count N`` (no ``--game``): N entrants of the host's tournament play
    until it is over; then the final standings (exit 0)."""
    import asyncio

    from client.entrant import run_entrants
    from client.session import SessionError
    from hexnet.i18n import _
    from hexnet.tournament import standings_lines

    if args.seats is not None:
        print("hexnet bot: " + _("--seats names a new table's size; a tournament seats its "
                                 "entrants itself"), file=sys.stderr)
        return 2
    try:
        report = asyncio.run(run_entrants(
            host, port, count=args.count, policy=args.policy, code=args.code,
            config_dir=args.config_dir, name=args.name, pinned_fingerprint=args.fingerprint,
            resend=args.resend if args.resend and args.resend > 0 else None,
            seed=getattr(args, "seed", None)))
    except ValueError as exc:  # PolicyError: the policy does not fit the event's game
        print(f"hexnet bot: {exc}", file=sys.stderr)
        return 2
    except SessionError as exc:
        print(f"hexnet bot: {exc}", file=sys.stderr)
        return 1
    except TimeoutError:
        print(_("hexnet bot: the tournament did not end in time"), file=sys.stderr)
        return 1
    final = report.final or {}
    # (counts as "rounds: 1": a count's word would need a plural form for each of them)
    print(_("tournament over: {format} of {game} — rounds: {rounds}, bots: {n}, tables: "
            "{tables}, {seconds} s").format(
        format=final.get("format"), game=final.get("game"), rounds=final.get("round"),
        n=args.count, tables=len(set().union(*report.tables)) if report.tables else 0,
        seconds=f"{report.seconds:.1f}"))
    rows = final.get("standings", [])
    mine = {""} | set(report.names)  # the header line is nobody's
    names = [""] + [str(r["name"]) for r in rows]
    for name, line in zip(names, standings_lines(rows, str(final.get("format"))), strict=True):
        print(("* " if name in mine and name else "  ") + line)
    return 0
