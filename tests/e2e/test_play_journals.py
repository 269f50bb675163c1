"""A ``hexnet play`` game is journaled in its own place and never served by ``hexnet host``
(issue 26, item 2): a local game quit half-way used to come back as a table of the next
``hexnet host`` on the machine — in every guest's lobby, played out by bots on the host's CPU —
and a tournament host took one in too. Real processes: ``hexnet play`` in tmux (quit with the
game running), then ``hexnet host --headless`` on the same data directory; ``hexnet replay
--list`` still finds the game."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from protocol.journalfile import JournalError, read_journal
from tests.client.test_tmux import Tmux, tmux_env
from tests.pace import HOST_ARGS
from tests.waiting import eventually_sync

pytestmark = [pytest.mark.timeout(120), pytest.mark.needs("tmux")]
HEXNET = [sys.executable, "-m", "hexnet.cli"]



def steps_played(tmp: Path) -> int:
    """The moves in the journal of the ``hexnet play`` game (0 while it has none yet)."""
    try:
        (journal,) = (tmp / "data" / "hexnet" / "play" / "journals").glob("*.journal")
        return len(read_journal(journal).steps)
    except (ValueError, JournalError):  # (none yet, or its header not yet written)
        return 0


def quit_a_local_game_half_way(tmp: Path) -> None:
    """``hexnet play hranice``: the table comes up, the game runs, Ctrl+Q, y."""
    tmux = Tmux(" ".join(HEXNET) + " play hranice --name Ada --seed 3 --bot-delay 0.2; "
                "echo EXITED $?; sleep 30", tmux_env(tmp))
    try:
        tmux.wait_for("Hranice #", timeout=40)
        eventually_sync(lambda: steps_played(tmp) >= 2, "a few moves in the game's journal")
        tmux.keys("C-q")
        tmux.wait_for("Quit hexnet?")
        tmux.keys("y")
        tmux.wait_for("EXITED 0")
    finally:
        tmux.kill()


def host_log(tmp: Path, *extra: str) -> str:
    """``hexnet host --headless`` on the same directories: its log until it is ready."""
    env = {**os.environ, **tmux_env(tmp)}
    log_path = tmp / "host.log"
    with log_path.open("w") as log:
        host = subprocess.Popen(HEXNET + ["host", "--headless", "--no-mdns", "--bind",
                                          "127.0.0.1", "--port", "0", *HOST_ARGS, *extra],
                                stdout=log, stderr=subprocess.STDOUT, env=env)
        try:
            end = time.monotonic() + 60
            while "ready on" not in log_path.read_text() and time.monotonic() < end:
                assert host.poll() is None, log_path.read_text()
                time.sleep(0.1)
        finally:
            host.terminate()
            host.wait(timeout=30)
    return log_path.read_text()


@pytest.mark.parametrize("event", [[], ["--tournament", "swiss", "--game", "hranice",
                                        "--start-when", "8"]], ids=["party", "tournament"])
def test_a_quit_hexnet_play_game_is_never_a_table_of_hexnet_host(tmp_path, event) -> None:
    quit_a_local_game_half_way(tmp_path)
    log = host_log(tmp_path, *event)
    assert "ready on 127.0.0.1:" in log, log
    assert "recovered" not in log and "still seating" not in log, log
    listed = subprocess.run(HEXNET + ["replay", "--list"], capture_output=True, text=True,
                            timeout=60, env={**os.environ, **tmux_env(tmp_path)}).stdout
    assert "Hranice  Ada, " in listed and "running or unfinished" in listed, listed
    assert str(tmp_path / "data" / "hexnet" / "play" / "journals") in listed, listed
