"""The shared contract machinery: action shape checks, exact matching, log audiences."""

import pytest

from hexnet.engine import IllegalAction, check_action_shape, emit, find_legal, log_for
from hexnet.games import available, get_game, names
from hexnet.turns import answer, clockwise, is_closed, next_seat, open_window, others_in_order


@pytest.mark.parametrize("bad", [None, [], "x", {"type": 1}, {"type": "a", "b": [1]},
                                 {"type": "a" * 100}, {"type": "a", "n": 1 << 40}])
def test_malformed_actions_are_refused(bad):
    with pytest.raises(IllegalAction):
        check_action_shape(bad)


def test_a_bool_does_not_match_an_int_field():
    legal = [{"type": "play", "sign": 1}]
    assert find_legal({"type": "play", "sign": True}, legal) is None
    assert find_legal({"sign": 1, "type": "play"}, legal) == legal[0]


def test_private_events_reach_only_their_audience():
    state = {"log": []}
    emit(state, "public")
    emit(state, "secret_for_seat_1", to=[1])
    assert [e["key"] for e in log_for(state, 1)] == ["public", "secret_for_seat_1"]
    assert [e["key"] for e in log_for(state, 0)] == ["public"]
    assert [e["key"] for e in log_for(state, None)] == ["public"]
    assert all("to" not in e for e in log_for(state, 1))


def test_an_event_is_its_key_its_arguments_and_for_a_private_one_its_audience():
    state = {"log": []}
    assert emit(state, "draws", player=2, count=3) == {"n": 0, "key": "draws", "player": 2,
                                                       "count": 3}
    assert emit(state, "you_draw", to=[3, 1], kind="beweys") == {
        "n": 1, "key": "you_draw", "kind": "beweys", "to": [1, 3]}


def test_a_refusal_is_a_key_with_arguments_worded_at_the_edge():
    with pytest.raises(IllegalAction) as caught:
        check_action_shape({"type": "play", "card": "x" * 80})
    assert caught.value.as_dict() == {"key": "action_field_too_long", "field": "card"}
    assert caught.value.reason == "Field card is too long."


def test_turn_order_wraps_and_skips_ineligible_seats():
    assert clockwise(2, 4) == [2, 3, 0, 1]
    assert others_in_order(2, 4) == [3, 0, 1]
    assert next_seat(3, 4, lambda s: s != 0) == 1
    assert next_seat(1, 4, lambda s: False) is None


def test_a_reaction_window_closes_when_everyone_answered():
    w = open_window({"card": "c1"}, [1, 2])
    answer(w, 2, {"type": "pass"})
    assert not is_closed(w)
    answer(w, 1, {"type": "pass"})
    assert is_closed(w)


def test_every_game_hexnet_names_is_installed_and_only_those() -> None:
    """No test skips a game that dropped out: a game that stops importing fails here (and in
    every test of it), and no test game leaks into the registry other tests see."""
    assert names() == ["hexenhammer", "fang", "hranice"]
    assert available() == names()
    assert all(get_game(name).name == name for name in names())


def test_the_test_games_have_names_of_their_own_and_stay_out_of_the_registry() -> None:
    """The toy game is lent to a test by ``register(monkeypatch)`` only (undone after it), and
    the dice race is handed over directly: two test games with one name, or one registered for
    good as a side effect of importing it, would let one test play another's game."""
    from tests.host import toygame
    from tests.host.dice_race import DiceRace

    test_games = [toygame.GAME.name, DiceRace().name]
    assert test_games == ["toy", "dice_race"]
    assert not set(test_games) & set(names())
    with pytest.raises(KeyError, match="No game called 'toy'"):
        get_game("toy")
