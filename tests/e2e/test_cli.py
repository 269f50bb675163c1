"""The commands themselves: ``hexnet host --headless`` in the background, ``hexnet list`` and
``hexnet bot`` against it; every process stopped by pid."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys

import pytest

from tests.pace import HOST_ARGS
from tests.waiting import eventually_sync

pytestmark = pytest.mark.timeout(120)
HEXNET = [sys.executable, "-m", "hexnet.cli"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.mdns
def test_host_list_and_bot_commands_play_a_game(tmp_path) -> None:
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "cfg"),
               XDG_DATA_HOME=str(tmp_path / "data"))
    port = free_port()
    log = open(tmp_path / "host.log", "w+")  # noqa: SIM115 - closed in finally
    host = subprocess.Popen(HEXNET + ["host", "--headless", "--port", str(port), "--bind",
                                      "127.0.0.1", "--interface", "127.0.0.1", "--name",
                                      "cli test", *HOST_ARGS],
                            stdout=log, stderr=subprocess.STDOUT, env=env)
    try:
        def room_code() -> str | None:
            text = (tmp_path / "host.log").read_text()
            assert host.poll() is None, text
            m = re.search(r"room code ([0-9A-Z]{5}-[0-9A-Z]{5})", text)
            return m.group(1) if m and "ready on" in text else None

        code = eventually_sync(room_code, "the host printing its room code")
        def listed() -> bool:  # each run listens 2 s; a loaded machine may need a few
            run = subprocess.run(HEXNET + ["list", "--interface", "127.0.0.1", "--timeout",
                                           "2"], capture_output=True, text=True, env=env,
                                 timeout=30)
            assert run.returncode == 0, run
            return any(line.startswith(f"cli test  127.0.0.1:{port}  ")
                       and "hexenhammer" in line for line in run.stdout.splitlines())

        eventually_sync(listed, "hexnet list showing the host", seconds=60)
        bot = subprocess.run(HEXNET + ["bot", f"127.0.0.1:{port}", "--game", "hexenhammer",
                                       "--count", "4", "--code", code],
                             capture_output=True, text=True, env=env, timeout=90)
        assert bot.returncode == 0, bot.stderr
        assert re.search(r"p50 [\d.]+ ms, p99 [\d.]+ ms", bot.stdout), bot.stdout
        wrong = subprocess.run(HEXNET + ["bot", f"127.0.0.1:{port}", "--game", "hexenhammer",
                                         "--count", "1", "--code", "00000-00000"],
                               capture_output=True, text=True, env=env, timeout=30)
        assert wrong.returncode == 1 and "room code" in wrong.stderr
    finally:
        host.send_signal(signal.SIGTERM)
        try:
            host.wait(10)
        except subprocess.TimeoutExpired:
            host.kill()
            host.wait(5)
        log.close()
    assert host.returncode == 0
    assert "stopping" in (tmp_path / "host.log").read_text()
