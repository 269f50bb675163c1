"""The hostile-room drill (issue 23) as a test: ``hexnet drill --hostile`` runs every attack at
once against one ``hexnet host`` at 256 descriptors — slowloris on the web door, key-only SSH
sessions with resize storms, wrong codes from the honest player's own address, 100 throwaway
keys making tables and entering the tournament, a seated player flooding every kind of request —
and the honest player still gets in within 2 s and plays to the end; the attacked table's other
seat gets no more frames than one player's budget allows; the host stays under its limit and
logs no internal error. ``hexnet drill`` without ``--hostile`` is the crash drill."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

HEXNET = [sys.executable, "-m", "hexnet.cli"]


@pytest.mark.slow
@pytest.mark.timeout(300)
@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="counts descriptors in /proc")
@pytest.mark.skipif(importlib.util.find_spec("asyncssh") is None
                    or importlib.util.find_spec("textual_serve") is None,
                    reason="needs hexnet[web,ssh] for the doors' attacks")
def test_the_hostile_room_drill_passes(tmp_path) -> None:
    run = subprocess.run(HEXNET + ["drill", "--hostile", "--keep", str(tmp_path)],
                         capture_output=True, text=True, timeout=280, check=False)
    out = run.stdout
    assert run.returncode == 0, out + run.stderr
    assert out.rstrip().splitlines()[-1].startswith("PASS: every door attacked at once")
    connect = float(re.search(r"honest player: connected in ([\d.]+) s", out).group(1))
    assert connect <= 2.0
    assert re.search(r"honest game: over after [\d.]+ s", out)
    frames, allowed = map(int, re.search(
        r"other seat: (\d+) frames.*one player's budget allows (\d+)\)", out).groups())
    assert frames <= allowed
    most = int(re.search(r"host: at most (\d+) of 256 descriptors", out).group(1))
    assert most < 256
    assert re.search(r"SSH door: 8 key-only sessions, \d+ window changes", out)
    assert re.search(r"wrong codes from 127\.0\.0\.1: \d+ sent, .* 0 let in", out)
    # 16 new keys an hour from each of the 5 addresses; 6 tables and 2 entrants from each
    keys_in, refused, tables, entrants = map(int, re.search(
        r"throwaway keys: (\d+) of 100 in, (\d+) refused; \d+ tables asked for, the host "
        r"holds (\d+) in all; (\d+) tournament entrants, the event did not start", out).groups())
    assert keys_in + refused == 100 and keys_in <= 5 * 16
    assert tables <= 5 * 6 + 2 and entrants <= 5 * 2
    log = (tmp_path / "host.log").read_text()
    assert "Traceback" not in log and "internal error" not in log, log[-3000:]


def test_hexnet_drill_without_hostile_is_the_crash_drill() -> None:
    run = subprocess.run(HEXNET + ["drill", "--steps", "5,3,9"], capture_output=True,
                         text=True, timeout=60, check=False)
    assert run.returncode == 2
    assert "1 <= K1 < CUT < K2" in run.stderr
