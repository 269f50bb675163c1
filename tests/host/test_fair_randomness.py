"""Randomness worthy of the commitment (issue 9, finding 10): a hosted game is dealt from a
256-bit seed, and the host's bots draw from their own secret stream, not from the game's seed."""

from __future__ import annotations

from hexnet.fairness import new_seed
from host.fairplay import reveal_messages
from host.lobby import Lobby
from tests.host.test_lobby import Recorder


def started(lb: Lobby, seed: int | None = None) -> int:
    tid = lb.create_table("toy", 2, seed=seed)
    lb.add_bot(tid, 0, "random")
    lb.add_bot(tid, 1, "random")
    lb.start(tid)
    return tid


def test_host_bots_draw_from_their_own_stream_not_from_the_games_seed() -> None:
    lb = Lobby(Recorder())
    one, two = started(lb, seed=5), started(lb, seed=5)
    a, b = lb.tables[one], lb.tables[two]
    assert a.seed == b.seed  # one deal ...
    # ... but nothing of it in the bots' choices: their draws differ, and do not come from a
    # generator seeded with the game's seed
    assert [a.bot_rng.random() for _ in range(8)] != [b.bot_rng.random() for _ in range(8)]


def test_a_hosted_game_is_dealt_from_256_bits_and_the_reveal_shows_them() -> None:
    seed, salt = new_seed()
    assert len(seed) == 32 and len(salt) == 16
    lb = Lobby(Recorder())
    tid = started(lb)
    table = lb.tables[tid]
    assert isinstance(table.seed, bytes) and len(table.seed) == 32
    assert table.state["rng"]["key"] == table.seed
    while table.status == "playing":
        lb.bot_turn(tid, table.waiting_for()[0], table.version)  # (the engine's step)
    [reveal] = reveal_messages(table)
    assert reveal["seed"] == table.seed
