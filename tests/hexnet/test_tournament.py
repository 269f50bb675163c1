"""Tournament rules (hexnet.tournament): pairings, byes, brackets, ranking points, tie-breaks."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexnet.tournament import (
    History,
    Result,
    Round,
    TournamentError,
    bye_points,
    knockout_over,
    knockout_tables,
    meetings,
    round_robin_schedule,
    seat_by_standing,
    table_points,
    turn_seats,
)


def names(n: int) -> list[str]:
    return [f"e{i}" for i in range(1, n + 1)]


def play_round(h: History, outcome) -> Round:
    """Draw the next round, record each table's points from ``outcome(seats) -> points``."""
    rnd = h.next_round()
    h.add_round(rnd)
    for t, seats in enumerate(rnd.tables, 1):
        points = tuple(outcome(seats))
        first = tuple(s for s, p in enumerate(points) if p == max(points))
        h.record(Result(rnd.number, t, seats, points, first))
    return rnd


def placements_by(rng: random.Random):
    """Random placement points for a table (no ties)."""
    def outcome(seats):
        order = list(range(len(seats)))
        rng.shuffle(order)
        return [float(len(seats) - 1 - order.index(s)) for s in range(len(seats))]
    return outcome


def seed_wins(h: History):
    """The better seed places higher at every table."""
    def outcome(seats):
        ranked = sorted(seats, key=h.entrants.index)
        return [float(len(seats) - 1 - ranked.index(e)) for e in seats]
    return outcome


def repeats(tables, met) -> int:
    return sum(met.get(frozenset(p), 0) for t in tables for p in itertools.combinations(t, 2))


# --- swiss ---------------------------------------------------------------------------------

def test_swiss_seats_everyone_but_the_surplus_every_round():
    h = History(names(5), 4, "swiss", 1.5)
    for _ in range(6):
        rnd = play_round(h, placements_by(random.Random(1)))
        seated = [e for t in rnd.tables for e in t]
        assert len(rnd.tables) == 1 and len(rnd.byes) == 1
        assert sorted(seated + list(rnd.byes)) == names(5)


def test_swiss_seats_seven_at_tables_of_four_and_three_not_three_byes():
    """Issue 26, item 10: a game that seats 3 plays 7 entrants as 4 + 3, every round."""
    h = History(names(7), 4, "swiss", 1.5, min_seats=3)
    for _ in range(5):
        rnd = play_round(h, placements_by(random.Random(3)))
        assert [len(t) for t in rnd.tables] == [4, 3] and rnd.byes == ()
        assert sorted(e for t in rnd.tables for e in t) == names(7)


@pytest.mark.parametrize("n,size,smallest,tables,byes", [
    (7, 4, 3, [4, 3], 0), (6, 4, 3, [3, 3], 0), (10, 4, 3, [4, 3, 3], 0),
    (11, 4, 3, [4, 4, 3], 0), (5, 4, 3, [4], 1), (5, 4, 2, [4], 1), (7, 4, 4, [4], 3),
    (13, 5, 3, [5, 4, 4], 0), (7, 3, 2, [3, 2, 2], 0), (9, 2, 2, [2, 2, 2, 2], 1)])
def test_swiss_fills_tables_of_its_size_or_one_fewer_before_anyone_sits_out(
        n, size, smallest, tables, byes):
    rnd = History(names(n), size, "swiss", 1.0, min_seats=smallest).next_round()
    assert [len(t) for t in rnd.tables] == tables and len(rnd.byes) == byes
    # the full tables are the top standings' (round 1: the seeds)
    assert rnd.tables[0] == tuple(names(n)[:tables[0]])


def test_swiss_byes_rotate_so_nobody_has_a_second_before_everyone_had_one():
    h = History(names(7), 2, "swiss", 0.5)
    rng = random.Random(4)
    for rnd_no in range(1, 15):
        play_round(h, placements_by(rng))
        byes = [line.byes for line in h.standings()]
        assert max(byes) - min(byes) <= 1, f"round {rnd_no}: byes {byes}"
    assert sorted(line.byes for line in h.standings()) == [2] * 7


def test_swiss_bye_goes_to_the_lowest_standing_without_a_bye():
    h = History(names(5), 2, "swiss", 0.5)
    h.add_round(Round(1, (("e1", "e2"), ("e3", "e4")), ("e5",)))
    h.record(Result(1, 1, ("e1", "e2"), (1.0, 0.0), (0,)))
    h.record(Result(1, 2, ("e3", "e4"), (1.0, 0.0), (0,)))
    # standings: e1, e3 (1 point), e5 (bye ½), e2, e4 (0): e4 is last and has had no bye
    assert h.next_round().byes == ("e4",)


def test_swiss_seats_leaders_together():
    h = History(names(4), 2, "swiss", 0.5)
    h.add_round(Round(1, (("e1", "e2"), ("e3", "e4"))))
    h.record(Result(1, 1, ("e1", "e2"), (0.0, 1.0), (1,)))
    h.record(Result(1, 2, ("e3", "e4"), (1.0, 0.0), (0,)))
    # e2 and e3 lead; e1 and e4 trail; nobody meets again
    assert {frozenset(t) for t in h.next_round().tables} == {frozenset({"e2", "e3"}),
                                                               frozenset({"e1", "e4"})}


def test_swiss_prefers_opponents_not_met_yet_over_standing():
    met = {frozenset({"a", "b"}): 1}
    assert seat_by_standing(["a", "b", "c", "d"], 2, met) == [("a", "c"), ("b", "d")]


def test_swiss_repeats_a_meeting_only_when_every_seating_would():
    # 4 entrants at 2 seats: after the 3 rounds of a full round-robin every pair has met once
    met = {frozenset(p): 1 for p in itertools.combinations("abcd", 2)}
    met[frozenset("ab")] = 2
    # some pair must meet again; a-b (twice already) is avoided: a-c / b-d costs 2, a-b costs 3
    assert seat_by_standing(list("abcd"), 2, met) == [("a", "c"), ("b", "d")]


def _all_seatings(players: list[str], size: int):
    if not players:
        yield []
        return
    head, rest = players[0], players[1:]
    for partners in itertools.combinations(rest, size - 1):
        left = [p for p in rest if p not in partners]
        for more in _all_seatings(left, size):
            yield [(head, *partners), *more]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), size=st.sampled_from([2, 3, 4]),
       rounds=st.integers(1, 7))
def test_swiss_has_the_fewest_repeat_meetings_any_seating_could_have(seed, size, rounds):
    n = {2: 8, 3: 9, 4: 8}[size]
    h = History(names(n), size, "swiss", bye_points("hranice", size))
    rng = random.Random(seed)
    for _ in range(rounds):
        met = meetings(h.results)
        ranked = [line.name for line in h.standings()]
        rnd = play_round(h, placements_by(rng))
        fewest = min(repeats(s, met) for s in _all_seatings(ranked, size))
        assert repeats(rnd.tables, met) == fewest


def test_swiss_with_odd_count_at_two_seats_gives_one_bye_a_round():
    h = History(names(9), 2, "swiss", 0.5)
    for _ in range(9):
        rnd = play_round(h, placements_by(random.Random(2)))
        assert len(rnd.tables) == 4 and len(rnd.byes) == 1
    assert [line.byes for line in h.standings()] == [1] * 9


def test_seats_turn_by_one_each_round():
    h = History(names(2), 2, "round-robin", 0.5)
    first = [play_round(h, seed_wins(h)).tables[0][0] for _ in range(4)]
    assert first == ["e1", "e2", "e1", "e2"]


# --- round-robin ---------------------------------------------------------------------------

@pytest.mark.parametrize("n,size", [(4, 2), (5, 2), (6, 3), (7, 3), (8, 4), (5, 4)])
def test_round_robin_meets_every_group_exactly_once_nobody_twice_a_round(n, size):
    schedule = round_robin_schedule(names(n), size)
    groups = [frozenset(t) for tables, _ in schedule for t in tables]
    assert sorted(map(sorted, groups)) == sorted(
        map(sorted, map(frozenset, itertools.combinations(names(n), size))))
    for tables, byes in schedule:
        seated = [e for t in tables for e in t]
        assert len(seated) == len(set(seated)) and sorted(seated + list(byes)) == names(n)


def test_round_robin_circle_method_gives_odd_counts_one_bye_each():
    schedule = round_robin_schedule(names(5), 2)
    assert len(schedule) == 5
    assert sorted(b for _, byes in schedule for b in byes) == names(5)
    assert len(round_robin_schedule(names(6), 2)) == 5


def test_round_robin_of_eight_at_four_seats_seats_everyone_every_round():
    schedule = round_robin_schedule(names(8), 4)
    assert len(schedule) == 35 and all(len(tables) == 2 for tables, _ in schedule)


def test_round_robin_refuses_a_schedule_too_large():
    with pytest.raises(TournamentError, match="play a Swiss event instead"):
        round_robin_schedule(names(60), 4)


# --- knockout ------------------------------------------------------------------------------

def test_knockout_of_eight_at_two_seats_is_the_classic_bracket():
    h = History(names(8), 2, "knockout", 0.5)
    assert play_round(h, seed_wins(h)).tables == (("e1", "e8"), ("e2", "e7"), ("e3", "e6"),
                                                  ("e4", "e5"))
    # round 2 turns the seats: 1 meets the winner of 4–5, 2 the winner of 3–6
    assert [set(t) for t in play_round(h, seed_wins(h)).tables] == [{"e1", "e4"}, {"e2", "e3"}]
    assert set(play_round(h, seed_wins(h)).tables[0]) == {"e1", "e2"}
    assert knockout_over(h)
    assert [(s.name, s.reached) for s in h.standings()] == [
        ("e1", 3), ("e2", 2), ("e3", 1), ("e4", 1), ("e5", 0), ("e6", 0), ("e7", 0), ("e8", 0)]


def test_knockout_gives_byes_to_the_top_seeds_when_not_a_power_of_the_table_size():
    h = History(names(5), 2, "knockout", 0.5)
    rnd = h.next_round()
    assert rnd.byes == ("e1", "e2", "e3") and rnd.tables == (("e4", "e5"),)
    assert knockout_tables(h) == [1, 2, 1]


def test_knockout_at_four_seats_deals_the_seeds_serpentine():
    h = History(names(16), 4, "knockout", 1.5, min_seats=3)
    assert h.next_round().tables == (("e1", "e8", "e9", "e16"), ("e2", "e7", "e10", "e15"),
                                     ("e3", "e6", "e11", "e14"), ("e4", "e5", "e12", "e13"))
    assert knockout_tables(h) == [4, 1]


def test_knockout_seats_short_tables_where_the_game_allows_them():
    h = History(names(10), 4, "knockout", 1.5, min_seats=3)  # e.g. Hexenhammer: 3–5 seats
    rnd = h.next_round()
    assert rnd.byes == ("e1",)
    assert rnd.tables == (("e2", "e7", "e8"), ("e3", "e6", "e9"), ("e4", "e5", "e10"))


def test_knockout_refuses_a_count_no_bracket_fits():
    with pytest.raises(TournamentError) as exc:
        History(names(6), 4, "knockout", 0.5, min_seats=4).next_round()  # Fang at 4 seats
    assert str(exc.value) == ("a knockout of 6 entrants cannot be drawn at tables of 4 seats "
                              "(each table sends one on); 4, 7, 10, 13, 16 entrants can be")


def test_knockout_sends_on_the_better_seed_when_a_table_ties():
    h = History(names(4), 2, "knockout", 0.5)
    play_round(h, lambda seats: [0.5, 0.5])
    assert [set(t) for t in h.next_round().tables] == [{"e1", "e2"}]


def test_knockout_of_seven_at_four_seats_plays_to_one_champion():
    h = History(names(7), 4, "knockout", 1.5, min_seats=4)
    first = play_round(h, seed_wins(h))
    assert first.byes == ("e1", "e2", "e3") and first.tables == (("e4", "e5", "e6", "e7"),)
    final = play_round(h, seed_wins(h))
    assert set(final.tables[0]) == {"e1", "e2", "e3", "e4"} and knockout_over(h)
    with pytest.raises(TournamentError, match="over after 2 rounds"):
        h.next_round()
    assert [s.name for s in h.standings()][:4] == ["e1", "e2", "e3", "e4"]


# --- ranking points ------------------------------------------------------------------------

def test_placement_points_one_per_seat_below_half_per_seat_level():
    outcome = {"scores": [5, 9, 9, 1], "winners": [1, 2]}
    assert table_points("hexenhammer", outcome, 4) == [1.0, 2.5, 2.5, 0.0]


def test_hranice_winner_places_first_even_with_less_influence():
    outcome = {"scores": [10, 8, 11, 3], "winners": [1]}  # seat 1 reached the target
    assert table_points("hranice", outcome, 4) == [1.0, 3.0, 2.0, 0.0]


def test_fang_scores_side_wins():
    outcome = {"scores": [1, 0, 0, 1, 0], "winners": [0, 3]}
    assert table_points("fang", outcome, 5) == [1.0, 0.0, 0.0, 1.0, 0.0]


def test_a_bye_scores_half_the_most_one_seat_can_earn():
    assert bye_points("hexenhammer", 4) == 1.5
    assert bye_points("hranice", 2) == 0.5
    assert bye_points("fang", 8) == 0.5


# --- standings and tie-breaks ---------------------------------------------------------------

def two_seat(h: History, number: int, *tables: tuple[str, str, float, float]) -> None:
    h.add_round(Round(number, tuple((a, b) for a, b, _, _ in tables)))
    for t, (a, b, pa, pb) in enumerate(tables, 1):
        first = tuple(s for s, p in enumerate((pa, pb)) if p == max(pa, pb))
        h.record(Result(number, t, (a, b), (pa, pb), first))


def test_swiss_ties_break_by_buchholz_when_the_median_is_level():
    h = History(list("ABCDEF"), 2, "swiss", 0.5)
    two_seat(h, 1, ("A", "B", 1, 0), ("C", "D", 1, 0), ("E", "F", 1, 0))
    two_seat(h, 2, ("A", "C", 1, 0), ("E", "B", 1, 0), ("D", "F", 1, 0))
    two_seat(h, 3, ("A", "D", 1, 0), ("E", "C", 1, 0), ("B", "F", 1, 0))
    lines = {s.name: s for s in h.standings()}
    # A met B, C, D (1 point each); E met F (0), B, C (1 each)
    assert (lines["A"].points, lines["A"].median_buchholz, lines["A"].buchholz) == (3, 1, 3)
    assert (lines["E"].points, lines["E"].median_buchholz, lines["E"].buchholz) == (3, 1, 2)
    # C met D (1), A (3), E (3); B met A, E (3 each), F (0); D met C (1), F (0), A (3)
    assert (lines["C"].median_buchholz, lines["C"].buchholz) == (3, 7)
    assert (lines["B"].median_buchholz, lines["B"].buchholz) == (3, 6)
    assert (lines["D"].median_buchholz, lines["D"].buchholz) == (1, 4)
    assert [s.name for s in h.standings()] == ["A", "E", "C", "B", "D", "F"]


def test_swiss_median_buchholz_comes_before_buchholz():
    h = History(list("XYABCDEF"), 2, "swiss", 0.5)
    two_seat(h, 1, ("X", "A", 1, 0), ("Y", "D", 1, 0), ("B", "C", 1, 1), ("E", "F", 0, 2))
    two_seat(h, 2, ("X", "B", 1, 0), ("Y", "E", 1, 0), ("A", "D", 0, 0), ("C", "F", 0, 1))
    two_seat(h, 3, ("X", "C", 1, 1), ("Y", "F", 1, 1), ("A", "E", 0, 1), ("B", "D", 1, 0))
    lines = {s.name: s for s in h.standings()}
    # X met A 0, B 2, C 2: median 2, Buchholz 4; Y met D 0, E 1, F 4: median 1, Buchholz 5
    assert (lines["X"].points, lines["X"].median_buchholz, lines["X"].buchholz) == (3, 2, 4)
    assert (lines["Y"].points, lines["Y"].median_buchholz, lines["Y"].buchholz) == (3, 1, 5)
    assert [s.name for s in h.standings()][1:3] == ["X", "Y"]


def test_byes_add_points_but_no_buchholz():
    h = History(names(3), 2, "swiss", 0.5)
    h.add_round(Round(1, (("e1", "e2"),), ("e3",)))
    h.record(Result(1, 1, ("e1", "e2"), (1.0, 0.0), (0,)))
    e3 = next(s for s in h.standings() if s.name == "e3")
    assert (e3.points, e3.byes, e3.games, e3.buchholz) == (0.5, 1, 0, 0)


def test_round_robin_ties_break_by_tables_won_then_seed():
    h = History(list("ABC"), 2, "round-robin", 0.5)
    two_seat(h, 1, ("A", "B", 0.5, 0.5))
    two_seat(h, 2, ("B", "C", 1, 0))
    two_seat(h, 3, ("C", "A", 0, 1))
    # A and B: 1.5 points; A won one table outright and shared one, B the same: seed decides
    assert [(s.name, s.points, s.wins) for s in h.standings()] == [
        ("A", 1.5, 2), ("B", 1.5, 2), ("C", 0.0, 0)]


def test_history_survives_a_round_trip_through_plain_data():
    h = History(names(5), 2, "swiss", 0.5)
    for _ in range(3):
        play_round(h, placements_by(random.Random(9)))
    again = History.from_dict(h.as_dict())
    assert again.as_dict() == h.as_dict()
    assert [s.as_dict() for s in again.standings()] == [s.as_dict() for s in h.standings()]
    assert again.next_round() == h.next_round()


@pytest.mark.parametrize("kwargs,message", [
    ({"entrants": ["a", "a", "b"]}, "names must differ"),
    ({"fmt": "ladder"}, "no tournament format 'ladder'"),
    ({"entrants": ["a", "b", "c"], "size": 4}, "3 entrants cannot fill a table of 4"),
])
def test_an_event_that_cannot_be_drawn_is_refused(kwargs, message):
    args = {"entrants": names(4), "size": 2, "fmt": "swiss", "bye_points": 0.5, **kwargs}
    with pytest.raises(TournamentError, match=message):
        History(**args)


@pytest.mark.parametrize("size", [3, 4, 5])
def test_seats_turn_one_way_then_the_other_so_nobody_keeps_a_neighbour_on_one_side(size) -> None:
    table = tuple(f"e{i}" for i in range(size))
    rounds = [turn_seats(table, number) for number in range(1, 2 * size + 1)]
    for name in table:
        assert sorted(r.index(name) for r in rounds) == sorted(list(range(size)) * 2)
        after = Counter(r[(r.index(name) + 1) % size] for r in rounds)
        before = Counter(r[r.index(name) - 1] for r in rounds)
        assert after == before  # each neighbour as often on the one side as on the other
        assert set(after) == {table[(table.index(name) + 1) % size],
                              table[table.index(name) - 1]}


def test_two_seats_turn_as_before() -> None:
    assert [turn_seats(("a", "b"), n) for n in range(1, 5)] == [
        ("a", "b"), ("b", "a"), ("a", "b"), ("b", "a")]
