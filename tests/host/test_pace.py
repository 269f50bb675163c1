"""The table's pace (issue 14, item 3): chosen at creation from the game's declared paces
(``seeds/<game>.toml``), it sets the timed windows' seconds — the ones the table sets itself win —
so the lobby shows them and the game times them; an unknown pace is refused, nothing made."""

from __future__ import annotations

import pytest

from hexnet.games.hranice import setup as hranice_setup
from tests.host.test_table_options import create, lobby

PACES = [("hexenhammer", 3, "relaxed", {"reaction_seconds": 20.0, "panic_seconds": 90.0}),
         ("hexenhammer", 3, "quick", {"reaction_seconds": 5.0, "panic_seconds": 30.0}),
         ("hranice", 3, "relaxed", {"reaction_seconds": 15}),
         ("fang", 5, "quick", {"pick_seconds": 40, "witches_seconds": 10, "talk_seconds": 120,
                               "proposal_seconds": 40, "proposal_vote_seconds": 20,
                               "vote_seconds": 40})]


@pytest.mark.parametrize("game, seats, pace, seconds", PACES,
                         ids=[f"{g}-{p}" for g, _, p, _ in PACES])
def test_a_pace_sets_the_tables_seconds_and_the_lobby_shows_them(game, seats, pace,
                                                                 seconds) -> None:
    lb, rec = lobby()
    assert create(lb, rec, game, seats, {"pace": pace}) == []
    entry = lb.tables_info()[0]
    assert entry["options"] == {"pace": pace, **seconds}


def test_an_option_the_table_sets_itself_wins_over_its_pace() -> None:
    lb, rec = lobby()
    assert create(lb, rec, "hranice", 3, {"pace": "quick", "reaction_seconds": 12}) == []
    table = next(iter(lb.tables.values()))
    assert table.options == {"pace": "quick", "reaction_seconds": 12}
    lb.add_bot(table.id)
    lb.add_bot(table.id)
    lb.start(table.id)
    assert hranice_setup.options_of(table.state)["reaction_seconds"] == 12


def test_the_game_times_its_windows_by_the_pace() -> None:
    lb, rec = lobby()
    assert create(lb, rec, "hranice", 3, {"pace": "relaxed"}) == []
    table = next(iter(lb.tables.values()))
    lb.add_bot(table.id)
    lb.add_bot(table.id)
    lb.start(table.id)
    assert hranice_setup.options_of(table.state)["reaction_seconds"] == 15


def test_an_unknown_pace_is_refused_and_no_table_made() -> None:
    lb, rec = lobby()
    errors = create(lb, rec, "hexenhammer", 3, {"pace": "lightning"})
    assert [e["code"] for e in errors] == ["bad_options"]
    assert "relaxed, normal, quick" in errors[0]["message"]
    assert lb.tables == {}
