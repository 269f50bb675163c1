"""A full game of each title, by keys alone, in a real terminal (tmux, 80×24, NO_COLOR):
``hexnet play`` against its bots until the results screen shows.

The keys are a seeded random stream of the keys the table answers to (for Fang with the cursor
keys, so the chief's proposal gets built) — one key at a time, the screen read between keys. The
game must reach its results screen without the client crashing (a traceback ends ``hexnet play``
early) or a table screen closing itself. Bounded: a key count and a deadline per game.
"""

from __future__ import annotations

import os
import random
import time
from pathlib import Path

import pytest

from tests.client.test_tmux import HEXNET, Tmux
from tests.pace import SECRET_EVERY

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900), pytest.mark.needs("tmux")]

GAMES = {  # game: (players, the keys to draw from, seed, table options)
    # Hexenhammer's panic at its shortest pace is 30 s a round, six rounds: a 10 s panic (the
    # bots' pause in it shortened alike) and 2 s windows play the same game in half the time
    "hexenhammer": (3, ["p", "d", "Enter"], 4, ["panic_seconds=10", "reaction_seconds=2"]),
    "hranice": (3, ["d", "p", "Enter", "e"], 4, ["reaction_seconds=2"]),
    "fang": (4, ["p", "Enter", "Down", "Up", "y"], 4, []),
}
DEADLINE = 840.0  # seconds per game (heuristic bots, 0.05 s a move: search bots would think
# 0.5 s more a move, and the test is about the client)
MAX_KEYS = 6000
TITLES = {"hexenhammer": "Hexenhammer #", "hranice": "Hranice #", "fang": "Fang #"}


@pytest.mark.parametrize("game", list(GAMES))
def test_a_full_game_reaches_its_results_by_keys_alone(game: str, tmp_path: Path) -> None:
    players, keys, seed, options = GAMES[game]
    env = {"XDG_CONFIG_HOME": str(tmp_path / "cfg"), "XDG_DATA_HOME": str(tmp_path / "data"),
           "NO_COLOR": "1", "TERM": os.environ.get("TERM", "xterm-256color")}
    tmux = Tmux(f"{HEXNET} play {game} --players {players} --name Ada --seed {seed} "
                f"--policy heuristic --pace quick --bot-delay 0.05 --secret-every {SECRET_EVERY} "
                + "".join(f"--option {option} " for option in options) + "; "
                "echo EXITED $?; sleep 60", env)
    rng = random.Random(seed)
    try:
        tmux.wait_for(TITLES[game], timeout=30)
        end = time.monotonic() + DEADLINE
        screen = tmux.screen()
        for _ in range(MAX_KEYS):
            screen = tmux.screen()
            if "game over" in screen.lower() or "EXITED" in screen or time.monotonic() > end:
                break
            tmux.keys(rng.choice(keys))
            time.sleep(0.1)  # one key at a time: the next is chosen after the screen moved
        assert "Traceback" not in screen and "EXITED" not in screen, screen
        assert "game over" in screen.lower(), f"no results screen; the screen:\n{screen}"
        assert "wins" in screen or "win" in screen.lower(), screen
    finally:
        tmux.kill()
