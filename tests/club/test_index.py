"""The club database as an index of verified journals (issue 28): what counts, what is refused
and why, rebuilding and merging, damage, migrations, forgetting — on real journal files played
in-process and a real SQLite file."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
from pathlib import Path

import pytest

from host.club import Club, FinishedGame, Refusal, Report
from host.club.games import fingerprint, read_game
from host.club.schema import VERSION, SchemaError, connect
from host.journal import Journal, read_records
from tests.club.evening import DOZEN, dozen, identity, journal

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(scope="module")
def evening(tmp_path_factory) -> list[Path]:
    """The twelve journals of a club evening (played once for the module)."""
    return dozen(tmp_path_factory.mktemp("evening"))


def data_dir_with(tmp_path: Path, journals: list[Path]) -> Path:
    """A host data directory whose journals folder holds copies of ``journals``."""
    folder = tmp_path / "data" / "journals"
    folder.mkdir(parents=True)
    for path in journals:
        shutil.copy2(path, folder / path.name)
    return tmp_path / "data"


def ratings_of(club: Club) -> list[tuple]:
    return club.query("SELECT key, game, mu, sigma, games, wins FROM ratings ORDER BY key, game")


def doctored(source: Path, target: Path) -> Path:
    """``source`` with its end record claiming other winners (written as a host would)."""
    records, _ = read_records(source)
    header, *rest = records
    header.pop("kind")
    out = Journal.create(target, header)
    for record in rest:
        if record["kind"] == "end":
            outcome = dict(record["outcome"])
            outcome["winners"] = [s for s in range(len(header["players"]))
                                  if s not in outcome["winners"]]
            record = {**record, "outcome": outcome}
        out.append(record, sync=False)
    out.close()
    return target


def test_a_finished_journal_counts_with_players_as_their_keys(evening) -> None:
    game = read_game(evening[1])  # Hranice: Ada, Dora and a heuristic bot
    assert isinstance(game, FinishedGame)
    assert [(s.key, s.name, s.kind) for s in game.seats] == [
        (fingerprint(identity("Ada")), "Ada", "human"),
        (fingerprint(identity("Dora")), "Dora", "human"),
        ("bot:heuristic", "bot:heuristic", "bot")]
    assert sum(s.won for s in game.seats) >= 1 and min(s.place for s in game.seats) == 1


def test_a_doctored_journal_is_not_counted_and_the_log_says_why(evening, tmp_path) -> None:
    bad = doctored(evening[0], tmp_path / "doctored.journal")
    lines: list[str] = []
    club = Club.open(tmp_path / "data", lines.append)
    found = club.index_finished(bad)
    assert isinstance(found, Refusal) and found.status == "refused"
    assert lines == [f"journal {bad}: not counted: does not verify: The replay ends with a "
                     "different result."]
    assert club.query("SELECT count(*) FROM games") == [(0,)]
    assert club.index_finished(evening[0]).commitment == found.commitment  # the honest one


def test_an_unfinished_journal_is_skipped_until_it_finishes(tmp_path) -> None:
    records, _ = read_records(journal(tmp_path / "src", 1, "hranice", ["Ada", "Bert"], 5))
    header = {k: v for k, v in records[0].items() if k != "kind"}
    running = Journal.create(tmp_path / "data" / "journals" / "running.journal", header)
    for record in records[1:-1]:
        running.append(record, sync=False)
    running.close()
    club = Club.open_or_rebuild(tmp_path / "data")
    assert club.query("SELECT status, reason FROM journals") == [
        ("skipped", "unfinished (its game may still be running)")]
    with open(running.path, "ab") as handle:  # the game ends: the next start counts it
        from protocol.journalfile import pack_record
        handle.write(pack_record(records[-1]))
    club.close()
    club = Club.open_or_rebuild(tmp_path / "data")
    assert club.query("SELECT count(*) FROM games") == [(1,)]


def test_rebuild_gives_the_same_ratings_as_indexing_game_by_game_in_any_order(
        evening, tmp_path) -> None:
    rebuilt = Club.open_or_rebuild(data_dir_with(tmp_path / "a", evening))
    one_by_one = Club.open(tmp_path / "b")
    for path in [evening[i] for i in (5, 0, 11, 3, 1, 2, 10, 4, 9, 6, 8, 7)]:
        assert isinstance(one_by_one.index_finished(path), FinishedGame)
    assert ratings_of(rebuilt) == ratings_of(one_by_one)
    assert len(ratings_of(rebuilt)) > 20
    assert rebuilt.query("SELECT count(*) FROM games") == [(len(DOZEN),)]


def test_two_hosts_journals_merge_and_a_shared_game_counts_once(evening, tmp_path) -> None:
    first = data_dir_with(tmp_path / "one", evening[:8])
    second = data_dir_with(tmp_path / "two", evening[5:])  # games 6–8 on both
    club = Club.open(tmp_path / "merged")
    report = club.rebuild([first, second / "journals"])
    assert (report.indexed, report.duplicates, report.refused) == (12, 3, [])
    alone = Club.open_or_rebuild(data_dir_with(tmp_path / "all", evening))
    assert ratings_of(club) == ratings_of(alone)


@pytest.mark.parametrize("damage", ["missing", "truncated", "garbage"])
def test_a_missing_or_damaged_database_is_rebuilt_from_the_journals(evening, tmp_path,
                                                                    damage) -> None:
    data = data_dir_with(tmp_path, evening[:4])
    first = Club.open_or_rebuild(data)
    expected = ratings_of(first)
    first.close()
    db = data / "club" / "club.db"
    if damage == "missing":
        db.unlink()
    elif damage == "truncated":
        db.write_bytes(db.read_bytes()[:3000])
    else:
        db.write_bytes(b"these are not the ratings you are looking for" * 100)
    for extra in ("club.db-wal", "club.db-shm"):
        (data / "club" / extra).unlink(missing_ok=True)
    lines: list[str] = []
    club = Club.open_or_rebuild(data, lines.append)
    assert ratings_of(club) == expected
    assert lines[-1] == ("club database: built from the journals: 4 games indexed, "
                         "0 duplicates, 0 skipped, 0 refused")
    if damage != "missing":
        assert "moved aside to club.db.damaged-" in lines[0]
        assert len(list((data / "club").glob("club.db.damaged-*"))) == 1


def test_a_version_1_database_is_migrated_and_keeps_its_games(tmp_path) -> None:
    folder = tmp_path / "data" / "club"
    folder.mkdir(parents=True)
    old = connect(folder / "club.db", upto=1)
    old.execute("INSERT INTO games VALUES (1, 'ab', 'hranice', 1.0, 2.0, 2, NULL, 'x.journal')")
    old.close()
    with pytest.raises(sqlite3.OperationalError):  # version 1 had no journals table
        sqlite3.connect(folder / "club.db").execute("SELECT * FROM journals")
    club = Club.open(tmp_path / "data")
    assert club.query("PRAGMA user_version") == [(VERSION,)] and VERSION == 2
    assert club.query("SELECT commitment, journal FROM games") == [("ab", "x.journal")]
    assert club.query("SELECT count(*) FROM journals") == [(0,)]
    assert club.query("PRAGMA journal_mode") == [("wal",)]


def test_a_database_from_a_newer_hexnet_is_refused_not_misread(tmp_path) -> None:
    conn = sqlite3.connect(tmp_path / "new.db")
    conn.execute(f"PRAGMA user_version = {VERSION + 1}")
    conn.close()
    with pytest.raises(SchemaError, match=f"version {VERSION + 1}; this hexnet knows up to"):
        connect(tmp_path / "new.db")


def test_a_forgotten_player_stays_forgotten_after_a_rebuild(evening, tmp_path) -> None:
    data = data_dir_with(tmp_path, evening)
    club = Club.open_or_rebuild(data)
    ada = fingerprint(identity("Ada"))
    played = club.query("SELECT count(*) FROM seats WHERE key = ?", [ada])[0][0]
    assert club.forget(ada) == played > 5
    for table in ("players", "names", "ratings", "rating_changes", "seats"):
        assert club.query(f"SELECT count(*) FROM {table} WHERE key = ?", [ada]) == [(0,)]
    assert club.query("SELECT count(*) FROM seats WHERE key IS NULL AND name = ''") \
        == [(played,)]
    assert club.query("SELECT count(*) FROM names WHERE name = 'Ada'") == [(0,)]
    after_forget = ratings_of(club)
    club.close()
    (data / "club" / "club.db").unlink()
    rebuilt = Club.open_or_rebuild(data)
    assert ratings_of(rebuilt) == after_forget
    assert rebuilt.query("SELECT count(*) FROM seats WHERE key = ?", [ada]) == [(0,)]
    assert ada not in (data / "club" / "forgotten").read_text()


async def test_indexing_runs_in_a_worker_thread_beside_readers(evening, tmp_path) -> None:
    club = Club.open(tmp_path / "data")
    results = await asyncio.gather(
        *(asyncio.to_thread(club.index_finished, path) for path in evening[:6]),
        *(asyncio.to_thread(club.leaderboard) for _ in range(6)))
    assert all(isinstance(r, FinishedGame) for r in results[:6])
    serial = Club.open_or_rebuild(data_dir_with(tmp_path / "serial", evening[:6]))
    assert ratings_of(club) == ratings_of(serial)


def test_a_games_rating_changes_and_a_seeding_by_rating_come_from_the_index(evening,
                                                                            tmp_path) -> None:
    club = Club.open_or_rebuild(data_dir_with(tmp_path, evening))
    game = read_game(evening[0])
    changes = club.changes(game.commitment)
    assert sorted(changes) == sorted(s.key for s in game.seats)
    kept = club.query("SELECT c.key, c.mu - c.mu_before FROM rating_changes c JOIN games g "
                      "ON g.id = c.game_id WHERE g.commitment = ?", [game.commitment])
    assert {k: after.mu - before.mu for k, (before, after) in changes.items()} == dict(kept)
    assert club.changes("f" * 64) == {}
    board = [r.key for r in club.leaderboard("hranice")]
    newcomer = fingerprint(b"n" * 32)
    assert club.seeding([newcomer, *reversed(board)], "hranice") == sorted(
        [newcomer, *board], key=lambda k: -(club.standings("hranice")[(k, "hranice")]
                                           .rating.ordinal if k != newcomer else 0.0))


def test_a_data_directory_spelled_another_way_is_not_read_again(evening, tmp_path,
                                                                 monkeypatch) -> None:
    data = data_dir_with(tmp_path, evening[:3])
    Club.open_or_rebuild(data).close()
    monkeypatch.chdir(tmp_path)
    club = Club.open(Path("data"))
    assert club.catch_up(Path("data") / "journals") == Report()  # nothing new to read
    assert {Path(p).is_absolute() for (p,) in club.query("SELECT path FROM journals")} == {True}
