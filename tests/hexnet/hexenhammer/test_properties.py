"""Property tests over random games: the contract, determinism, dump/load from any point, every
game ends, and no view leaks another seat's hand or the draw pile."""

import random
import re

import msgpack
import pytest

from hexnet.games.hexenhammer import GAME
from tests.hexnet.contract import random_game, replay
from tests.hexnet.hexenhammer.util import texts

# (players, seeds): 300 games across 3–5 players (slow), a quick sample of them by default;
# the contract (refusals, dump/load round trip, stable legal actions) is checked every few steps
QUICK = [(3, range(0, 40)), (4, range(1000, 1025)), (5, range(2000, 2010))]
FULL = [(3, range(0, 130)), (4, range(1000, 1110)), (5, range(2000, 2060))]


def _ids(x):
    return str(x) if isinstance(x, int) else f"{len(x)}games"


@pytest.mark.parametrize("players,seeds", QUICK, ids=_ids)
def test_random_games_keep_the_contract_and_end(players, seeds):
    _play_random(players, seeds)


@pytest.mark.timeout(900)  # a hang bound for a long run on a loaded machine
@pytest.mark.slow
@pytest.mark.parametrize("players,seeds", FULL, ids=_ids)
def test_three_hundred_random_games_keep_the_contract_and_end(players, seeds):
    _play_random(players, seeds)


def _play_random(players, seeds):
    for seed in seeds:
        state, history = random_game(GAME, players, seed, check_every=37)
        out = GAME.outcome(state)
        assert out is not None and len(out["scores"]) == players
        alive = sum(v["alive"] for v in state["villagers"].values())
        assert alive <= players
        assert sorted(out["winners"]) == [s for s, t in enumerate(out["scores"])
                                          if t == max(out["scores"])]
        assert sum(len(h) for h in state["hands"]) + len(state["deck"]) + len(
            state["discard"]) + len(state["removed"]) + sum(len(k) for k in state["kept"]) \
            + (1 if state["protected"] else 0) == 78


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_same_seed_and_actions_give_the_same_game(players):
    for seed in range(3):
        state, history = random_game(GAME, players, 500 + seed, check_every=1000)
        again = replay(GAME, players, 500 + seed, history)
        assert GAME.dump(again) == GAME.dump(state)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_dump_and_load_continue_identically_from_any_point(players):
    r = random.Random(players)
    for seed in range(4):
        final, history = random_game(GAME, players, 700 + seed, check_every=1000)
        for _ in range(3):
            cut = r.randrange(len(history))
            state = replay(GAME, players, 700 + seed, history[:cut])
            loaded = GAME.load(GAME.dump(state))
            for seat, action in history[cut:]:
                GAME.apply(loaded, seat, action)
            assert GAME.dump(loaded) == GAME.dump(final)


def _packed(cid: str) -> bytes:
    """How a card id appears inside msgpack bytes (a fixstr: length byte, then the text)."""
    return bytes([0xA0 | len(cid)]) + cid.encode()


@pytest.mark.parametrize("players", [3, 4, 5])
def test_no_view_reveals_another_hand_or_the_draw_pile(players):
    for seed in range(2 if players < 5 else 1):
        state = GAME.setup([f"p{i}" for i in range(players)], 900 + seed, {})
        r = random.Random(seed)
        while GAME.outcome(state) is None:
            for seat in [*range(players), None]:
                view = GAME.view(state, seat)
                blob = msgpack.packb(view)
                hidden = list(state["deck"])
                for other in range(players):
                    if other != seat:
                        hidden.extend(state["hands"][other])
                leaked = [c for c in hidden if _packed(c) in blob]
                assert not leaked, f"hidden card ids {leaked} in the view of seat {seat}"
                assert not any(re.search(r"\bc\d+\b", str(e)) for e in view["log"])
                own = set(state["hands"][seat]) if seat is not None else set()
                assert {c["id"] for c in view["hand"]} == own
                assert view["hand_sizes"] == [len(h) for h in state["hands"]]
                assert all("to" not in e for e in view["log"])
            waiting = GAME.waiting_for(state)
            seat = r.choice(waiting)
            GAME.apply(state, seat, r.choice(GAME.legal_actions(state, seat)))


def test_private_log_lines_reach_only_their_seat():
    state = GAME.setup(["a", "b", "c"], 4, {})
    turn = GAME.waiting_for(state)[0]
    GAME.apply(state, turn, {"type": "pass"})
    mine = texts(state, turn)
    other = texts(state, (turn + 1) % 3)
    assert any(t.startswith("You draw") for t in mine)
    assert not any(t.startswith("You draw") for t in other)
    assert any(t.endswith("draws 1 card.") for t in other)


def _where_cards_are(state) -> list[str]:
    places = [*state["deck"], *state["discard"], *state["removed"]]
    for pile in (*state["hands"], *state["kept"]):
        places.extend(pile)
    if state["protected"]:
        places.append(state["protected"]["card"])
    for window in (state["window"], state["interrupted"]):
        if window and "card" in window["trigger"]:
            places.append(window["trigger"]["card"])
    if state["choice"] and state["choice"]["trial"]:
        places.append(state["choice"]["trial"]["card"])
    return places


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_card_is_in_exactly_one_place_and_suspicion_stays_on_the_stake(players):
    for seed in range(3):
        state = GAME.setup([f"p{i}" for i in range(players)], 300 + seed, {})
        r = random.Random(seed)
        while GAME.outcome(state) is None:
            places = _where_cards_are(state)
            assert sorted(places) == sorted(state["cards"]), "a card is lost or doubled"
            for v in state["villagers"].values():
                assert v["start"] <= v["suspicion"] <= 18
            seat = r.choice(GAME.waiting_for(state))
            GAME.apply(state, seat, r.choice(GAME.legal_actions(state, seat)))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_host_timeouts_and_absent_seats_always_make_progress(players):
    for seed in range(3):
        state = GAME.setup([f"p{i}" for i in range(players)], 400 + seed, {})
        r = random.Random(seed)
        steps = 0
        while GAME.outcome(state) is None:
            steps += 1
            assert steps < 20_000
            waiting = GAME.waiting_for(state)
            deadline = GAME.deadline(state)
            roll = r.random()
            if deadline is not None and roll < 0.1:
                GAME.apply(state, None, {"type": "timeout", "key": deadline.key})
                continue
            seat = r.choice(waiting)
            if roll < 0.2:
                before = GAME.dump(state)
                GAME.apply(state, None, {"type": "absent", "seat": seat})
                assert GAME.dump(state) != before
                continue
            GAME.apply(state, seat, r.choice(GAME.legal_actions(state, seat)))
