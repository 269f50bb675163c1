"""Recovery's unhappy paths, one test per branch, on real files (and, for a failed write, a real
``hexnet host`` process whose file-size limit is lowered while it runs): an unreadable journal,
one that cannot be replayed, one whose replay differs, a crash between the last step and the end
record, a journal write that fails (the host stops that table and says why; a restart resumes
it from what was written, which is all anyone saw)."""

from __future__ import annotations

import asyncio
import resource
import struct
import time
from pathlib import Path
from typing import Any

import pytest

from client.session import Session
from hexnet.games import get_game
from host.drill import Drill, replay_outcome
from host.journal import MAGIC, Journal, read_journal
from host.verify import verify_contents
from tests.e2e.crash import (
    connect_ada,
    crash,
    journals,
    make_host,
    play,
    start_toy,
    until_message,
)

pytestmark = pytest.mark.timeout(90)
_HEAD = struct.Struct(">II")  # a record's length and CRC-32 (host/journal.py's format)


async def crashed_toy_game(dirs: dict[str, Path]) -> tuple[Path, int]:
    """A toy table played for one of the player's actions and the bots' moves after it, then
    the host crashed: the unfinished journal's path and the table id. (The crash comes when the
    table waits for the player again — to nod at a bot's card, or her next turn: her view is
    sent only once the bots' steps are in the journal, and the game cannot have ended without
    her. Crashing right after her second action raced random bots that pass to the end of
    the game's two rounds: a loaded machine lost that race now and then.)"""
    host = make_host(dirs)
    await host.start("127.0.0.1", 0)
    ada = await connect_ada(host, dirs)
    tid = await start_toy(ada)
    await play(ada, tid, actions=1)
    acted, end = ada.views[tid]["state_id"], time.monotonic() + 20
    while not (ada.views[tid]["state_id"] > acted and ada.legal.get(tid)):
        assert time.monotonic() < end, "the table never waited for the player again"
        await ada.next_message(0.5)
    crash(host)
    ada.close()
    [path] = journals(dirs["host_data"])
    return path, tid


def rewrite(path: Path, header: dict[str, Any], steps: list[dict[str, Any]]) -> None:
    """Replace the journal at ``path`` with one holding ``header`` and ``steps``."""
    path.unlink()
    journal = Journal.create(path, {k: v for k, v in header.items() if k != "kind"})
    for step in steps:
        journal.append(step)
    journal.close()


def last_record_start(data: bytes) -> int:
    """Where the last record of a journal's bytes begins."""
    pos, last = len(MAGIC), len(MAGIC)
    while pos < len(data):
        length, _crc = _HEAD.unpack_from(data, pos)
        last, pos = pos, pos + _HEAD.size + length
    return last


async def restart(dirs: dict[str, Path]) -> tuple[Any, list[str]]:
    logs: list[str] = []
    host = make_host(dirs, logs)
    await host.start("127.0.0.1", 0)
    return host, logs


async def test_an_unreadable_journal_is_set_aside_and_the_others_are_recovered(
        dirs) -> None:
    good, tid = await crashed_toy_game(dirs)
    folder = good.parent
    not_one = folder / "20000101-000000-t90-aaaaaa.journal"
    not_one.write_bytes(b"these are my holiday notes\n")
    damaged = folder / "20000101-000000-t91-bbbbbb.journal"
    data = bytearray(good.read_bytes())
    data[len(MAGIC) + _HEAD.size + 3] ^= 0xFF  # inside the header record: not the last one
    damaged.write_bytes(bytes(data))
    before = {p: p.read_bytes() for p in (not_one, damaged)}
    host, logs = await restart(dirs)
    try:
        assert any(f"journal {not_one.name}: unreadable: not a hexnet journal" in line
                   and f"set aside as {not_one.name}.set-aside-unreadable" in line
                   for line in logs), logs
        assert any(f"journal {damaged.name}: unreadable: record at byte "
                   f"{len(MAGIC)} is damaged (checksum)" in line for line in logs), logs
        assert list(host.lobby.tables) == [tid]  # the good one, and only it
        assert host.lobby.tables[tid].status == "playing"
    finally:
        await host.stop()
    # set aside beside the others, as they were (nothing deleted): not read at the next start
    assert {p: p.with_name(p.name + ".set-aside-unreadable").read_bytes()
            for p in before} == before
    assert not any(p.exists() for p in before)


def other_game(header: dict[str, Any], steps: list[dict[str, Any]]) -> tuple[dict, list]:
    return {**header, "game": "no_such_game"}, steps


def refused_step(header: dict[str, Any], steps: list[dict[str, Any]]) -> tuple[dict, list]:
    return header, [*steps[:-1], {**steps[-1], "action": {"type": "fly"}}]


@pytest.mark.parametrize("spoil", [other_game, refused_step], ids=["game unknown", "illegal"])
async def test_a_journal_that_cannot_be_replayed_is_set_aside_as_it_was(
        dirs, spoil) -> None:
    path, _tid = await crashed_toy_game(dirs)
    contents = read_journal(path)
    rewrite(path, *spoil(contents.header, contents.steps))
    before = path.read_bytes()
    host, logs = await restart(dirs)
    try:
        slug = "refused" if spoil is other_game else "unplayable"
        assert any(line.startswith(f"journal {path.name}: ")
                   and f"set aside as {path.name}.set-aside-{slug}" in line
                   for line in logs), logs
        assert host.lobby.tables == {}
    finally:
        await host.stop()
    assert path.with_name(f"{path.name}.set-aside-{slug}").read_bytes() == before


async def test_a_step_that_replays_with_other_public_events_is_reported(dirs) -> None:
    path, tid = await crashed_toy_game(dirs)
    contents = read_journal(path)
    steps = [{**contents.steps[0], "digest": "0" * 64}, *contents.steps[1:]]
    rewrite(path, contents.header, steps)
    host, logs = await restart(dirs)
    try:
        assert any(f"table {tid}: step 1 replays with other public events than recorded"
                   in line for line in logs), logs
        replayed = host.lobby.tables[tid].history[:len(steps)]  # (bots may have moved on)
        assert replayed == [(s["seat"], s["action"]) for s in steps]
    finally:
        await host.stop()


async def test_a_crash_between_the_last_step_and_the_end_record_is_finished_on_restart(
        dirs) -> None:
    host = make_host(dirs)
    await host.start("127.0.0.1", 0)
    ada = await connect_ada(host, dirs)
    try:
        tid = await start_toy(ada)
        outcome = await play(ada, tid)
    finally:
        await ada.aclose()
        await host.stop()
    [path] = journals(dirs["host_data"])
    data = path.read_bytes()
    path.write_bytes(data[:last_record_start(data)])  # the end record never made it
    cut = read_journal(path)
    assert not cut.finished and not cut.torn
    second, logs = await restart(dirs)
    try:
        assert any(f"journal {path.name}: game was over; end record added" in line
                   for line in logs), logs
        assert second.lobby.tables == {}  # nothing to resume
    finally:
        await second.stop()
    contents = read_journal(path)
    assert contents.finished and contents.steps == cut.steps
    assert contents.end["outcome"] == outcome == replay_outcome(contents.header, contents.steps)
    assert verify_contents(contents).ok
    assert path.read_bytes().startswith(data[:last_record_start(data)])


# --- a journal write that fails: a real host process, its file-size limit lowered ------------

async def hexnet_host(workdir: Path) -> Drill:
    """``hexnet host --headless`` as a subprocess (the drill's command line), started."""
    drill = Drill(workdir, "hexenhammer", 0, 60)
    for sub in ("host_cfg", "host_data", "client"):
        (workdir / sub).mkdir(parents=True, exist_ok=True)
    await drill.start_host()
    return drill


async def table_with_two_bots(drill: Drill, workdir: Path, **kw: Any) -> tuple[Session, int]:
    """Ada connected to the host process, at a Hexenhammer table with two of its bots (not
    started yet); the session and the table id."""
    ada = await Session.connect("127.0.0.1", drill.port, name="ada", code=drill.room_code,
                                config_dir=workdir / "client", accept_new=True, **kw)
    await ada.send({"type": "create", "game": "hexenhammer", "seats": 3, "options": {}})
    lobby = await until_message(ada, lambda m: m["type"] == "lobby"
                                and m["you"]["table"] is not None)
    tid = lobby["you"]["table"]
    for seat in (1, 2):
        await ada.send({"type": "add_bot", "table": tid, "seat": seat, "policy": "random"})
    return ada, tid


def journaled_views(path: Path, seat: int) -> list[dict[str, Any]]:
    """``seat``'s view (without what the host adds or numbers: state id, log, presence) after
    each prefix of the journal at ``path``: the states the journal holds."""
    contents = read_journal(path)
    game = get_game(contents.header["game"])
    state = game.setup(list(contents.header["players"]), bytes(contents.header["seed"]),
                       contents.header["options"])

    def seen() -> dict[str, Any]:
        return plain(game.view(state, seat, log=False))
    out = [seen()]
    for step in contents.steps:
        game.apply(state, step["seat"], step["action"])
        out.append(seen())
    return out


def plain(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in ("state_id", "log", "presence")}


def limit_file_size(pid: int, size: int) -> None:
    """From now on ``pid`` cannot write a regular file past ``size`` bytes (EFBIG)."""
    resource.prlimit(pid, resource.RLIMIT_FSIZE, (size, size))


async def wait_for_log(drill: Drill, text: str, seconds: float = 20) -> str:
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while loop.time() < end:
        for line in drill.host_log:
            if text in line:
                return line
        await asyncio.sleep(0.05)
    raise AssertionError(f"the host never logged {text!r}; its log:\n" +
                         "\n".join(drill.host_log[-15:]))


async def test_a_failed_journal_write_stops_the_table_says_why_and_a_restart_resumes_it(
        tmp_path: Path) -> None:
    drill = await hexnet_host(tmp_path)
    ada, tid = await table_with_two_bots(drill, tmp_path, reconnect=True)
    seen: list[int] = []
    try:
        await ada.send({"type": "start", "table": tid})
        path = None
        failed = None
        while failed is None:  # play on until the host stops the table
            msg = await until_message(ada, lambda m: m["type"] in ("view", "error"))
            if msg["type"] == "error":
                failed = msg
                continue
            seen.append(msg["view"]["state_id"])
            if path is None:  # the game is on: from now on the next record fails
                [path] = sorted((tmp_path / "host_data" / "journals").glob("*.journal"))
                limit_file_size(drill.host.pid, path.stat().st_size + 1)
            # the state every view shows is one the journal holds (its state id counts the
            # table's publications, not steps: the view itself is compared) — a host playing
            # on without its journal stops here
            shown = plain(msg["view"])
            assert shown in journaled_views(path, 0), (
                f"a view came that the journal's {len(read_journal(path).steps)} steps do not "
                "hold")
            if msg["legal"]:
                await ada.send({"type": "act", "table": tid,
                                "state_id": msg["view"]["state_id"], "action": msg["legal"][0]})
        assert failed["code"] == "journal_failed"
        assert f"could not write table {tid}'s journal" in failed["message"]
        line = await wait_for_log(drill, "JOURNAL WRITE FAILED")
        assert f"table {tid}:" in line and "the table is stopped" in line
        halted = await until_message(ada, lambda m: m["type"] == "lobby")
        assert [t["status"] for t in halted["tables"] if t["id"] == tid] == ["halted"]
        await ada.send({"type": "act", "table": tid, "state_id": max(seen, default=0),
                        "action": {"type": "pass"}})
        refused = await until_message(ada, lambda m: m["type"] in ("rejected", "view"))
        assert refused["type"] == "rejected" and refused["code"] == "not_playing"
        on_disk = read_journal(path)
        assert not on_disk.finished
        # the last view shown is the journal's last state: every view shown is on disk ...
        assert plain(ada.views[tid]) == journaled_views(path, 0)[-1]
        # ... and nothing after: the step whose record failed was never shown to anyone
        await drill.kill_host()
        await drill.start_host()  # the same command, without the limit
        recovered = await wait_for_log(drill, "recovered from")
        assert f"at step {len(on_disk.steps)}" in recovered
        back = await until_message(ada, lambda m: m["type"] == "view" and m["table"] == tid,
                                   seconds=30)
        # the recovered state or a later one (its bots may have moved on)
        assert plain(back["view"]) in journaled_views(path, 0)[len(on_disk.steps):]
    finally:
        await ada.aclose()
        await drill.stop_process(drill.host)


async def test_a_journal_that_cannot_be_created_keeps_the_table_from_starting(
        tmp_path: Path) -> None:
    drill = await hexnet_host(tmp_path)
    ada, tid = await table_with_two_bots(drill, tmp_path)
    try:
        limit_file_size(drill.host.pid, 4)  # not even the journal's first line fits
        await ada.send({"type": "start", "table": tid})
        first = await until_message(ada, lambda m: m["type"] in ("view", "error"))
        assert first["type"] == "error" and first["code"] == "journal_failed", first
        await wait_for_log(drill, f"table {tid}: JOURNAL WRITE FAILED")
        halted = await until_message(ada, lambda m: m["type"] == "lobby" and any(
            t["id"] == tid and t["status"] == "halted" for t in m["tables"]))
        assert halted["you"]["table"] == tid
    finally:
        await ada.aclose()
        await drill.stop_process(drill.host)
