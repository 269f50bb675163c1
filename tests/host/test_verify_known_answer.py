"""A known answer for ``hexnet verify``: a journal kept in the repository (a short game of
Hranice for 2, with its deal and die rolls) must keep verifying. It pins what a seed deals and
rolls: a change to ``hexnet/rng.py`` (or to a shuffle, or to the public events a step's digest
covers) makes every journal written before it unverifiable — this test says so loudly instead.

If such a change is *meant* (a new generator, events as data), regenerate the journal with one
command, and say in the change's description that older journals no longer verify:

    .venv/bin/python -m tests.known_answers.make_journal
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hexnet.cli import main
from host.journal import JournalContents, read_journal
from host.verify import verify_contents

JOURNAL = Path(__file__).resolve().parent.parent / "known_answers" / "hranice.journal"


def test_hexnet_verify_accepts_the_journal_kept_in_the_repository(capsys) -> None:
    assert main(["verify", str(JOURNAL)]) == 0
    out = capsys.readouterr().out.splitlines()
    steps = len(read_journal(JOURNAL).steps)
    assert out[1:] == [f"All {steps} steps replay with identical public events.",
                       "The replay ends with the same result.",
                       "Agreed options: variant tutorial.", "VERIFIED"]
    assert out[0].startswith("Commitment ") and out[0].endswith(
        "… matches the revealed seed and options.")


def test_the_kept_journal_deals_rolls_and_ends_as_recorded() -> None:
    contents = read_journal(JOURNAL)
    assert contents.header["game"] == "hranice" and contents.finished and not contents.torn
    kinds = {s["action"]["type"] for s in contents.steps}
    assert "accuse" in kinds  # a die was rolled: the digests pin the generator's rolls too
    assert verify_contents(contents).ok


@pytest.mark.parametrize("change", ["seed", "digest", "outcome"])
def test_the_kept_journal_changed_in_any_way_does_not_verify(change: str) -> None:
    contents = read_journal(JOURNAL)
    if change == "seed":  # another seed (and a commitment to match): other deal, other rolls
        from hexnet.fairness import commitment

        seed = bytes(contents.header["seed"])
        seed = bytes([seed[0] ^ 1]) + seed[1:]
        header = {**contents.header, "seed": seed,
                  "commitment": commitment(seed, bytes(contents.header["salt"]),
                                           contents.header["options"])}
        contents = JournalContents(header, contents.steps, contents.end)
    elif change == "digest":
        step = contents.steps[1]
        contents.steps[1] = {**step, "digest": "0" * len(step["digest"])}
    else:
        outcome = contents.end["outcome"]
        contents.end = {**contents.end, "outcome": {
            **outcome, "scores": [score + 1 for score in outcome["scores"]]}}
    assert not verify_contents(contents).ok


def test_the_regeneration_command_writes_a_journal_that_verifies(tmp_path: Path) -> None:
    from tests.known_answers.make_journal import play_and_journal

    contents = read_journal(play_and_journal(tmp_path))
    assert contents.finished and verify_contents(contents).ok
