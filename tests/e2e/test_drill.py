"""The crash drill as a test: the host SIGKILLed twice and a client cut once during a bot game;
the game finishes, ``hexnet verify`` passes and a fresh replay gives the same result."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.timeout(70)
def test_the_crash_drill_passes(tmp_path) -> None:
    run = subprocess.run([sys.executable, "-m", "host.drill", "--seed", "6", "--timeout", "55",
                          "--keep", str(tmp_path)],
                         capture_output=True, text=True, timeout=65, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "PASS" in run.stdout
    assert run.stdout.count("SIGKILL host pid") == 2
    assert "cut one bot's connection" in run.stdout
    assert "VERIFIED" in run.stdout
