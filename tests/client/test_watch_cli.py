"""``hexnet join HOST --watch TABLE`` as typed: real processes (a headless host, ``hexnet bot``
playing a table to its end, the client in tmux at 80×24), and the flag's clear refusals."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

from tests.client.test_tmux import HEXNET, Tmux
from tests.pace import HOST_ARGS


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_watch_without_a_host_is_a_clear_error() -> None:
    out = subprocess.run([str(HEXNET), "join", "--watch", "3"], capture_output=True, text=True,
                         timeout=30)
    assert out.returncode == 2
    assert out.stderr.strip() == "hexnet join: --watch needs a HOST to watch at"


@pytest.mark.parametrize("bad", ["0", "x", "-2"])
def test_watch_takes_a_table_number(bad: str) -> None:
    out = subprocess.run([str(HEXNET), "join", "127.0.0.1:1", "--watch", bad],
                         capture_output=True, text=True, timeout=30)
    assert out.returncode == 2
    assert "--watch" in out.stderr and "Traceback" not in out.stderr


def test_join_help_names_the_watch_flag() -> None:
    out = subprocess.run([str(HEXNET), "join", "--help"], capture_output=True, text=True,
                         timeout=30)
    assert out.returncode == 0 and "--watch TABLE" in out.stdout


@pytest.mark.mdns
@pytest.mark.timeout(400)  # deadlines for a loaded machine; the waits poll
@pytest.mark.needs("tmux")
def test_hexnet_join_watch_shows_the_watched_table_and_its_results(tmp_path: Path) -> None:
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "cfg"),
               XDG_DATA_HOME=str(tmp_path / "data"))
    port = free_port()
    log = open(tmp_path / "host.log", "w+")  # noqa: SIM115 - closed in finally
    host = subprocess.Popen([str(HEXNET), "host", "--headless", "--open", "--port", str(port),
                             "--bind", "127.0.0.1", "--interface", "127.0.0.1", "--name",
                             "Zuschauhaus", "--bot-delay", "0.05", *HOST_ARGS],
                            stdout=log, stderr=subprocess.STDOUT, env=env)
    tmux = None
    try:
        for _ in range(600):  # up to 60 s
            if "open host" in (tmp_path / "host.log").read_text():
                break
            assert host.poll() is None, (tmp_path / "host.log").read_text()
            time.sleep(0.1)
        else:
            raise AssertionError("the host never came up")
        bot = subprocess.run([str(HEXNET), "bot", f"127.0.0.1:{port}", "--game", "hranice",
                              "--count", "1", "--seats", "3"],
                             capture_output=True, text=True, env=env, timeout=180)
        assert bot.returncode == 0, bot.stderr
        table = re.search(r"table (\d+):", bot.stdout + bot.stderr)
        tid = table.group(1) if table else "1"
        tmux = Tmux(f"{HEXNET} join 127.0.0.1:{port} --watch {tid} --name Vera; "
                    "echo EXITED $?; sleep 30",
                    {"XDG_CONFIG_HOME": str(tmp_path / "cfg2"),
                     "XDG_DATA_HOME": str(tmp_path / "data2"), "NO_COLOR": "1",
                     "TERM": os.environ.get("TERM", "xterm-256color")})
        tmux.wait_for("trust this host", timeout=60)
        tmux.keys("y")
        screen = tmux.wait_for("Fair play", timeout=90)  # the results over the watched table
        assert "Traceback" not in screen
        tmux.keys("t")  # t: from the results to the watched table
        tmux.wait_for(f"WATCHING table #{tid}", "read-only", timeout=60)
        tmux.keys("C-q")
        assert "EXITED 0" in tmux.wait_for("EXITED", timeout=60)
    finally:
        if tmux is not None:
            tmux.kill()
        host.send_signal(signal.SIGTERM)
        try:
            host.wait(10)
        except subprocess.TimeoutExpired:
            host.kill()
            host.wait(5)
        log.close()
