"""Never lose a game, over real TLS and real files: the journal is on disk before any view of
its action, a host that dies mid-game is restarted from its journals and the players resume their
seats by themselves, dropped connections come back, heartbeats find dead ones, and the seed
commitment shown at the start is checked against the reveal at the end."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from client.bot import run_bots
from client.fairplay import fair_play_line, verify_reveal
from client.session import ConnectionLost, Session
from hexnet.games import get_game
from host.core import Send
from host.drill import replay_outcome
from host.journal import read_journal
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
from tests.e2e.wiretap import HostWiretap, state_id_of
from tests.waiting import DEADLINE, answered, eventually

pytestmark = pytest.mark.timeout(60)


@pytest.mark.one_loop("the tap wraps asyncio's TLS transport; uvloop has its own (the run "
                      "on asyncio's loop checks the host's send path)")
async def test_no_view_is_handed_to_the_transport_before_its_action_is_in_the_journal(
        dirs, monkeypatch) -> None:
    """Checked where it matters: the moment the host hands a view frame to its TLS transport
    (tests/e2e/wiretap.py), the journal file on disk already holds the step that view shows."""
    host = make_host(dirs)
    await host.start("127.0.0.1", 0)
    checked: list[int] = []
    problems: list[str] = []

    def on_frame(msg: dict[str, Any]) -> None:
        if msg.get("type") != "view" or state_id_of(msg) is None:  # (a frame of no state)
            return
        # the engine's state the frame was made from (its state id counts publications)
        sid = host.lobby.tables[msg["table"]].rendered_version
        paths = journals(dirs["host_data"])
        if len(paths) != 1:
            problems.append(f"a view (state {sid}) went out with {len(paths)} journals on disk")
            return
        steps = read_journal(paths[0]).steps
        recorded = max([int(s.get("state_id", i + 1)) for i, s in enumerate(steps)], default=0)
        if recorded < sid:
            problems.append(f"the view of state {sid} went out when the journal held only "
                            f"state {recorded}")
        checked.append(sid)

    tap = HostWiretap(monkeypatch, host.port, on_frame)
    try:
        report = await run_bots("127.0.0.1", host.port, game="hexenhammer", count=3,
                                code=host.room_code, config_dir=str(dirs["client"]), seed=3,
                                timeout=50)
    finally:
        await host.stop()
    assert problems == [], problems[:5]
    assert report.outcome is not None and len(checked) > 50 and tap.frames > len(checked)
    assert max(checked) == host.lobby.tables[report.table].version
    contents = read_journal(journals(dirs["host_data"])[0])
    assert contents.finished and verify_contents(contents).ok
    assert replay_outcome(contents.header, contents.steps) == contents.end["outcome"]


async def test_a_crashed_host_restarts_from_its_journal_and_the_player_resumes(dirs) -> None:
    logs: list[str] = []
    first = make_host(dirs, logs)
    port = await first.start("127.0.0.1", 0)
    ada = await Session.connect("127.0.0.1", port, name="ada", code=first.room_code,
                                config_dir=dirs["client"], accept_new=True, reconnect=True)
    try:
        tid = await start_toy(ada)
        assert await play(ada, tid, actions=1) is None  # (unfinished: see start_toy)
        before = len(first.lobby.tables[tid].history)
        crash(first)
        second = make_host(dirs, logs)  # the same command again: same dirs, same port
        await second.start("127.0.0.1", port)
        try:
            assert second.room_code == first.room_code
            assert second.fingerprint == first.fingerprint
            table = second.lobby.tables[tid]
            assert len(table.history) >= before
            assert [s.kind for s in table.seats] == ["human", "bot", "bot"]
            outcome = await play(ada, tid)
            assert outcome is not None
            assert ada.reconnects == 1
            assert any("recovered from" in line for line in logs)
        finally:
            await second.stop()
    finally:
        await ada.aclose()
    [path] = journals(dirs["host_data"])
    contents = read_journal(path)
    assert contents.finished and verify_contents(contents).ok
    # identical, action for action, to an uninterrupted replay of the same seed
    assert replay_outcome(contents.header, contents.steps) == outcome == contents.end["outcome"]


async def test_a_client_redials_a_host_that_stays_down_and_resumes_when_it_is_back(dirs) -> None:
    """Several redials fail while the host is down; the one after it is back succeeds."""
    first = make_host(dirs)
    port = await first.start("127.0.0.1", 0)
    ada = await connect_ada(first, dirs, reconnect=True)
    try:
        tid = await start_toy(ada)
        assert await play(ada, tid, actions=1) is None  # (unfinished: see start_toy)
        crash(first)
        attempts = []
        while len(attempts) < 3:  # the third redial is announced: two have failed
            msg = await until_message(ada, lambda m: m["type"] == "connection")
            assert msg["state"] == "reconnecting", msg
            attempts.append(msg["attempt"])
        assert attempts == [1, 2, 3] and ada.reconnecting and ada.reconnects == 0
        second = make_host(dirs)  # the same command again, on the same port
        await second.start("127.0.0.1", port)
        try:
            back = await until_message(ada, lambda m: m["type"] == "connection"
                                       and m["state"] == "connected")
            assert back["attempt"] >= 3  # (a 4th if the restart outlasted the 3rd's wait)
            assert ada.reconnects == 1 and not ada.reconnecting
            outcome = await play(ada, tid)
            assert outcome is not None
            assert second.lobby.tables[tid].status == "over"
        finally:
            await second.stop()
    finally:
        await ada.aclose()


def middle_of_last_step(data: bytes) -> int:
    """A byte offset inside the journal's last ``step`` record."""
    import struct

    import msgpack

    from host.journal import MAGIC

    pos, cut = len(MAGIC), None
    while pos < len(data):
        length = struct.unpack_from(">I", data, pos)[0]
        if msgpack.unpackb(data[pos + 8:pos + 8 + length])["kind"] == "step":
            cut = pos + 8 + length // 2
        pos += 8 + length
    assert cut is not None
    return cut


async def test_a_torn_last_record_is_dropped_with_a_log_line_and_the_table_resumes(dirs) -> None:
    first = make_host(dirs)
    port = await first.start("127.0.0.1", 0)
    ada = await Session.connect("127.0.0.1", port, name="ada", code=first.room_code,
                                config_dir=dirs["client"], accept_new=True)
    tid = await start_toy(ada)
    await play(ada, tid, actions=1)  # (unfinished: see start_toy)
    await answered(ada, "ada's play")  # (so the journal holds a step of hers to tear)
    steps = len(first.lobby.tables[tid].history)
    crash(first)
    ada.close()
    [path] = journals(dirs["host_data"])
    # the power failed in the middle of writing the last step (timer and seat records after a
    # step are written after it, so they are lost as well)
    path.write_bytes(path.read_bytes()[:middle_of_last_step(path.read_bytes())])
    logs: list[str] = []
    second = make_host(dirs, logs, bot_delay=3600)  # its bots stay still: nothing is added
    await second.start("127.0.0.1", 0)
    try:
        assert any("torn last record" in line and path.name in line for line in logs)
        assert len(second.lobby.tables[tid].history) == steps - 1
    finally:
        await second.stop()
    contents = read_journal(path)
    assert not contents.torn and len(contents.steps) == steps - 1


async def test_a_dropped_client_reconnects_shows_disconnected_meanwhile_and_gets_its_view(
        dirs) -> None:
    host = make_host(dirs)
    await host.start("127.0.0.1", 0)
    seen: list[bool] = []
    host.add_listener(lambda effects: seen.extend(
        s["connected"] for t in host.lobby.tables_info() for s in t["seats"]
        if s["kind"] == "human"))
    ada = await Session.connect("127.0.0.1", host.port, name="ada", code=host.room_code,
                                config_dir=dirs["client"], accept_new=True, reconnect=True)
    try:
        tid = await start_toy(ada)
        await play(ada, tid, actions=1)
        ada._writer.transport.abort()  # the Wi-Fi goes away
        states = []
        view = None
        for _ in range(50):
            msg = await ada.next_message(5)
            assert msg is not None
            if msg["type"] == "connection":
                states.append(msg["state"])
            elif msg["type"] == "view" and "connected" in states:
                view = msg
                break
        assert states[0] == "reconnecting" and states[-1] == "connected"
        assert False in seen and seen[-1] is True
        assert view is not None
        assert view["view"]["state_id"] == host.lobby.tables[tid].state_id
        assert await play(ada, tid) is not None
    finally:
        await ada.aclose()
        await host.stop()


async def test_the_host_drops_a_client_that_went_silent(dirs) -> None:
    host = make_host(dirs, idle_timeout=0.5)
    await host.start("127.0.0.1", 0)
    try:
        quiet = await Session.connect("127.0.0.1", host.port, name="quiet", code=host.room_code,
                                      config_dir=dirs["client"], accept_new=True, heartbeat=60)
        with pytest.raises(ConnectionLost):
            await asyncio.wait_for(_drain(quiet), 5)
        assert not host.connections
    finally:
        await host.stop()


async def test_the_client_finds_a_host_that_stopped_answering(dirs) -> None:
    host = make_host(dirs)
    await host.start("127.0.0.1", 0)
    pongs: list[int] = []
    host.add_listener(lambda effects: pongs.extend(
        1 for e in effects if isinstance(e, Send) and e.msg["type"] == "pong"))
    try:
        ada = await Session.connect("127.0.0.1", host.port, name="ada", code=host.room_code,
                                    config_dir=dirs["client"], accept_new=True,
                                    heartbeat=0.1, dead_after=0.6)
        await eventually(lambda: len(pongs) >= 3, "three pongs")  # answered: alive
        assert not ada._ended  # its read loop runs on
        for conn in host.links.live.values():
            conn.writer.transport.pause_reading()  # the host hangs: no more pongs
        with pytest.raises(ConnectionLost, match="not answered"):
            await asyncio.wait_for(_drain(ada), DEADLINE)
        ada.close()
    finally:
        await host.stop()


async def _drain(session: Session) -> None:
    async for _ in session.messages():
        pass


async def test_the_client_verifies_the_reveal_against_the_commitment_it_saw_first(
        dirs) -> None:
    host = make_host(dirs)
    await host.start("127.0.0.1", 0)
    ada = await Session.connect("127.0.0.1", host.port, name="ada", code=host.room_code,
                                config_dir=dirs["client"], accept_new=True)
    try:
        tid = await start_toy(ada)
        outcome = await play(ada, tid)
        for _ in range(20):
            if tid in ada.fair_play:
                break
            await ada.next_message(0.5)
        verdict = ada.fair_play[tid]
        assert verdict.ok, verdict.lines
        commitment = ada.commitments[tid]
        assert commitment == host.lobby.tables[tid].commitment
        assert fair_play_line(verdict, commitment) == (
            f"Fair play verified ✓ (commitment {commitment[:16]}…)")
    finally:
        await ada.aclose()
        await host.stop()
    # the same reveal does not pass against another commitment, or with a changed seed/step
    from host.fairplay import reveal_messages

    parts = reveal_messages(host.lobby.tables[tid])
    assert verify_reveal(commitment, parts, outcome).ok
    assert not verify_reveal("0" * 64, parts, outcome).ok
    rigged = [dict(p, seed=bytes([p["seed"][0] ^ 1]) + p["seed"][1:]) for p in parts]
    assert not verify_reveal(commitment, rigged, outcome).ok
    other = dict(outcome, scores=[s + 1 for s in outcome["scores"]])
    failed = verify_reveal(commitment, parts, other)
    assert not failed.ok and "FAILED" in fair_play_line(failed, commitment)


def test_a_long_reveal_is_cut_into_parts_under_the_frame_cap() -> None:
    from host.fairplay import reveal_messages
    from host.table import Seat, Table
    from protocol import frames, messages

    game = get_game("hexenhammer")
    table = Table(1, "hexenhammer", game, [Seat("bot", f"b{i}") for i in range(4)], {})
    table.start(7, b"s" * 16)
    r = random.Random(7)
    while table.status == "playing":
        seat = r.choice(table.waiting_for())
        table.act(seat, r.choice(game.legal_actions(table.state, seat)))
    table.history *= 20  # a very long game
    table.digests *= 20
    parts = reveal_messages(table)
    assert len(parts) > 1
    for part in parts:
        messages.validate(part, "h2c")
        assert len(frames.encode(part, frames.POST_AUTH_MAX)) < frames.POST_AUTH_MAX
    assert sum(len(p["steps"]) for p in parts) == len(table.history)


async def test_after_a_restart_a_player_who_never_returns_counts_as_absent(dirs) -> None:
    first = make_host(dirs)
    port = await first.start("127.0.0.1", 0)
    ada = await Session.connect("127.0.0.1", port, name="ada", code=first.room_code,
                                config_dir=dirs["client"], accept_new=True)
    tid = await start_toy(ada)
    await play(ada, tid, actions=1)
    crash(first)
    ada.close()  # ada's laptop stays shut
    second = make_host(dirs, absent_after=0.3)
    await second.start("127.0.0.1", 0)
    try:
        info = second.lobby.tables_info()[0]["seats"][0]
        assert info["kind"] == "human" and not info["connected"] and not info["absent"]
        await eventually(lambda: second.lobby.tables[tid].status == "over", "the game's end")
        assert second.lobby.tables[tid].seats[0].absent
        assert second.lobby.tables[tid].status == "over"  # the absent default played on
    finally:
        await second.stop()
    contents = read_journal(journals(dirs["host_data"])[0])
    assert contents.finished and verify_contents(contents).ok


async def test_a_player_away_when_the_game_ends_gets_the_end_and_reveal_on_return(dirs) -> None:
    host = make_host(dirs, absent_after=0)
    await host.start("127.0.0.1", 0)
    ada = await Session.connect("127.0.0.1", host.port, name="ada", code=host.room_code,
                                config_dir=dirs["client"], accept_new=True, reconnect=True)
    try:
        tid = await start_toy(ada)
        await play(ada, tid, actions=1)
        ada._writer.transport.abort()  # away; the absent default and the bots end the game
        outcome = await play(ada, tid, seconds=20)
        assert outcome == host.lobby.tables[tid].engine.outcome(host.lobby.state_of(tid))
        assert ada.reconnects == 1
        for _ in range(20):
            if tid in ada.fair_play:
                break
            await ada.next_message(0.5)
        assert ada.fair_play[tid].ok
    finally:
        await ada.aclose()
        await host.stop()
