"""``hexnet verify JOURNAL``: replay a journal from its revealed seed and check every step."""

from __future__ import annotations

import argparse
import sys

from hexnet import rng
from hexnet.engine import Game
from hexnet.fairness import Verdict, verify_game
from hexnet.games import get_game
from host.journal import JournalContents, JournalError, read_journal


def verify_contents(contents: JournalContents, game: Game | None = None) -> Verdict:
    """Check a parsed journal: commitment, every step's public events, and the final result.

    ``game`` defaults to the registered engine the header names.
    """
    h = contents.header
    if h.get("rng") != rng.ALGORITHM:
        return Verdict(False, [f"This journal was written with the generator "
                               f"{h.get('rng', 'splitmix64')!r}; this hexnet replays only "
                               f"{rng.ALGORITHM!r} (use the hexnet version that wrote it)."])
    try:
        game = game or get_game(h["game"])
        seed, salt, claimed = bytes(h["seed"]), bytes(h["salt"]), str(h["commitment"])
        steps = [(s.get("seat"), s["action"], s.get("digest")) for s in contents.steps]
    except (KeyError, TypeError, ValueError) as exc:
        return Verdict(False, [f"The journal's header or steps are incomplete: {exc}"])
    outcome = contents.end.get("outcome") if contents.end else None
    verdict = verify_game(game, h["players"], h.get("options", {}), seed, salt, claimed, steps,
                          outcome)
    if contents.torn:
        verdict.lines.insert(0, "A torn last record (cut off mid-write) was ignored.")
    if contents.end is None:  # nothing to hold the play against: no verdict yet
        verdict.ok = False
        verdict.lines.append("The game in this journal has not finished: its result cannot "
                             "be checked yet.")
    return verdict


def run(args: argparse.Namespace) -> int:
    """Print the verdict; exit 0 when every check passed, 1 when one failed, 2 if unreadable."""
    try:
        contents = read_journal(args.journal)
    except JournalError as exc:
        print(f"hexnet verify: {exc}", file=sys.stderr)
        return 2
    verdict = verify_contents(contents)
    for line in verdict.lines:
        print(line)
    print("VERIFIED" if verdict.ok else "NOT VERIFIED")
    return 0 if verdict.ok else 1
