"""``hexnet selfplay`` as a user runs it: figures on success, clear refusals on bad input."""

import json

from hexnet.cli import main


def test_selfplay_prints_figures_for_complete_games(capsys):
    assert main(["selfplay", "--game", "hranice", "--players", "2", "--games", "3",
                 "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["completed"] == 3 and report["failures"] == []
    assert report["games_per_s"] > 0 and report["mean_actions_per_game"] > 0


def test_selfplay_refuses_a_player_count_the_game_does_not_take(capsys):
    assert main(["selfplay", "--game", "hexenhammer", "--players", "9", "--games", "1"]) == 2
    assert capsys.readouterr().err == "hexnet selfplay: Hexenhammer takes 3–5 players, not 9\n"


def test_selfplay_refuses_an_unknown_bot_policy(capsys):
    assert main(["selfplay", "--game", "fang", "--players", "4", "--bots", "x"]) == 2
    assert "No bot policy 'x' for fang" in capsys.readouterr().err


def test_selfplay_refuses_a_policy_list_of_the_wrong_length(capsys):
    assert main(["selfplay", "--game", "hranice", "--players", "3", "--bots",
                 "random,heuristic"]) == 2
    assert "2 policies for 3 seats" in capsys.readouterr().err
