"""Progress on long runs: a bar redrawn in place on a terminal, plain tenths with --progress
into a file, nothing otherwise."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time

import pytest

from hexnet.cli import main


def test_selfplay_is_quiet_on_stderr_when_it_is_no_terminal(capsys):
    assert main(["selfplay", "--game", "hranice", "--players", "2", "--games", "5",
                 "--workers", "1"]) == 0
    assert capsys.readouterr().err == ""


def test_progress_flag_writes_a_line_at_every_tenth_when_stderr_is_no_terminal(capsys):
    assert main(["selfplay", "--game", "hranice", "--players", "2", "--games", "20",
                 "--workers", "1", "--progress"]) == 0
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 10
    assert [line.split("] ")[1].split(" games")[0] for line in lines] == [
        f"{2 * i}/20" for i in range(1, 11)]
    assert lines[-1].startswith("[########################] 20/20 games  100%")


@pytest.mark.timeout(120)
def test_on_a_terminal_the_bar_is_redrawn_in_place_and_log_lines_print_above_it():
    controller, terminal = os.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "hexnet.cli", "tournament", "--game", "hranice", "--players",
         "2", "--bots", "random,random,random,random", "--format", "round-robin",
         "--workers", "1"], stdout=subprocess.PIPE, stderr=terminal, text=True)
    os.close(terminal)
    seen = b""
    deadline = time.monotonic() + 100
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([controller], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(controller, 4096)
                except OSError:  # the terminal closed: the command ended
                    break
                if not chunk:
                    break
                seen += chunk
            elif proc.poll() is not None:
                break
        out = proc.communicate(timeout=30)[0]
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(controller)
    assert proc.returncode == 0
    text = seen.decode()
    assert "\r\x1b[K[" in text and "6/6 tables  100%" in text and text.endswith("\n")
    assert out.count("round ") == 6 and "Standings after 3 rounds" in out
