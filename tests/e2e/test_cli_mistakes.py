"""Command-line mistakes (issue 14, item 6): one clear line on stderr and a non-zero exit, never a
traceback — and a host that could not keep its journals refuses to start and says why. Every
command runs as a real process; one that would keep running is stopped by ``subprocess.run``'s
timeout (it kills that pid)."""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hexnet import rng
from hexnet.cli import build_parser
from hexnet.fairness import commitment, events_digest
from hexnet.games import get_game
from host.journal import Journal

pytestmark = pytest.mark.timeout(120)
HEXNET = [sys.executable, "-m", "hexnet.cli"]


def hexnet(*args: str, tmp: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp / "xdg-cfg"),
               XDG_DATA_HOME=str(tmp / "xdg-data"))
    return subprocess.run(HEXNET + list(args), capture_output=True, text=True, timeout=30,
                          env=env, check=False, stdin=subprocess.DEVNULL)


def one_clear_line(run: subprocess.CompletedProcess[str], *words: str) -> str:
    assert run.returncode == 2, run.stdout + run.stderr
    assert "Traceback" not in run.stderr and run.stderr.count("\n") == 1, run.stderr
    for word in words:
        assert word in run.stderr, run.stderr
    return run.stderr


def host_args(tmp: Path, *extra: str) -> list[str]:
    return ["host", "--headless", "--no-mdns", "--bind", "127.0.0.1", "--port", "0", *extra]


def test_host_with_a_data_dir_that_cannot_exist_says_so_in_one_line(tmp_path) -> None:
    run = hexnet(*host_args(tmp_path, "--data-dir", "/proc/x", "--config-dir",
                            str(tmp_path / "cfg")), tmp=tmp_path)
    one_clear_line(run, "hexnet host: cannot keep journals in /proc/x (--data-dir)",
                   "No such file or directory")


@pytest.mark.parametrize("flag,what", [("--data-dir", "journals"),
                                       ("--config-dir", "the host key")])
def test_host_with_a_file_for_a_directory_says_so_in_one_line(tmp_path, flag, what) -> None:
    a_file = tmp_path / "notes.txt"
    a_file.write_text("not a directory")
    other = "--config-dir" if flag == "--data-dir" else "--data-dir"
    run = hexnet(*host_args(tmp_path, flag, str(a_file), other, str(tmp_path / "other")),
                 tmp=tmp_path)
    one_clear_line(run, f"cannot keep {what} in {a_file} ({flag})",
                   "it is a file, not a directory")
    assert a_file.read_text() == "not a directory"


@contextlib.contextmanager
def read_only(folder: Path):
    """``folder`` made unwritable even for root (immutable), undone afterwards."""
    folder.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0:
        folder.chmod(0o500)
        try:
            yield
        finally:
            folder.chmod(0o700)
        return
    chattr = shutil.which("chattr")
    if chattr is None or subprocess.run([chattr, "+i", str(folder)], capture_output=True,
                                        check=False).returncode != 0:
        pytest.skip("no way to make a directory read-only for root here (chattr +i)")
    try:
        yield
    finally:
        subprocess.run([chattr, "-i", str(folder)], check=False)


def test_host_whose_journals_cannot_be_written_refuses_to_start(tmp_path) -> None:
    data = tmp_path / "data"
    (data / "journals").mkdir(parents=True, mode=0o700)
    data.chmod(0o700)
    with read_only(data / "journals"):
        run = hexnet(*host_args(tmp_path, "--data-dir", str(data), "--config-dir",
                                str(tmp_path / "cfg")), tmp=tmp_path)
    one_clear_line(run, f"cannot keep journals in {data} (--data-dir)")
    assert "ready" not in run.stdout


def test_play_refuses_zero_players_instead_of_playing_four(tmp_path) -> None:
    run = hexnet("play", "hexenhammer", "--players", "0", tmp=tmp_path)
    one_clear_line(run, "Hexenhammer takes 3–5 players, not 0.")


def test_play_interface_without_lan_is_refused(tmp_path) -> None:
    run = hexnet("play", "--interface", "127.0.0.1", tmp=tmp_path)
    one_clear_line(run, "--interface needs --lan")


@pytest.mark.parametrize(("args", "said"), [
    (["--option", "nope=1"], "hexnet play: --option: Hexenhammer has no option 'nope'."),
    (["--option", "panic_seconds=1"], "Option 'panic_seconds' must be 5–600"),
    (["--option", "panic_seconds"], "--option 'panic_seconds': give KEY=VALUE"),
    (["--tutorial", "--option", "panic_seconds=10"], "--option does not go with --tutorial"),
])
def test_play_refuses_a_table_option_outside_what_players_may_choose(tmp_path, args,
                                                                     said) -> None:
    one_clear_line(hexnet("play", "hexenhammer", *args, tmp=tmp_path), said)


def test_play_options_win_over_the_pace_and_the_plain_mode_is_relaxed() -> None:
    from hexnet.cli import build_parser
    from hexnet.cli.play import table_options

    parse = build_parser().parse_args
    assert table_options(parse(["play", "hexenhammer", "--pace", "quick", "--option",
                                "panic_seconds=10"])) == {"pace": "quick", "panic_seconds": 10}
    assert table_options(parse(["play", "fang", "--option", "deal=balanced"])) == {
        "deal": "balanced"}
    assert table_options(parse(["play", "hranice", "--plain"])) == {"pace": "relaxed"}
    assert table_options(parse(["play", "hranice"])) == {}


@pytest.mark.parametrize("delay", ["-1", "nan", "61"])
def test_a_bot_delay_outside_0_to_60_seconds_is_refused(tmp_path, delay) -> None:
    one_clear_line(hexnet("play", "--bot-delay", delay, tmp=tmp_path),
                   f"hexnet play: --bot-delay must be 0–60 seconds, not {delay}")
    run = hexnet(*host_args(tmp_path, "--bot-delay", delay), tmp=tmp_path)
    one_clear_line(run, f"hexnet host: --bot-delay must be 0–60 seconds, not {delay}")
    assert "ready" not in run.stdout


@pytest.mark.parametrize("idle", ["5", "-1", "nan", "3601"])
def test_an_idle_absent_outside_10_to_3600_seconds_or_0_is_refused(tmp_path, idle) -> None:
    run = hexnet(*host_args(tmp_path, "--idle-absent", idle), tmp=tmp_path)
    one_clear_line(run, "hexnet host: --idle-absent must be 10–3600 seconds or 0 (never), "
                        f"not {float(idle):g}")
    assert "ready" not in run.stdout


def test_idle_absent_is_off_for_a_party_and_two_minutes_for_a_tournament() -> None:
    from host.cli import idle_absent

    parse = build_parser().parse_args
    assert idle_absent(parse(["host"])) is None
    assert idle_absent(parse(["host", "--tournament", "swiss", "--game", "fang"])) == 120.0
    assert idle_absent(parse(["host", "--tournament", "swiss", "--game", "fang",
                              "--idle-absent", "0"])) is None
    assert idle_absent(parse(["host", "--idle-absent", "45"])) == 45.0


def test_verify_does_not_call_an_unfinished_journal_verified(tmp_path) -> None:
    engine = get_game("hexenhammer")
    players, seed, salt = ["ana", "ben", "cas"], 7, b"s" * 16
    path = tmp_path / "unfinished.journal"
    journal = Journal.create(path, {"game": "hexenhammer", "players": players, "options": {},
                                    "seed": rng.seed_bytes(seed), "salt": salt,
                                    "rng": rng.ALGORITHM,
                                    "commitment": commitment(seed, salt, {})})
    state = engine.setup(players, seed, {})
    moves = random.Random(seed)
    for _ in range(10):  # ten honest steps, then the host stops mid-game
        seat = moves.choice(engine.waiting_for(state))
        action = moves.choice(engine.legal_actions(state, seat))
        journal.append({"kind": "step", "seat": seat, "action": action,
                        "digest": events_digest(engine.apply(state, seat, action))})
    journal.close()
    run = hexnet("verify", str(path), tmp=tmp_path)
    assert run.returncode == 1, run.stdout + run.stderr
    assert run.stdout.splitlines()[-1] == "NOT VERIFIED"
    assert "has not finished" in run.stdout and "Traceback" not in run.stderr
