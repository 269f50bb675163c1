"""Tournament pairing and standings."""

from host.tournament import Entrant, entrants_from, round_robin_tables, swiss_tables


def test_swiss_seats_leaders_together_and_gives_byes_beyond_full_tables():
    entrants = entrants_from("random,random,random,random,random")
    for e, pts in zip(entrants, [0, 3, 1, 2, 0], strict=True):
        e.points = pts
    tables = swiss_tables(entrants, 2)
    assert [[e.name for e in t] for t in tables] == [["random-2", "random-4"],
                                                      ["random-3", "random-1"]]


def test_swiss_prefers_opponents_not_met_yet():
    a, b, c, d = (Entrant(n, "random") for n in "abcd")
    a.opponents, b.opponents = {"b"}, {"a"}
    assert [[e.name for e in t] for t in swiss_tables([a, b, c, d], 2)] == [["a", "c"],
                                                                            ["b", "d"]]


def test_round_robin_meets_every_group_once():
    tables = round_robin_tables(entrants_from("random,random,random,random"), 3)
    assert len(tables) == 4
    assert len({frozenset(e.name for e in t) for t in tables}) == 4
