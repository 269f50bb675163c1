"""``hexnet replay JOURNAL --plain``: the kept game stepped through by typed lines — each step
as the text replay says it, the table and the hand at a step, the result — and nothing but
lines."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from hexnet.record import Record
from protocol.journalfile import read_journal

pytestmark = pytest.mark.timeout(120)

HEXNET = Path(sys.executable).parent / "hexnet"
JOURNAL = Path(__file__).resolve().parents[1] / "replays" / "hexenhammer.journal"


def test_a_replay_is_stepped_through_by_typed_lines() -> None:
    typed = "\n".join(["", "next", "back", "table", "hand", "end", "results", "quit"]) + "\n"
    done = subprocess.run([str(HEXNET), "replay", str(JOURNAL), "--plain", "--as", "ada"],
                          input=typed, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    last = len(Record.from_journal(read_journal(JOURNAL)).steps)
    assert lines[0] == "Hexenhammer, 2023-11-14 22:13 UTC, as Ada"
    steps = [line for line in lines if line.startswith("Step ")]
    assert [s.split(":")[0] for s in steps] == [
        f"Step 0 of {last}", f"Step 1 of {last}", f"Step 2 of {last}", f"Step 1 of {last}",
        f"Step {last} of {last}"]
    assert any(line.startswith("Round 1. Phase 1 accusation") for line in lines)  # table
    assert any(line.startswith("1. ") and "You can use it now." not in line
               for line in lines)  # the hand (a replay offers no move)
    assert "Result: Ada wins (Ada 11, Bert 0, Cili 6)" in lines
    assert "\x1b" not in done.stdout
