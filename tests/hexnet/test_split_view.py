"""Every view is the public view with the seat's private overlay over it (issue 25): the host
builds the public part once per change and shares it between every seat's frame, so it must be
exactly what every seat sees alike — checked over random positions of every game, for every
seat and the spectator, and against re-deals of everything some seat may not know. And a deal a
search sampler draws from a view can be played out without moving the view."""

from __future__ import annotations

import random
from typing import Any

import msgpack
import pytest

from hexnet.games import get_game, get_policy
from hexnet.search import Playout
from tests.hexnet.redeal import REDEALS, random_positions

CASES = [("hexenhammer", 3), ("hexenhammer", 5), ("hranice", 2), ("hranice", 4),
         ("hranice", 6), ("fang", 4), ("fang", 8), ("fang", 12)]


def _packed(value: Any) -> bytes:
    return msgpack.packb(value, use_bin_type=True)


@pytest.mark.parametrize(("name", "players"), CASES)
def test_every_view_is_the_public_view_under_the_seats_private_overlay(name: str,
                                                                       players: int) -> None:
    game = get_game(name)
    checked = 0
    for seed in (1, 2):
        for state in random_positions(name, players, seed, 5, copies=False):
            public = game.public_view(state)
            for seat in [*range(players), None]:
                own = game.private_view(state, seat)
                assert game.view(state, seat) == {**public, **own}
                assert game.view(state, seat, log=False) == {
                    **public, **game.private_view(state, seat, log=False)}
                checked += 1
    assert checked > 60


@pytest.mark.parametrize(("name", "players"), CASES)
def test_the_public_view_does_not_change_when_what_any_seat_may_not_know_is_dealt_anew(
        name: str, players: int) -> None:
    """Re-deal what seat ``s`` may not know (other hands, roles, the pile, private log lines):
    the public view is the same, for every ``s`` — nothing in it is any seat's secret."""
    game = get_game(name)
    rnd = random.Random(3)
    checked = 0
    for state in random_positions(name, players, 4, 6, copies=False):
        base = _packed(game.public_view(state))
        for seat in range(players):
            other = REDEALS[name](state, seat, rnd)
            assert _packed(game.public_view(other)) == base, (
                f"{name}: the public view at state {state['version']} changes when what seat "
                f"{seat} may not know is dealt anew")
            checked += 1
    assert checked > 30


@pytest.mark.parametrize(("name", "players"), [("hexenhammer", 4), ("hranice", 4), ("fang", 8)])
def test_playing_out_a_sampled_deal_leaves_the_view_it_was_drawn_from_as_it_was(
        name: str, players: int) -> None:
    """Search draws many deals from one view and plays each out (the engine changes the deal
    in place): the view it draws the next deal from must not move."""
    game = get_game(name)
    spec = get_policy(name, "search").spec
    rnd = random.Random(6)
    checked = 0
    for state in random_positions(name, players, 7, 5, copies=False):
        if game.outcome(state) is None:
            seat = checked % players
            view = game.view(state, seat)
            before = _packed(view)
            for _ in range(2):
                Playout(game, spec).run(game.sample_state(view, rnd), seat, rnd)
                assert _packed(view) == before, f"{name}: a played-out deal changed its view"
            checked += 1
    assert checked > 5
