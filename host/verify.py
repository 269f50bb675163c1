"""``hexnet verify JOURNAL``: replay a journal from its revealed seed and check every step."""

from __future__ import annotations

import argparse
import sys

from hexnet import rng
from hexnet.engine import Game
from hexnet.fairness import Verdict
from hexnet.record import Record, RecordError, verify_record
from protocol.journalfile import JournalContents, JournalError, read_journal


def verify_contents(contents: JournalContents, game: Game | None = None) -> Verdict:
    """Check a parsed journal: commitment, every step's public events, and the final result
    (:func:`hexnet.record.verify_record`). ``game`` defaults to the registered engine the header
    names."""
    h = contents.header
    if h.get("rng") != rng.ALGORITHM:
        return Verdict(False, [f"This journal was written with the generator "
                               f"{h.get('rng', 'splitmix64')!r}; this hexnet replays only "
                               f"{rng.ALGORITHM!r} (use the hexnet version that wrote it)."])
    try:
        record = Record.from_journal(contents)
    except RecordError as exc:
        return Verdict(False, [f"The journal's header or steps are incomplete: {exc}"])
    verdict = verify_record(record, game)
    if not record.finished:  # nothing to hold the play against yet: no verdict
        verdict.ok = False
        verdict.lines.append("Its result cannot be checked before its end.")
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
