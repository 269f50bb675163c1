"""The differential leak check at the network level: a real host over real TLS, a table whose
state is dealt anew (for one seat) between two connections of that seat; the frame the seat
receives on connecting — its whole view, log, legal actions, commitment, padding — must be the
same both times. So nothing the host adds on the way out (fields, lengths) may depend on what
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
from tests.hexnet.redeal import REDEALS, clone, sampled_positions

pytestmark = pytest.mark.timeout(120)

# (game, players, seed of the random game, positions spread over it)
CASES = [("hexenhammer", 4, 21, 8), ("fang", 5, 22, 8), ("hranice", 4, 23, 8)]


async def frame_on_connect(host: Host, cfg: Path, seat: int, table: int
                           ) -> tuple[bytes, dict[str, Any], list[Any]]:
    """Connect as the player of ``seat``: the first view frame of ``table`` it receives (as
    msgpack bytes), and the view and legal actions the session holds after it."""
    session = await Session.connect("127.0.0.1", host.port, name=f"seat{seat}",
                                    config_dir=cfg, identity_file=f"seat{seat}.pem",
                                    accept_new=True)
    try:
        while True:
            msg = await session.next_message(10)
            assert msg is not None, "no view came after connecting"
            if msg["type"] == "view" and msg["table"] == table:
                return (msgpack.packb(msg, use_bin_type=True), session.views[table],
                        session.legal[table])
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
        tmp_path: Path, game: str, players: int, seed: int, count: int) -> None:
    host = Host("Leak host", tmp_path / "host_cfg", tmp_path / "host_data", open=True,
                games=[game], bot_delay=3600, absent_after=None)
    await host.start("127.0.0.1", 0)
    cfg = tmp_path / "client"
    rnd = random.Random(seed)
    compared = 0
    try:
        tid = await seated_table(host, cfg, game, players)
        for state in sampled_positions(game, players, seed, count):
            seat = rnd.randrange(players)
            put(host, tid, state)
            frame, view, legal = await frame_on_connect(host, cfg, seat, tid)
            put(host, tid, REDEALS[game](state, seat, rnd))
            again, view_again, legal_again = await frame_on_connect(host, cfg, seat, tid)
            assert view_again == view and legal_again == legal, (
                f"{game}: seat {seat} sees another view at state {state['version']}")
            assert again == frame, (
                f"{game}: seat {seat} gets another frame at state {state['version']} "
                f"({len(again)} bytes, not {len(frame)})")
            compared += 1
    finally:
        await host.stop()
    assert compared == count
