"""The crash drill as a test, for every game and several drill seeds (which decide when the
kills and the cut come): the host SIGKILLed twice and a client cut once during a bot game; the
game finishes, ``hexnet verify`` passes and a fresh replay gives the same result."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.pace import HOST_ARGS

DRILLS = [("hexenhammer", 6), ("hexenhammer", 2), ("fang", 1), ("fang", 4), ("hranice", 1),
          ("hranice", 3)]
# the drill checks recovery, not a secret step's pace: its host ticks them quickly
DRILL = [sys.executable, "-m", "host.drill", *HOST_ARGS]


@pytest.mark.slow
@pytest.mark.timeout(200)
@pytest.mark.parametrize("game,seed", DRILLS, ids=[f"{g}-{s}" for g, s in DRILLS])
def test_the_crash_drill_passes(tmp_path, game: str, seed: int) -> None:
    run = subprocess.run(DRILL + ["--game", game, "--seed",
                          str(seed), "--timeout", "150", "--keep", str(tmp_path)],
                         capture_output=True, text=True, timeout=190, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"crash drill: {game}, 4 bot clients, drill seed {seed}" in run.stdout
    last_game = run.stdout.split("too short to drill; another game")[-1]  # a deal may end early
    assert last_game.count("SIGKILL host pid") == 2
    assert last_game.count("recovered from") == 2
    assert "cut one bot's connection" in last_game
    assert "VERIFIED" in last_game and "NOT VERIFIED" not in last_game
    assert run.stdout.rstrip().splitlines()[-1].startswith("PASS: host killed twice")


@pytest.mark.slow
@pytest.mark.timeout(200)
def test_a_game_too_short_to_drill_is_set_aside_for_another(tmp_path) -> None:
    # a second kill at step 100000 comes in no game: each game is set aside, then the drill fails
    run = subprocess.run(DRILL + ["--game", "hranice", "--seed", "1",
                          "--steps", "3,5,100000", "--games", "2", "--timeout", "90",
                          "--keep", str(tmp_path)],
                         capture_output=True, text=True, timeout=190, check=False)
    assert run.returncode == 1, run.stdout + run.stderr
    assert run.stdout.count("the game ended before step 100000 (kill): too short to drill; "
                            "another game (game 2 of 2)") == 1
    assert run.stdout.count("SIGKILL host pid") == 2  # one kill in each game
    assert "FAIL: the game ended before step 100000 (kill)" in run.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game-1", "game-2"]


@pytest.mark.parametrize("steps,why", [("3,5", "three whole numbers"),
                                       ("5,3,9", "1 <= K1 < CUT < K2")])
def test_the_drill_refuses_steps_out_of_order(steps: str, why: str) -> None:
    run = subprocess.run(DRILL + ["--steps", steps],
                         capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 2
    assert why in run.stderr
