"""The differential leak check at the network level: a real host over real TLS, a table whose
state is dealt anew (for one seat) between two connections of that seat; the frame the seat
receives on connecting — its whole view, log, legal actions, commitment, padding — must be the
same both times, byte for byte as it came off the wire (its length included), and as the
session rebuilt it. So nothing the host adds on the way out (fields, lengths) may depend on what
the seat cannot know either. Positions come from random play (``tests/hexnet/redeal.py``)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import msgpack
import pytest

from client.session import Session
from hexnet.engine import State
from host.server import Host
from host.table import Table
from protocol import frames
from tests.hexnet.redeal import REDEALS, clone, sampled_positions

pytestmark = pytest.mark.timeout(120)

# (game, players, seed of the random game, positions spread over it)
CASES = [("hexenhammer", 4, 21, 8), ("fang", 5, 22, 8), ("hranice", 4, 23, 8)]


class RawFrames:
    """Every frame a client session reads, as the bytes that came off the wire (length prefix
    and padding included), in order: ``protocol.frames.read_frame`` wrapped for the test."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.seen: list[tuple[dict[str, Any], bytes]] = []
        real_decode = frames.decode

        async def read_frame(reader: Any, cap: int) -> dict[str, Any]:
            head = await reader.readexactly(4)
            payload = await reader.readexactly(int.from_bytes(head, "big"))
            msg = real_decode(payload, cap)
            self.seen.append((dict(msg), head + payload))
            return msg

        monkeypatch.setattr(frames, "read_frame", read_frame)

    def first_view(self, table: int) -> bytes:
        return next(raw for msg, raw in self.seen
                    if msg.get("type") == "view" and msg.get("table") == table)


async def frame_on_connect(host: Host, cfg: Path, seat: int, table: int, raw: RawFrames
                           ) -> tuple[bytes, bytes, dict[str, Any], list[Any]]:
    """Connect as the player of ``seat``: the first view frame of ``table`` it receives (as it
    came off the wire, and as the session rebuilt it, in msgpack bytes), and the view and legal
    actions the session holds after it."""
    raw.seen.clear()
    session = await Session.connect("127.0.0.1", host.port, name=f"seat{seat}",
                                    config_dir=cfg, identity_file=f"seat{seat}.pem",
                                    accept_new=True)
    try:
        while True:
            msg = await session.next_message(10)
            assert msg is not None, "no view came after connecting"
            if msg["type"] == "view" and msg["table"] == table:
                return (raw.first_view(table), msgpack.packb(msg, use_bin_type=True),
                        session.views[table], session.legal[table])
    finally:
        await session.aclose()


async def seated_table(host: Host, cfg: Path, game: str, players: int) -> int:
    """A started table of ``game`` with a human (one identity per seat) in every seat."""
    tid = host.lobby.create_table(game, players, {}, seed=1)
    for seat in range(players):
        session = await Session.connect("127.0.0.1", host.port, name=f"seat{seat}",
                                        config_dir=cfg, identity_file=f"seat{seat}.pem",
                                        accept_new=True)
        try:
            await session.send({"type": "sit", "table": tid, "seat": seat})
            while session.you.get("seat") != seat:
                assert await session.next_message(10) is not None, "never seated"
        finally:
            await session.aclose()
    host.lobby.start(tid)
    return tid


def put(host: Host, table: int, state: State) -> None:
    """Give the table the engine state ``state`` (a position from random play, or a re-deal of
    one): a fresh :class:`Table` with the same seats, options, seed and salt (so the same
    commitment) takes its place, so nothing the send path keeps per table (what each seat was
    last sent, its log position, its choice) carries over from the state before."""
    old = host.lobby.tables[table]
    fresh = Table(old.id, old.game_name, old.engine, old.seats, old.options)
    fresh.start(old.seed, old.salt)
    fresh.state = clone(state)
    host.lobby.tables[table] = fresh


@pytest.mark.parametrize("game,players,seed,count", CASES, ids=[c[0] for c in CASES])
async def test_the_frame_a_seat_gets_does_not_change_with_what_it_may_not_know(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game: str, players: int, seed: int,
        count: int) -> None:
    host = Host("Leak host", tmp_path / "host_cfg", tmp_path / "host_data", open=True,
                games=[game], bot_delay=3600, absent_after=None)
    await host.start("127.0.0.1", 0)
    cfg = tmp_path / "client"
    rnd = random.Random(seed)
    raw = RawFrames(monkeypatch)
    compared = 0
    try:
        tid = await seated_table(host, cfg, game, players)
        for state in sampled_positions(game, players, seed, count):
            seat = rnd.randrange(players)
            put(host, tid, state)
            wire, frame, view, legal = await frame_on_connect(host, cfg, seat, tid, raw)
            put(host, tid, REDEALS[game](state, seat, rnd))
            wire_again, again, view_again, legal_again = await frame_on_connect(
                host, cfg, seat, tid, raw)
            assert view_again == view and legal_again == legal, (
                f"{game}: seat {seat} sees another view at state {state['version']}")
            assert again == frame, (
                f"{game}: seat {seat} gets another frame at state {state['version']} "
                f"({len(again)} bytes, not {len(frame)})")
            assert wire_again == wire, (
                f"{game}: seat {seat} reads other bytes off the wire at state "
                f"{state['version']} ({len(wire_again)} bytes, not {len(wire)})")
            compared += 1
    finally:
        await host.stop()
    assert compared == count
