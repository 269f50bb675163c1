"""``hexnet stats`` and ``hexnet db rebuild`` as real processes (issue 28): the leaderboard,
its CSV, forgetting with and without asking, merging hosts' journals, and every command-line
mistake in one line with exit 2."""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

import pytest

from host.club.games import fingerprint
from tests.club.evening import DOZEN, dozen, identity
from tests.club.test_index import doctored
from tests.e2e.test_cli_mistakes import hexnet, one_clear_line

pytestmark = pytest.mark.timeout(180)


@pytest.fixture(scope="module")
def evening(tmp_path_factory) -> list[Path]:
    return dozen(tmp_path_factory.mktemp("evening"))


@pytest.fixture
def data(evening, tmp_path) -> Path:
    folder = tmp_path / "data" / "journals"
    folder.mkdir(parents=True)
    for path in evening:
        shutil.copy2(path, folder / path.name)
    return tmp_path / "data"


def test_stats_prints_each_games_leaderboard_best_ordinal_first(data, tmp_path) -> None:
    run = hexnet("stats", "--data-dir", str(data), tmp=tmp_path)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert [line for line in lines if " — " in line] == [
        "Fang — 9 rated", "Hexenhammer — 7 rated", "Hranice — 7 rated"]
    assert lines[1].split() == ["#", "player", "key", "games", "wins", "rating", "ordinal"]
    ordinals = [float(line.split()[-1]) for line in lines[2:11]]
    assert ordinals == sorted(ordinals, reverse=True)
    ada = next(line for line in lines[2:11] if " Ada " in line)
    assert fingerprint(identity("Ada"))[:12] in ada and "±" in ada
    assert "built from the journals: 12 games indexed" in run.stderr


def test_stats_csv_and_game_and_since_choose_the_rows(data, tmp_path) -> None:
    run = hexnet("stats", "--data-dir", str(data), "--csv", "--game", "hranice", tmp=tmp_path)
    rows = list(csv.DictReader(io.StringIO(run.stdout)))
    assert run.returncode == 0 and {r["game"] for r in rows} == {"hranice"} and len(rows) == 7
    ada = next(r for r in rows if r["name"] == "Ada")
    assert ada["key"] == fingerprint(identity("Ada")) and ada["games"] == "3"
    assert float(ada["ordinal"]) == pytest.approx(float(ada["mu"]) - 3 * float(ada["sigma"]),
                                                  abs=1e-5)
    # the evening's games end 2026-01-01 20:50 UTC onwards, ten minutes apart: since the
    # 10th game only the last three are rated
    since = hexnet("stats", "--data-dir", str(data), "--csv", "--since",
                   "2026-01-02T22:30:00+00:00", tmp=tmp_path)
    assert since.returncode == 0 and since.stdout.count("\n") == 1  # the header only
    late = hexnet("stats", "--data-dir", str(data), "--csv", "--since",
                  "2026-01-01T22:20:00+00:00", tmp=tmp_path)
    games = {(r["game"], r["name"]): r["games"] for r in csv.DictReader(io.StringIO(late.stdout))}
    assert games == {(g, w): "1" for g, who, _ in DOZEN[9:] for w in who}


def test_forget_asks_first_and_yes_forgets_for_good(data, tmp_path) -> None:
    ada = fingerprint(identity("Ada"))
    asked = hexnet("stats", "--data-dir", str(data), "--forget", ada[:10], tmp=tmp_path)
    one_clear_line(asked, "hexnet stats: forgetting a player asks first: run it at a terminal, "
                          "or add --yes")
    done = hexnet("stats", "--data-dir", str(data), "--forget", ada[:10], "--yes", tmp=tmp_path)
    assert done.returncode == 0, done.stderr
    played = sum("Ada" in who for _, who, _ in DOZEN)
    assert done.stdout.startswith(f"Forgot Ada ({ada[:12]}…): {played} games anonymised")
    (data / "club" / "club.db").unlink()
    rebuilt = hexnet("db", "rebuild", "--data-dir", str(data), tmp=tmp_path)
    assert rebuilt.returncode == 0, rebuilt.stderr
    board = hexnet("stats", "--data-dir", str(data), "--csv", tmp=tmp_path).stdout
    assert ada not in board and "Ada" not in board and "Bert" in board


def test_db_rebuild_merges_hosts_and_names_a_doctored_journal(evening, tmp_path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    for path in evening[:7]:
        shutil.copy2(path, one / path.name)
    for path in evening[4:]:
        shutil.copy2(path, two / path.name)
    bad = doctored(evening[0], two / "doctored.journal")
    run = hexnet("db", "rebuild", str(one), str(two), "--data-dir", str(tmp_path / "data"),
                 tmp=tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().endswith(
        "club.db: 12 games indexed, 3 duplicates, 0 skipped, 1 refused")
    assert run.stderr.strip() == (f"journal {bad}: not counted: does not verify: The replay "
                                  "ends with a different result.")


@pytest.mark.parametrize("args,words", [
    (["stats", "--game", "chess"], "hexnet stats: argument --game: invalid choice: 'chess'"),
    (["stats", "--since", "soon"], "hexnet stats: --since takes a date (2026-01-31)"),
    (["stats", "--bogus"], "hexnet stats: unrecognized arguments: --bogus"),
    (["stats", "--yes"], "hexnet stats: --yes goes with --forget"),
    (["stats", "--forget", "abc", "--csv"], "hexnet stats: --forget takes no other option"),
    (["stats", "--forget", "abc", "--yes"], "hexnet stats: no player 'abc' in"),
    (["db"], "hexnet db: the following arguments are required: ACTION"),
    (["db", "compact"], "hexnet db: argument ACTION: invalid choice: 'compact'"),
    (["db", "rebuild", "/no/such/dir"], "hexnet db: no such directory: /no/such/dir"),
    (["db", "rebuild", "--bogus"], "hexnet db rebuild: unrecognized arguments: --bogus"),
])
def test_every_stats_and_db_mistake_is_one_line_and_exit_2(tmp_path, args, words) -> None:
    one_clear_line(hexnet(*args, tmp=tmp_path), words)


@pytest.mark.parametrize("args", [["stats"], ["db"], ["db", "rebuild"]])
def test_stats_and_db_have_help(tmp_path, args) -> None:
    run = hexnet(*args, "--help", tmp=tmp_path)
    assert run.returncode == 0 and run.stdout.startswith(f"usage: hexnet {' '.join(args)}")
