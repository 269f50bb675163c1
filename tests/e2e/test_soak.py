"""``python -m host.soak`` as a test: bot games of all three games over the network against a
real ``hexnet host --headless`` process, clients cut at random moments and reconnecting, every
journal verified, the host's memory reported — and a soak whose games cannot finish says FAIL."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.pace import SECRET_EVERY

SOAK = [sys.executable, "-m", "host.soak"]


@pytest.mark.slow
@pytest.mark.timeout(400)
def test_a_short_soak_plays_every_game_with_cuts_and_passes(tmp_path: Path) -> None:
    run = subprocess.run([*SOAK, "--games", "3", "--parallel", "3", "--cut-rate", "1",
                          "--seed", "3", "--game-timeout", "150", "--keep", str(tmp_path),
                          "--secret-every", str(SECRET_EVERY)],
                         capture_output=True, text=True, timeout=380, check=False)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert run.stdout.rstrip().endswith("SOAK PASS")
    last = [line for line in run.stdout.splitlines() if "3/3 games" in line][-1]
    assert "0 failed, 0 unverified, exceptions 0 (+0 host error lines)" in last
    cuts = int(re.search(r"cuts (\d+)", last).group(1))
    reconnects = int(re.search(r"reconnects (\d+)", last).group(1))
    assert reconnects >= cuts  # every cut client came back
    assert re.search(r"host RSS: start [\d.]+ MiB, after warm-up .* end [\d.]+ MiB, peak",
                     run.stdout)
    journals = sorted((tmp_path / "host_data" / "journals").glob("*.journal"))
    assert len(journals) == 3  # hexenhammer, fang, hranice: one table each


@pytest.mark.timeout(120)
def test_a_soak_whose_games_cannot_finish_fails(tmp_path: Path) -> None:
    run = subprocess.run([*SOAK, "--games", "1", "--parallel", "1", "--cut-rate", "0",
                          "--game-timeout", "0.01", "--keep", str(tmp_path)],
                         capture_output=True, text=True, timeout=110, check=False)
    assert run.returncode == 1, run.stdout
    assert run.stdout.rstrip().endswith("SOAK FAIL")
    assert "1/1 games, 1 failed" in run.stdout
    assert "failure: game 0 (hexenhammer)" in run.stdout


def test_a_soak_counts_a_journal_that_does_not_verify_and_one_that_is_missing(
        tmp_path: Path) -> None:
    """The soak's own journal check (the long soak above only ever meets honest journals): a
    finished journal whose winners were changed, and a table without a journal, are both
    counted as unverified and named."""
    from host.journal import Journal, read_journal
    from host.soak import Soak

    kept = read_journal(Path(__file__).parent.parent / "known_answers" / "hranice.journal")
    folder = tmp_path / "host_data" / "journals"
    folder.mkdir(parents=True)
    journal = Journal.create(folder / "20000101-000000-t7-abcdef.journal",
                             {k: v for k, v in kept.header.items() if k != "kind"})
    for step in kept.steps:
        journal.append(step)
    outcome = kept.end["outcome"]
    journal.append({"kind": "end", "outcome": {**outcome, "winners": [
        seat for seat in range(len(kept.header["players"])) if seat not in outcome["winners"]]}})
    journal.close()
    soak = Soak(tmp_path, games=2, parallel=1, cut_rate=0, seed=1, game_timeout=10)
    soak.check_journal(0, "hranice", 7)
    soak.check_journal(1, "fang", 8)
    assert soak.unverified == 2
    assert soak.failures[0].startswith("game 0 (hranice): journal does not verify: ")
    assert soak.failures[1] == "game 1 (fang): 0 journals for table 8"


@pytest.mark.parametrize("module", ["host.soak", "host.drill"])
def test_the_soak_and_the_drill_explain_every_flag(module: str) -> None:
    run = subprocess.run([sys.executable, "-m", module, "--help"], capture_output=True,
                         text=True, timeout=60, check=False)
    assert run.returncode == 0
    flags = re.findall(r"^  (--[a-z-]+)(.*)$", run.stdout, re.M)
    assert len(flags) >= 4
    lines = run.stdout.splitlines()
    for flag, rest in flags:  # help on the flag's line, or on the next one
        at = next(i for i, line in enumerate(lines) if line.startswith(f"  {flag}"))
        described = len(rest.split(maxsplit=1)) > 1 or lines[at + 1].startswith(" " * 10)
        assert described, f"{module} {flag} has no help text"
