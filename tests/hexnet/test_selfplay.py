"""``hexnet selfplay`` as a user runs it: figures on success, clear refusals on bad input."""

import json

import pytest

from hexnet.bots import choose_random
from hexnet.cli import main
from hexnet.games import get_game
from hexnet.policies import LazyView
from hexnet.tools.selfplay import play_game, run_selfplay
from hexnet.tools.workers import Processes


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


@pytest.mark.parametrize("argv,message", [
    (["--games", "-5"], "--games must be at least 1, not -5"),
    (["--games", "0"], "--games must be at least 1, not 0"),
    (["--workers", "0"], "--workers must be at least 1, not 0"),
    (["--players", "0"], "Hexenhammer takes 3–5 players, not 0"),
    (["--bots", "./nowhere.py:choose"], "no file ./nowhere.py for the policy"),
])
def test_selfplay_refuses_a_bad_command_line_in_one_line(capsys, argv, message):
    assert main(["selfplay", *argv]) == 2
    out = capsys.readouterr()
    assert out.err.startswith(f"hexnet selfplay: {message}")
    assert out.err.count("\n") == 1 and out.out == ""


def figures(report: dict) -> dict:
    return {k: v for k, v in report.items()
            if k not in ("seconds", "games_per_s", "actions_per_s", "workers")}


@pytest.mark.timeout(240)
def test_selfplay_on_two_worker_processes_equals_one_process():
    args = ("hranice", 4, 24, 11, ["heuristic", "random", "random", "random"])
    alone = run_selfplay(*args)
    with Processes(2) as runner:
        spread = run_selfplay(*args, runner=runner)
    assert alone["completed"] == 24 and spread["workers"] == 2
    assert figures(alone) == figures(spread)


def test_the_random_policy_costs_no_view():
    shown: list[LazyView] = []

    def random_watched(view, legal, rng):
        shown.append(view)
        return choose_random(view, legal, rng)

    outcome, actions = play_game(get_game("hexenhammer"), [random_watched] * 4, seed=3)
    assert len(shown) > 100 and actions >= len(shown)
    assert not any(v.built for v in shown)


def test_a_policy_that_reads_the_view_sees_its_seat_and_nothing_after_its_choice():
    game = get_game("hranice")
    kept: list[LazyView] = []

    def reader(view, legal, rng):
        assert view["seat"] in view["active"] and view.get("nothing", 7) == 7
        assert "hand" in view and dict(view) == view.copy()
        kept.append(view)
        return legal[0]

    play_game(game, [reader] * 3, seed=2)
    assert kept and all(v.built for v in kept)
    stale = LazyView(lambda: {"seat": 0})
    stale.close()
    with pytest.raises(RuntimeError, match="only while its policy chooses"):
        stale["seat"]


def test_selfplay_plays_the_same_games_whether_views_are_read_or_not():
    # the lazy view must not change a game: a reading policy that chooses as random does
    def reading_random(view, legal, rng):
        view.get("seat")
        return choose_random(view, legal, rng)

    game = get_game("fang")
    assert play_game(game, [choose_random] * 6, seed=5) == play_game(
        game, [reading_random] * 6, seed=5)


def test_the_random_bot_draws_what_rng_choice_draws_and_refuses_an_empty_list() -> None:
    import random

    ours, theirs = random.Random(5), random.Random(5)
    for size in (1, 2, 3, 37, 1000):
        legal = list(range(size))
        assert [choose_random({}, legal, ours) for _ in range(500)] == [
            theirs.choice(legal) for _ in range(500)]
    with pytest.raises(IndexError):
        choose_random({}, [], ours)


def test_a_policy_that_says_it_reads_no_view_is_handed_one_it_cannot_read() -> None:
    def peeks(view, legal, rng):
        return legal[0] if view["seat"] is not None else legal[-1]
    peeks.reads_view = False
    with pytest.raises(RuntimeError, match="only while its policy chooses"):
        play_game(get_game("hranice"), [peeks, peeks], seed=1)
    assert choose_random.reads_view is False  # the random bot: selfplay builds it no view
