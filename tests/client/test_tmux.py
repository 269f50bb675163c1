"""``hexnet play`` in a real terminal (tmux, 80×24, NO_COLOR): the table comes up, keys work,
Ctrl+Q asks once while the game runs, then quits cleanly."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

pytestmark = [pytest.mark.timeout(60), pytest.mark.needs("tmux")]

HEXNET = Path(sys.executable).parent / "hexnet"


def tmux_env(tmp: Path) -> dict[str, str]:
    """A terminal's environment for a test: its own config and data, no colour; the checkout
    under test when PYTHONPATH names one (not the installed one)."""
    env = {"XDG_CONFIG_HOME": str(tmp / "cfg"), "XDG_DATA_HOME": str(tmp / "data"),
           "NO_COLOR": "1", "TERM": os.environ.get("TERM", "xterm-256color")}
    if os.environ.get("PYTHONPATH"):
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    return env


class Tmux:
    """One tmux server on its own socket, holding one 80×24 session."""

    def __init__(self, command: str, env: dict[str, str]) -> None:
        self.socket = f"hexnet-test-{uuid.uuid4().hex[:8]}"
        args = ["new-session", "-d", "-x", "80", "-y", "24"]
        for key, value in env.items():
            args += ["-e", f"{key}={value}"]
        self.run(*args, command)

    def run(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], check=True, timeout=10,
                              capture_output=True, text=True).stdout

    def screen(self) -> str:
        return self.run("capture-pane", "-p")

    def keys(self, *keys: str) -> None:
        self.run("send-keys", *keys)

    def wait_for(self, *texts: str, timeout: float = 20.0, times: int = 1) -> str:
        """The screen once every one of ``texts`` is on it at least ``times`` times (a terminal
        is repainted piece by piece: one line present does not mean the screen is finished)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            screen = self.screen()
            if all(screen.count(text) >= times for text in texts):
                return screen
            time.sleep(0.2)
        raise AssertionError(f"{texts!r} never all appeared {times}×; the screen:\n"
                             f"{self.screen()}")

    def kill(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], timeout=10,
                       capture_output=True)


def test_hexnet_play_shows_the_table_and_quits(tmp_path: Path) -> None:
    env = {"XDG_CONFIG_HOME": str(tmp_path / "cfg"), "XDG_DATA_HOME": str(tmp_path / "data"),
           "NO_COLOR": "1", "TERM": os.environ.get("TERM", "xterm-256color")}
    tmux = Tmux(f"{HEXNET} play --name Ada --seed 5; echo EXITED $?; sleep 30", env)
    try:
        tmux.wait_for("Hexenhammer #", "Villager", "Suspicion")
        tmux.wait_for(" you ", times=3)  # Ada's three villagers
        tmux.keys("?")
        tmux.wait_for("Help — Hexenhammer")
        tmux.keys("Escape")
        tmux.wait_for("Villager")
        tmux.keys("C-q")  # the game runs: asked once
        tmux.wait_for("Quit hexnet?")
        tmux.keys("y")
        tmux.wait_for("EXITED 0")
    finally:
        tmux.kill()


@pytest.mark.mdns
def test_play_lan_and_join_keep_to_the_interface_they_are_given(tmp_path: Path) -> None:
    """Issue 14, item 8: ``hexnet play --lan --interface`` advertises on that address only, and
    ``hexnet join --interface`` looks for hosts there (mDNS on 127.0.0.1, real terminals)."""
    env = {"XDG_CONFIG_HOME": str(tmp_path / "cfg"), "XDG_DATA_HOME": str(tmp_path / "data"),
           "NO_COLOR": "1", "TERM": os.environ.get("TERM", "xterm-256color")}
    host = Tmux(f"{HEXNET} play --name Lana --lan --interface 127.0.0.1 --policy heuristic; "
                "sleep 30", env)
    join = None
    try:
        host.wait_for("1/4 Lana, —")  # with --lan the table waits in the lobby for friends
        listed = ""
        for _ in range(5):  # bounded: the announcement may take a moment to be heard
            listed = subprocess.run([str(HEXNET), "list", "--interface", "127.0.0.1",
                                     "--timeout", "3"], capture_output=True, text=True,
                                    timeout=30, env={**os.environ, **env}).stdout
            if "Lana's table" in listed:
                break
        assert "Lana's table  127.0.0.1:" in listed, listed
        join = Tmux(f"{HEXNET} join --interface 127.0.0.1 --name Jo "
                    f"--config-dir {tmp_path / 'jo'}; sleep 30", env)
        screen = join.wait_for("Hosts on your network", "Lana's table", timeout=30)
        assert "127.0.0.1:" in screen
    finally:
        host.kill()
        if join is not None:
            join.kill()
