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


def run_join(args: argparse.Namespace) -> int:
    """``hexnet join [HOST[:PORT]] [--name N] [--code C] [--fingerprint F]``: the Textual client.

    Without HOST it opens on the discovery screen (hosts found on the LAN).
    """
    from client.app import HexnetApp
    from client.screens.discover import parse_target

    target = None
    if args.target:
        try:
            target = parse_target(args.target)
        except ValueError as exc:
            print(f"hexnet join: {exc}", file=sys.stderr)
            return 2
    app = HexnetApp(target=target, name=(args.name or default_name())[:24], code=args.code,
                    config_dir=args.config_dir, fingerprint=args.fingerprint)
    app.run()
    return 0
