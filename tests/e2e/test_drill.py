"""The crash drill as a test, for every game and several drill seeds (which decide when the
kills and the cut come): the host SIGKILLed twice and a client cut once during a bot game; the
game finishes, ``hexnet verify`` passes and a fresh replay gives the same result."""

from __future__ import annotations

import subprocess
import sys

import pytest

DRILLS = [("hexenhammer", 6), ("hexenhammer", 2), ("fang", 1), ("fang", 4), ("hranice", 1),
          ("hranice", 3)]


@pytest.mark.slow
@pytest.mark.timeout(200)
@pytest.mark.parametrize("game,seed", DRILLS, ids=[f"{g}-{s}" for g, s in DRILLS])
def test_the_crash_drill_passes(tmp_path, game: str, seed: int) -> None:
    run = subprocess.run([sys.executable, "-m", "host.drill", "--game", game, "--seed",
                          str(seed), "--timeout", "150", "--keep", str(tmp_path)],
                         capture_output=True, text=True, timeout=190, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"crash drill: {game}, 4 bot clients, drill seed {seed}" in run.stdout
    assert run.stdout.count("SIGKILL host pid") == 2
    assert run.stdout.count("recovered from") == 2
    assert "cut one bot's connection" in run.stdout
    assert "VERIFIED" in run.stdout and "NOT VERIFIED" not in run.stdout
    assert run.stdout.rstrip().splitlines()[-1].startswith("PASS: host killed twice")
