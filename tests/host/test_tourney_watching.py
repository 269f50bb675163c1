"""A host tournament's tables may be broadcast late (issue 15): ``hexnet host --tournament …
--option watch_delay=N`` (and ``watch=false``) reach every table as its watching rules, never
as a game option (they stay out of the engine and the fairness commitment)."""

from __future__ import annotations

import pytest

from hexnet.games import get_game
from host.lobby import Lobby
from host.tourney_cli import CliError, parse_options
from host.watchers import WatchRules


def test_watching_options_are_taken_beside_the_games() -> None:
    options = parse_options(get_game("hranice"), ["variant=quick", "watch_delay=3",
                                                  "watch=false"])
    assert options == {"variant": "quick", "watch_delay": 3, "watch": False}


@pytest.mark.parametrize("item, says", [
    ("watch_delay=51", "Option 'watch_delay' must be 0–50"),
    ("watch_delay=-1", "Option 'watch_delay' must be 0–50"),
    ("watch=maybe", "Option 'watch' must be true or false"),
    ("watching=false", "Hranice has no option 'watching'"),
])
def test_watching_options_out_of_bounds_are_a_command_line_error(item, says) -> None:
    with pytest.raises(CliError, match=says):
        parse_options(get_game("hranice"), [item])


def test_a_tournament_table_gets_the_delay_as_its_rules_and_not_as_a_game_option() -> None:
    lobby = Lobby(lambda effects: None)
    options = parse_options(get_game("hranice"), ["variant=quick", "watch_delay=3"])
    tid = lobby.create_table("hranice", 3, options)  # as host.event.Director does
    assert lobby.rules_of(tid) == WatchRules(allowed=True, delay=3)
    assert "watch_delay" not in lobby.tables[tid].options
