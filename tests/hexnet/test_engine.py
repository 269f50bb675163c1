"""The shared contract machinery: action shape checks, exact matching, log audiences."""

import pytest

from hexnet.engine import IllegalAction, check_action_shape, emit, find_legal, log_for
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
    emit(state, "secret for seat 1", to=[1])
    assert [e["text"] for e in log_for(state, 1)] == ["public", "secret for seat 1"]
    assert [e["text"] for e in log_for(state, 0)] == ["public"]
    assert [e["text"] for e in log_for(state, None)] == ["public"]
    assert all("to" not in e for e in log_for(state, 1))


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
