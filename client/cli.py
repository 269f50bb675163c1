"""Client subcommands: ``hexnet join`` (the Textual app) and ``hexnet list``."""

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
                    interfaces=getattr(args, "interface", None), auto_watch=watch)
    app.run()
    return 0


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
    hosts = asyncio.run(browse(max(0.1, min(args.timeout, 60.0)), args.interface))
    for h in hosts:
        print(format_host(h))
    if not hosts:
        print(_("no hexnet hosts found"), file=sys.stderr)
    return 0
