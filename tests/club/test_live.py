"""A host that remembers, running (issue 28 phase 2): real hosts on 127.0.0.1, real clients over
TLS, real journals and a real SQLite file. A finished table is indexed once its journal is
closed and shows in ``hexnet stats`` and in the lobby's seats; no SQLite statement runs on the
event loop's thread; profiles and replays are answered over the network within a budget; a
doctored journal is refused with its line; deleting the database and restarting the host gives
the same ratings byte for byte; a Swiss event seeds by rating."""

from __future__ import annotations

import asyncio
import csv
import io
import shutil
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from client.fairplay import verify_reveal
from client.session import Session
from hexnet.ratings import newcomer
from host.club.board import handle
from host.club.games import fingerprint, read_game
from host.event import Director, Entrant
from host.journal import Journal, read_records
from host.server import Host
from protocol import messages
from tests.club.evening import dozen, identity, journal
from tests.club.test_index import doctored
from tests.e2e.test_cli_mistakes import hexnet

pytestmark = pytest.mark.timeout(180)


@pytest.fixture(scope="module")
def evening(tmp_path_factory) -> list[Path]:
    """The twelve journals of a club evening (Ada, Bert, … and heuristic and random bots)."""
    return dozen(tmp_path_factory.mktemp("evening"))


def data_with(folder: Path, journals: list[Path]) -> Path:
    """A host data directory holding copies of ``journals``."""
    (folder / "journals").mkdir(parents=True)
    for path in journals:
        shutil.copy2(path, folder / "journals" / path.name)
    return folder


async def until(check: Callable[[], Any], timeout: float = 60.0, what: str = "") -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        found = check()
        if found:
            return found
        await asyncio.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


async def started(tmp_path: Path, data: Path, lines: list[str] | None = None,
                  **kw: Any) -> Host:
    """A host on 127.0.0.1 with ``data`` as its data directory, its club database open."""
    host = Host("Klub", tmp_path / "cfg", data, open=True, bot_delay=0.0,
                log=(lines.append if lines is not None else None), **kw)
    await host.start("127.0.0.1", 0)
    await until(lambda: host.history.ready, what="the club database")
    return host


async def bots_play(host: Host, game: str, seats: int, policies: list[str]) -> int:
    """A table of host bots plays ``game`` to its end; its id."""
    table = host.lobby.create_table(game, seats, {})
    for seat, policy in enumerate(policies):
        host.lobby.add_bot(table, seat, policy)
    host.lobby.start(table)
    await until(lambda: host.lobby.tables[table].status == "over", what=f"{game} to end")
    return table


async def connect(host: Host, tmp_path: Path, name: str) -> Session:
    return await Session.connect("127.0.0.1", host.port, name=name, accept_new=True,
                                 config_dir=tmp_path / name.lower())


async def reply(session: Session, *types: str) -> dict[str, Any]:
    """The next message of one of ``types`` (lobby updates and the like skipped)."""
    end = time.monotonic() + 30
    while time.monotonic() < end:
        msg = await session.next_message(1.0)
        if msg is not None and msg["type"] in types:
            return msg
    raise AssertionError(f"no {types} arrived")


async def play_absent(host: Host, session: Session, game: str, seats: int) -> int:
    """``session``'s player creates a table of ``game`` with heuristic bots, starts it, and
    the organiser lets the game play their seat (absent) to the end; the table's id."""
    await session.send({"type": "create", "game": game, "seats": seats, "options": {}})
    table = await until(lambda: session.you.get("table"), what="the new table")
    for _ in range(seats - 1):
        await session.send({"type": "add_bot", "table": table, "seat": None,
                            "policy": "heuristic"})
    await until(lambda: all(s.kind != "empty" for s in host.lobby.tables[table].seats),
                what="the bots seated")
    await session.send({"type": "start", "table": table})
    await until(lambda: host.lobby.tables[table].status == "playing", what="the start")
    host.lobby.mark_absent(table, 0)
    await until(lambda: host.lobby.tables[table].status == "over", what="the game's end")
    return table


async def test_a_finished_table_shows_in_stats_and_in_the_lobby_with_no_sqlite_on_the_loop(
        tmp_path) -> None:
    host = await started(tmp_path, tmp_path / "data")
    loop_thread = threading.get_ident()
    ran_on: list[int] = []
    host.history.club._conn.set_trace_callback(lambda sql: ran_on.append(threading.get_ident()))
    zed = await connect(host, tmp_path, "Zed")
    try:
        zeds = fingerprint(zed.identity)
        await play_absent(host, zed, "hranice", 2)
        rating = await until(lambda: host.history.board.rating(zeds, "hranice"),
                             what="Zed's rating")
        # the lobby: a new table of Hranice lists Zed with his rating, bots with theirs
        await zed.send({"type": "leave"})
        await zed.send({"type": "create", "game": "hranice", "seats": 3, "options": {}})
        new = await until(lambda: zed.you.get("table") not in (None, 1) and zed.you["table"],
                          what="the second table")
        await zed.send({"type": "add_bot", "table": new, "seat": None, "policy": "heuristic"})

        def seats() -> list[dict[str, Any]] | None:
            tables = {t["id"]: t for t in (zed.lobby or {}).get("tables") or []}
            table = tables.get(new)
            return table["seats"] if table and table["seats"][1]["kind"] == "bot" else None
        shown = await until(seats, what="the new table with its bot in the lobby")
        assert shown[0]["player"] == zeds[:16] == handle(zeds)
        assert shown[0]["rating"] == {"mu": round(rating.mu, 2), "sigma": round(rating.sigma, 2),
                                      "ordinal": round(rating.ordinal, 2), "games": 1}
        bot = host.history.board.rating("bot:heuristic", "hranice")
        assert shown[1]["player"] == "bot:heuristic"
        assert shown[1]["rating"]["mu"] == round(bot.mu, 2)
        assert "rating" not in shown[2] and "player" not in shown[2]  # the empty seat
    finally:
        await zed.aclose()
        await host.stop()
    assert ran_on and loop_thread not in ran_on  # every statement ran in a worker thread
    run = hexnet("stats", "--data-dir", str(tmp_path / "data"), "--csv", tmp=tmp_path)
    rows = {(r["game"], r["key"]): r for r in csv.DictReader(io.StringIO(run.stdout))}
    assert rows[("hranice", zeds)]["mu"] == f"{rating.mu:.6f}"
    assert rows[("hranice", zeds)]["name"] == "Zed"
    assert set(rows) == {("hranice", zeds), ("hranice", "bot:heuristic")}


async def test_profiles_and_replays_are_answered_over_the_network(evening, tmp_path) -> None:
    data = data_with(tmp_path / "data", evening)
    private = doctored_watch(journal(tmp_path / "src", 13, "hranice", ["Ada", "Bert"], 77),
                             data / "journals" / "013-private.journal")
    host = await started(tmp_path, data)
    host.desk.rate = host.desk.burst = 1000  # (the budget has a test of its own)
    zed = await connect(host, tmp_path, "Zed")
    try:
        await zed.send({"type": "profile", "player": "bot:heuristic"})
        answer = await reply(zed, "profile", "error")
        assert messages.validate(answer, "h2c")
        shown = answer["profile"]
        assert answer["player"] == shown["player"] == "bot:heuristic"
        assert shown["names"] == [shown["name"]]  # the others' names: to themselves alone
        assert "journal" not in str(shown)
        ada = fingerprint(identity("Ada"))
        await zed.send({"type": "profile", "player": ada[:16]})
        assert (await reply(zed, "profile", "error"))["profile"]["name"] == "Ada"
        for unknown in (handle(fingerprint(zed.identity)), ada[:15], "bot:nobody"):
            await zed.send({"type": "profile", "player": unknown})
            assert (await reply(zed, "profile", "error"))["code"] == "no_profile"
        # a recent game's replay: its reveal, checked by the client against its commitment
        commitment = shown["recent"][0]["commitment"]
        await zed.send({"type": "replay", "commitment": commitment})
        parts = [await reply(zed, "replay")]
        while len(parts) < parts[0]["parts"]:
            parts.append(await reply(zed, "replay"))
        verdict = verify_reveal(commitment, parts, parts[0]["outcome"])
        assert verdict.ok, verdict.lines
        assert verdict.lines[-2] == "The replay ends with the same result."
        # a table that did not allow watching is replayed only to its players
        await zed.send({"type": "replay", "commitment": read_game(private).commitment})
        refused = await reply(zed, "replay", "error")
        assert (refused["code"], refused["message"]) == (
            "not_public", "That table could not be watched; only its players may replay it.")
        await zed.send({"type": "replay", "commitment": "0" * 64})
        assert (await reply(zed, "replay", "error"))["code"] == "no_replay"
    finally:
        await zed.aclose()
        await host.stop()


def doctored_watch(source: Path, target: Path) -> Path:
    """``source`` with a ``watch`` record saying its table could not be watched."""
    records, _ = read_records(source)
    header = {k: v for k, v in records[0].items() if k != "kind"}
    out = Journal.create(target, header)
    out.append({"kind": "watch", "allowed": False, "delay": 0}, sync=False)
    for record in records[1:]:
        out.append(record, sync=False)
    out.close()
    return target


async def test_profile_requests_have_a_budget_per_connection(evening, tmp_path) -> None:
    host = await started(tmp_path, data_with(tmp_path / "data", evening))
    host.desk.rate = 0.01  # (no refill within the test: the burst is what counts)
    zed = await connect(host, tmp_path, "Zed")
    try:
        ask = {"type": "profile", "player": "bot:heuristic"}
        await zed.send(ask)
        await zed.send(ask)  # while the first is in flight
        answers = [await reply(zed, "profile", "error") for _ in range(2)]
        assert sorted(a["type"] if a["type"] == "profile" else a["code"] for a in answers) == [
            "ask_busy", "profile"]
        for _ in range(2):  # the burst's other two
            await zed.send(ask)
            assert (await reply(zed, "profile", "error"))["type"] == "profile"
        await zed.send(ask)
        assert (await reply(zed, "profile", "error"))["code"] == "ask_too_fast"
    finally:
        await zed.aclose()
        await host.stop()


async def test_a_doctored_journal_is_refused_with_a_clear_line_at_start_and_live(
        evening, tmp_path) -> None:
    data = data_with(tmp_path / "data", evening[:2])
    bad = doctored(evening[2], data / "journals" / "bad.journal")
    lines: list[str] = []
    host = await started(tmp_path, data, lines)
    try:
        said = (f"journal {bad}: not counted: does not verify: The replay ends with a "
                "different result.")
        await until(lambda: said in lines, what="the refusal at start")
        assert host.history.club.query("SELECT count(*) FROM games") == [(2,)]
        late = doctored(evening[3], tmp_path / "late.journal")
        host.history.journal_closed(late)  # as the recorder reports a closed journal
        await until(lambda: any(line.startswith(f"journal {late}: not counted: does not "
                                                "verify") for line in lines),
                    what="the refusal of a journal closed live")
        assert host.history.club.query("SELECT count(*) FROM games") == [(2,)]
    finally:
        await host.stop()


async def test_deleting_the_database_and_restarting_the_host_gives_the_same_ratings(
        tmp_path) -> None:
    data = tmp_path / "data"
    host = await started(tmp_path, data)
    try:
        await bots_play(host, "hexenhammer", 3, ["random", "heuristic", "easy"])
        await bots_play(host, "hranice", 3, ["heuristic", "random", "easy"])
        await bots_play(host, "hexenhammer", 4, ["easy", "random", "heuristic", "random"])
        await bots_play(host, "hranice", 2, ["random", "easy"])
        await until(lambda: host.history.club.query("SELECT count(*) FROM games") == [(4,)],
                    what="four games indexed")
    finally:
        await host.stop()
    before = hexnet("stats", "--data-dir", str(data), "--csv", tmp=tmp_path)
    assert before.returncode == 0 and before.stdout.count("\n") > 6
    shutil.rmtree(data / "club")
    lines: list[str] = []
    host = await started(tmp_path, data, lines)  # rebuilt from the journals, in a thread
    await host.stop()
    assert ("club database: built from the journals: 4 games indexed, 0 duplicates, "
            "0 skipped, 0 refused") in lines
    after = hexnet("stats", "--data-dir", str(data), "--csv", tmp=tmp_path)
    assert after.stdout == before.stdout


@pytest.mark.parametrize("by_rating", [True, False])
async def test_a_swiss_event_seeds_its_first_round_by_rating(evening, tmp_path,
                                                             by_rating) -> None:
    lines: list[str] = []
    host = Host("Turnier", tmp_path / "cfg", data_with(tmp_path / "data", evening), open=True,
                bot_delay=0.0)
    director = Director(host, game="hranice", fmt="swiss", size=2, rounds=1, pause=0.0,
                        seed_by_rating=by_rating, log=lines.append)
    director.load()
    await host.start("127.0.0.1", 0)
    try:
        await until(lambda: host.history.ready, what="the club database")
        director.begin()
        entered = ["Emil", "Bert", "Ada", "Dora", "Cili", "Hana"]  # Hana: never played it
        for name in entered:
            director.registration.add(Entrant(name, identity(name)))
        assert director.start()
        seeds = director.results.history.entrants
        board = host.history.board
        ordinal = {n: (board.rating(fingerprint(identity(n)), "hranice") or newcomer()).ordinal
                   for n in entered}
        if by_rating:
            assert seeds == sorted(entered, key=lambda n: -ordinal[n]) != entered
            assert any(line.startswith("tournament: seeded by rating: ") and "Hana (new)" in line
                       for line in lines)
        else:
            assert seeds == entered
    finally:
        director.close()
        await host.stop()


def test_the_club_hears_of_a_journal_only_once_its_end_is_synced_and_closed(tmp_path) -> None:
    from host.journal import Syncer

    good = Journal.create(tmp_path / "good.journal", {"game": "hranice"})
    bad = Journal.create(tmp_path / "bad.journal", {"game": "hranice"})

    def fails() -> None:
        raise OSError(5, "Input/output error")
    bad.sync = fails  # (a disk that fails the fsync of the end record)
    heard: list[str] = []
    syncer = Syncer()
    for kept in (good, bad):
        kept.append({"kind": "end", "outcome": {}}, sync=False)
        syncer.close_after(kept, lambda j=kept: heard.append(j.path.name))
    syncer.stop()
    assert heard == ["good.journal"]


async def test_a_host_rebuilding_its_database_says_how_far_it_is_in_the_log(
        evening, tmp_path, monkeypatch) -> None:
    import host.club.history

    monkeypatch.setattr(host.club.history, "PROGRESS_EVERY", 0.0)  # a line per journal
    lines: list[str] = []
    host = await started(tmp_path, data_with(tmp_path / "data", evening), lines)
    await host.stop()
    progress = [line for line in lines if line.startswith("club database: reading journals")]
    assert progress == [f"club database: reading journals, {n} of 12" for n in range(1, 13)]
    assert ("club database: built from the journals: 12 games indexed, 0 duplicates, "
            "0 skipped, 0 refused") in lines
    assert lines.index(progress[-1]) < lines.index(next(
        line for line in lines if line.startswith("club database: ") and " open, " in line))


async def test_a_lobby_of_a_hundred_rated_twelve_seat_tables_reaches_a_client(tmp_path) -> None:
    """Each seat's player and rating make a lobby entry longer: the lobby is cut into frames
    by their size, never past the frame cap (100 Fang tables of 12 rated bots: ~190 KB)."""
    host = await started(tmp_path, tmp_path / "data")
    try:
        await bots_play(host, "fang", 12, ["normal"] * 12)
        await until(lambda: host.history.board.rating("bot:normal", "fang"),
                    what="the bots' Fang rating")
        for _ in range(100):
            table = host.lobby.create_table("fang", 12, {})
            for seat in range(12):
                host.lobby.add_bot(table, seat, "normal")
        zed = await connect(host, tmp_path, "Zed")
        try:
            await until(lambda: len((zed.lobby or {}).get("tables") or []) == 101,
                        what="every table")
            seats = [s for t in zed.lobby["tables"] for s in t["seats"]]
            assert len(seats) == 12 * 101 and all("rating" in s for s in seats)
        finally:
            await zed.aclose()
    finally:
        await host.stop()
