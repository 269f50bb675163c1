"""Differential leak tests for every game: over positions from random play, deal anew everything
a seat may not know (``tests/hexnet/redeal.py``) and require what it receives — its view, log
included, and its legal actions — to stay byte for byte the same; the same for the watcher.

Unlike a search for known secrets, this finds a leak in any field, new ones included: another
seat's card kinds, a role, a secret pick, the generator's state, another seat's private log
line. The checks below also prove the re-deals really change the secrets (a re-deal that
changed nothing would pass every engine)."""

from __future__ import annotations

import random

import pytest

from hexnet.games import get_game
from tests.hexnet.redeal import (
    REDEALS,
    differences,
    fang_known_seats,
    packed,
    redeal_fang,
    redeal_hexenhammer,
    redeal_hranice,
    sampled_positions,
)

# (game, players, seed, positions spread over that game): a quick sample by default, more
# under -m slow
QUICK = [(game, players, seed, 16) for game, counts in (
    ("hexenhammer", (3, 4, 5)), ("fang", (4, 6, 9, 12)), ("hranice", (2, 4, 6)))
    for players in counts for seed in (11, 12)]
SLOW = [(game, players, seed, 30) for game, counts in (
    ("hexenhammer", (3, 4, 5)), ("fang", (4, 5, 7, 8, 10, 11, 12)), ("hranice", (2, 3, 5, 6)))
    for players in counts for seed in (100, 101)]


def _ids(case: tuple) -> str:
    return "-".join(str(x) for x in case[:3])


def _check(game: str, players: int, seed: int, count: int) -> int:
    rnd = random.Random(seed)
    checked = 0
    found: list[str] = []
    for state in sampled_positions(game, players, seed, count):
        for seat in [*range(players), None]:
            found += differences(game, state, seat, rnd, tries=1)
            checked += 1
    assert found == [], "\n".join(found[:10])
    return checked


@pytest.mark.parametrize("case", QUICK, ids=_ids)
def test_no_view_changes_when_what_the_seat_may_not_know_is_dealt_anew(case: tuple) -> None:
    assert _check(*case) >= 16 * 3


@pytest.mark.timeout(900)  # a hang bound for a long run on a loaded machine
@pytest.mark.slow
@pytest.mark.parametrize("case", SLOW, ids=_ids)
def test_many_more_positions_show_no_leak(case: tuple) -> None:
    _check(*case)


# --- the re-deals change what they must (else the tests above could not fail) -------------

def _late_position(game: str, players: int, seed: int) -> dict:
    """A position some way into a random game, not over."""
    early, middle, _last = sampled_positions(game, players, seed, 3)
    assert get_game(game).outcome(middle) is None
    return middle


def test_the_hexenhammer_redeal_changes_other_hands_and_kinds_but_not_the_seats_own() -> None:
    # the first sampled position where the other seats hold cards (there is something to move)
    state = next(p for p in sampled_positions("hexenhammer", 4, 1, 6)
                 if get_game("hexenhammer").outcome(p) is None
                 and sum(map(len, p["hands"][1:])) > 2)
    other = redeal_hexenhammer(state, 0, random.Random(1))
    assert other["hands"][0] == state["hands"][0]
    assert all(other["cards"][c] == state["cards"][c] for c in state["hands"][0])
    assert [len(h) for h in other["hands"]] == [len(h) for h in state["hands"]]

    def kinds(s: dict) -> list[list[str]]:
        return [[s["cards"][c][0] for c in h] for h in s["hands"][1:]]

    assert kinds(other) != kinds(state)
    assert other["deck"] != state["deck"] and other["rng"] != state["rng"]


def test_the_hranice_redeal_changes_other_hands_and_the_pile_but_not_the_seats_own() -> None:
    state = _late_position("hranice", 4, 1)
    other = redeal_hranice(state, 2, random.Random(1))
    assert other["hands"][2] == state["hands"][2]
    assert [len(h) for h in other["hands"]] == [len(h) for h in state["hands"]]
    assert other["hands"] != state["hands"] and other["pile"] != state["pile"]
    assert sorted(c for h in other["hands"] for c in h) + sorted(other["pile"]) != []


def test_the_fang_redeal_moves_every_role_the_seat_does_not_know() -> None:
    state = _late_position("fang", 8, 3)
    rnd = random.Random(3)
    viewer = next(s for s, r in enumerate(state["roles"]) if r == "dorfkatze")
    moved = set()
    for _ in range(20):
        other = redeal_fang(state, viewer, rnd)
        assert other["roles"][viewer] == state["roles"][viewer]
        assert sorted(other["roles"]) == sorted(state["roles"])
        moved |= {s for s in range(8) if other["roles"][s] != state["roles"][s]}
    unknown = {s for s in range(8) if s not in fang_known_seats(state, viewer)}
    cat_or_frog = {s for s in unknown if state["form"][s] != "banished"}
    assert moved and moved <= cat_or_frog


def test_a_witch_keeps_knowing_the_witches_after_a_fang_redeal() -> None:
    state = _late_position("fang", 8, 3)
    witches = [s for s, r in enumerate(state["roles"]) if r == "hexe"]
    other = redeal_fang(state, witches[0], random.Random(5))
    assert [s for s, r in enumerate(other["roles"]) if r == "hexe"] == witches


@pytest.mark.parametrize("game", sorted(REDEALS))
def test_a_private_log_line_of_another_seat_is_rewritten_by_the_redeal(game: str) -> None:
    state = _late_position(game, 4, 2)
    private = [e for e in state["log"] if e.get("to") and 0 not in e["to"]]
    assert private, "no private line for another seat in this position"
    other = REDEALS[game](state, 0, random.Random(2))
    assert all(other["log"][e["n"]] != e for e in private)
    assert all(other["log"][e["n"]] == e for e in state["log"] if not e.get("to")
               or 0 in e["to"])


@pytest.mark.parametrize("game", sorted(REDEALS))
def test_a_view_showing_a_hidden_field_is_found(game: str, monkeypatch) -> None:
    """The check itself can fail: a view with one extra field copied from the hidden state
    (the generator's state, which every game keeps) is reported."""
    engine = get_game(game)
    honest = type(engine).view

    def leaky(self, state, seat):  # noqa: ANN001
        return {**honest(self, state, seat), "rng": state["rng"]}

    monkeypatch.setattr(type(engine), "view", leaky)
    state = _late_position(game, 4, 4)
    assert packed(engine, state, 1) != packed(engine, REDEALS[game](state, 1, random.Random(4)),
                                              1)
    assert differences(game, state, 1, random.Random(4))


def test_no_view_changes_while_a_seat_picks_what_vyslech_discards() -> None:
    """Výslech's "choose" stage (the looker sees one hand) is rare in an even sample of a game,
    so it gets positions of its own: every such position of several random games, every seat."""
    from tests.hexnet.redeal import random_positions

    rnd = random.Random(5)
    found: list[str] = []
    checked = 0
    for players, seed in [(2 + seed % 5, seed) for seed in range(1, 25)]:
        for state in random_positions("hranice", players, seed, 1, copies=False):
            step = state["step"]
            if step is None or step.get("stage") != "choose" or checked >= 40:
                continue
            for seat in [*range(players), None]:
                found += differences("hranice", state, seat, rnd, tries=1)
            checked += 1
    assert checked >= 5, f"only {checked} Výslech positions in these games"
    assert found == [], "\n".join(found[:10])
