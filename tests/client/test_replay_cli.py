"""``hexnet replay`` on the command line: the kept journal as text (in two languages), the list
of journals, and every refusal — a running game's --all, an unknown seat, a forged journal."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hexnet.record import Record
from protocol.journalfile import read_journal
from tests.replays.games import write_journal

pytestmark = pytest.mark.timeout(120)

HEXNET = Path(sys.executable).parent / "hexnet"
KEPT = Path(__file__).resolve().parents[1] / "replays"
JOURNAL = KEPT / "hexenhammer.journal"


def hexnet(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(HEXNET), *args], capture_output=True, text=True, timeout=60,
                          env=env)


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_text_prints_the_kept_game_line_by_line(lang):
    done = hexnet("replay", str(JOURNAL), "--text", "--lang", lang)
    assert done.returncode == 0, done.stderr
    assert done.stdout == (KEPT / f"hexenhammer.{lang}.txt").read_text("utf-8")


def test_text_starts_with_the_check_and_ends_with_the_result():
    lines = hexnet("replay", str(JOURNAL), "--text", "--lang", "en").stdout.splitlines()
    record = Record.from_journal(read_journal(JOURNAL))
    assert lines[0] == "# Hexenhammer · 2023-11-14 22:13 UTC · public view"
    assert lines[1] == "# Players: 0 Ada, 1 Bert, 2 Cili"
    assert lines[3] == f"# All {len(record.steps)} steps replay with identical public events."
    assert lines[-1] == "# Result: Ada wins (Ada 11, Bert 0, Cili 6)"
    numbered = [line for line in lines if line[:4].strip().isdigit()]
    assert len(numbered) == len(record.steps) + 1  # the deal, then one line per action


def test_a_seat_reads_its_own_private_lines_and_the_public_does_not():
    public = hexnet("replay", str(JOURNAL), "--text").stdout
    as_ada = hexnet("replay", str(JOURNAL), "--text", "--as", "ada").stdout
    assert "You draw" not in public
    assert "You draw" in as_ada and "# Hexenhammer · 2023-11-14 22:13 UTC · as Ada" in as_ada


def _running(tmp_path: Path, steps: int = 25) -> Path:
    record = Record.from_journal(read_journal(JOURNAL))
    record.steps, record.outcome, record.finished = record.steps[:steps], None, False
    return write_journal(tmp_path / "journals" / "20231115-running.journal", record)


def test_a_running_game_replays_only_up_to_now_and_never_all_seeing(tmp_path):
    running = _running(tmp_path)
    refused = hexnet("replay", str(running), "--all", "--text")
    assert refused.returncode == 2 and refused.stdout == ""
    assert "this game has not finished: --all shows every hand only after the end" in (
        refused.stderr)
    as_bert = hexnet("replay", str(running), "--as", "1", "--text")
    assert as_bert.returncode == 0, as_bert.stderr
    lines = as_bert.stdout.splitlines()
    assert lines[-1] == "# The game has not finished (25 steps so far)."
    assert "  Cili acts" in as_bert.stdout  # what others did stays hidden until the end
    assert "The game in this journal has not finished." in as_bert.stdout


def test_list_shows_each_journal_with_game_date_players_and_result(tmp_path):
    folder = tmp_path / "journals"
    folder.mkdir()
    shutil.copy(JOURNAL, folder / "20231114-finished.journal")
    _running(tmp_path)
    (folder / "broken.journal").write_bytes(b"not a journal")
    done = hexnet("replay", "--list", "--data-dir", str(tmp_path))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines == [
        f"?  not a readable journal: not a hexnet journal (bad magic line)  "
        f"{folder / 'broken.journal'}",
        "2023-11-14 22:13 UTC  Hexenhammer  Ada, Bert, Cili  Ada wins (Ada 11, Bert 0, "
        f"Cili 6)  {folder / '20231114-finished.journal'}",
        "2023-11-14 22:13 UTC  Hexenhammer  Ada, Bert, Cili  running or unfinished, 25 steps"
        f"  {folder / '20231115-running.journal'}",
    ]


def test_list_in_an_empty_data_dir_says_so(tmp_path):
    done = hexnet("replay", "--list", "--data-dir", str(tmp_path))
    assert done.returncode == 0 and done.stdout == ""
    assert (f"no journals in {tmp_path / 'journals'} or {tmp_path / 'play' / 'journals'}"
            in done.stderr)


@pytest.mark.parametrize(("args", "says"), [
    (["--as", "Zoe"], "no seat 'Zoe' at this table; the seats are 0 Ada, 1 Bert, 2 Cili"),
    (["--as", "7"], "no seat '7' at this table"),
    (["--list"], "--list takes no journal and no other option"),
])
def test_bad_command_lines_are_refused_with_a_sentence(args, says):
    done = hexnet("replay", str(JOURNAL), *args)
    assert done.returncode == 2 and says in done.stderr and "Traceback" not in done.stderr


def test_no_journal_and_a_missing_journal_are_refused(tmp_path):
    assert "name a journal (hexnet replay --list shows them)" in hexnet("replay").stderr
    missing = hexnet("replay", str(tmp_path / "nope.journal"), "--text")
    assert missing.returncode == 2 and "cannot read" in missing.stderr


def test_a_forged_journal_fails_the_check_and_is_not_replayed(tmp_path):
    record = Record.from_journal(read_journal(JOURNAL))
    record.seed += 1  # a host revealing another seed than it committed to
    forged = write_journal(tmp_path / "forged.journal", record)
    done = hexnet("replay", str(forged), "--text")
    assert done.returncode == 2 and done.stdout == ""
    assert "the journal fails the check, it is not replayed" in done.stderr


def test_the_replay_command_reads_journals_without_the_host_room():
    code = ("import sys; from client.replay import run; from client.replay import app, screen, "
            "journals, text, launch; assert not [m for m in sys.modules "
            "if m == 'host' or m.startswith('host.')], sorted(sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
