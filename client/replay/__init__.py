"""``hexnet replay``: step through a recorded game, print it as text, or list the journals.

- ``hexnet replay JOURNAL [--as SEAT | --all]`` opens the replay screen (:mod:`.screen`) in a
  client of its own (:class:`.app.ReplayApp`): the public view by default, one seat's view with
  ``--as`` (a number or a name), everything with ``--all`` (only once the game is over).
- ``hexnet replay JOURNAL --text`` prints the game as plain lines (:mod:`.text`).
- ``hexnet replay --list`` lists the journals on this machine (:mod:`.journals`).

Every replay first checks the journal as ``hexnet verify`` does (:func:`hexnet.record.
verify_record`) and says so; a journal that fails the check is not replayed. A journal of a
game still running replays up to its last step, from one seat or the public view.
"""

from __future__ import annotations

import argparse
import os
import sys

from client.fairplay import verdict_lines
from client.replay.loading import Refused, load, seat_of, verdict_line
from hexnet.i18n import _

__all__ = ["Refused", "list_journals", "load", "run", "seat_of", "verdict_line"]


def run(args: argparse.Namespace) -> int:
    """Entry point of ``hexnet replay``."""
    from client.cli import use_language

    lang = use_language(args)
    try:
        if args.list:
            if args.journal or args.all or args.seat is not None or args.text:
                raise Refused(_("--list takes no journal and no other option"))
            return list_journals(args)
        if not args.journal:
            raise Refused(_("name a journal (hexnet replay --list shows them)"))
        replay, verdict = load(args)
    except Refused as exc:
        print(f"hexnet replay: {exc}", file=sys.stderr)
        return 2
    if args.text:
        from client.replay.text import lines

        try:
            for line in lines(replay, verdict_lines(verdict)):
                print(line)
            sys.stdout.flush()
        except BrokenPipeError:  # hexnet replay … --text | head: the reader has enough
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    if getattr(args, "plain", False):  # the screen-reader mode: steps as typed lines
        from client.plain.replay import run as run_plain

        return run_plain(replay, verdict_lines(verdict))
    from client.replay.app import ReplayApp

    ReplayApp(replay, verdict_line(verdict), speed=args.speed, lang=lang).run()
    return 0


def list_journals(args: argparse.Namespace) -> int:
    """Print one line per journal on this machine (stderr says where, if none)."""
    from client.replay.journals import journal_dirs, listing

    try:
        folders = journal_dirs(args.data_dir)
    except OSError as exc:
        print(_("hexnet replay: cannot read the journals in {folder}: {why}").format(
            folder=args.data_dir or "$XDG_DATA_HOME/hexnet", why=exc.strerror or exc),
            file=sys.stderr)
        return 2
    found = 0
    for line in listing(folders):
        print(line)
        found += 1
    if not found:
        print(_("no journals in {folder} or {other}").format(
            folder=folders[0], other=folders[1]), file=sys.stderr)
    return 0
