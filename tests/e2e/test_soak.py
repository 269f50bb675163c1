"""``python -m host.soak`` as a test: bot games of all three games over the network against a
real ``hexnet host --headless`` process, clients cut at random moments and reconnecting, every
journal verified, the host's memory reported — and a soak whose games cannot finish says FAIL."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

SOAK = [sys.executable, "-m", "host.soak"]


@pytest.mark.slow
@pytest.mark.timeout(400)
def test_a_short_soak_plays_every_game_with_cuts_and_passes(tmp_path: Path) -> None:
    run = subprocess.run([*SOAK, "--games", "3", "--parallel", "3", "--cut-rate", "1",
                          "--seed", "3", "--game-timeout", "150", "--keep", str(tmp_path)],
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
