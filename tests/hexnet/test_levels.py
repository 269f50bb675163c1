"""Bot levels (hexnet.levels): easy, normal and hard in every game, by name wherever a policy
is taken — and refused in one line wherever a level is not one of them."""

from __future__ import annotations

import json
import random

import pytest

from hexnet import levels
from hexnet.cli import LEVELS, build_parser, main
from hexnet.games import get_policy
from hexnet.search import SearchPolicy
from protocol.messages import validate

GAMES = ("hexenhammer", "fang", "hranice")


def test_the_cli_knows_the_same_levels_as_hexnet() -> None:
    assert tuple(LEVELS) == levels.LEVELS and levels.DEFAULT == "normal"


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_the_three_levels_and_hard_searches(game: str) -> None:
    easy, normal, hard = (get_policy(game, name) for name in levels.LEVELS)
    assert isinstance(easy, levels.Slips) and isinstance(hard, SearchPolicy)
    assert callable(normal) and not isinstance(normal, SearchPolicy)
    assert get_policy(game, "hard@20p").budget.playouts == 20


def test_an_easy_bot_slips_about_as_often_as_its_slip_rate() -> None:
    considered = {"type": "a"}
    legal = [considered, {"type": "b"}, {"type": "c"}]
    easy = levels.Slips(lambda v, lg, r: considered, slip=0.25)
    rng = random.Random(1)
    other = sum(easy({}, legal, rng) != considered for _ in range(4000))
    # a slip lands on one of the three at random: two in three leave the considered choice
    assert 0.25 * 2 / 3 * 4000 * 0.85 < other < 0.25 * 2 / 3 * 4000 * 1.15
    assert easy({}, [considered], rng) == considered  # no choice, no slip


@pytest.mark.parametrize("game,slip", [("hexenhammer", 0.5), ("fang", 0.25), ("hranice", 0.75)])
def test_easy_slips_at_its_games_rate(game: str, slip: float) -> None:
    # a quarter's slips left easy too close to normal in the Hexenhammer ladder (hexnet/levels.py)
    # and half in Hranice's (hexnet/games/hranice/__init__.py); Fang's easy, without the belief,
    # keeps a quarter
    easy = get_policy(game, "easy")
    assert isinstance(easy, levels.Slips) and easy.slip == slip


@pytest.mark.parametrize("game,players", [("hexenhammer", 3), ("fang", 6), ("hranice", 3)])
def test_selfplay_seats_the_levels_by_name(game: str, players: int, capsys) -> None:
    bots = ",".join(["easy", "normal", "hard"] + ["normal"] * (players - 3))
    assert main(["selfplay", "--game", game, "--players", str(players), "--games", "2",
                 "--bots", bots, "--playouts", "4", "--workers", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["completed"] == 2 and report["bots"][2] == "hard@4p"


def test_a_tournament_takes_the_levels_by_name(tmp_path) -> None:
    out = tmp_path / "ladder.json"
    assert main(["tournament", "--game", "hranice", "--players", "3", "--bots",
                 "easy,normal,hard", "--format", "round-robin", "--rounds", "2",
                 "--playouts", "4", "--workers", "1", "--out", str(out)]) == 0
    event = json.loads(out.read_text())
    assert set(event["ratings"]) == {"easy-1", "normal-2", "hard@4p-3"}


@pytest.mark.parametrize("argv", [
    ["play", "--level", "bogus"],
    ["play", "fang", "--level", "hard", "--policy", "random"],
    ["bot", "127.0.0.1:7878", "--game", "fang", "--level", "bogus"],
])
def test_a_bad_level_is_one_line_and_exit_2(argv: list[str], capsys) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "--level" in err and "Traceback" not in err


@pytest.mark.parametrize("argv", [
    ["tournament", "--game", "fang", "--players", "4", "--bots", "easy,normal,hard,bogus"],
    ["selfplay", "--game", "hranice", "--players", "2", "--bots", "hard,bogus", "--games", "1"],
])
def test_a_ladder_with_a_bogus_level_is_refused_in_one_line(argv: list[str], capsys) -> None:
    assert main([*argv, "--workers", "1"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "bogus" in err


@pytest.mark.parametrize("command", ["play", "bot"])
def test_without_a_level_the_bots_play_normal(command: str) -> None:
    argv = [command, "fang"] if command == "play" else [command, "h:1", "--game", "fang"]
    args = build_parser().parse_args(argv)
    assert args.policy is None and args.level is None  # resolved by main: normal
    args = build_parser().parse_args([*argv, "--level", "hard"])
    assert args.level == "hard"


def test_the_host_tournament_takes_a_level_for_its_bots_and_refuses_a_bogus_one() -> None:
    from host.tourney_cli import CliError, tournament_settings

    parser = build_parser()
    args = parser.parse_args(["host", "--tournament", "swiss", "--game", "fang",
                              "--bots", "hard:3"])
    assert tournament_settings(args)["bot_policy"] == "hard"
    args = parser.parse_args(["host", "--tournament", "swiss", "--game", "fang",
                              "--bots", "bogus:3"])
    with pytest.raises(CliError):
        tournament_settings(args)


@pytest.mark.parametrize("level", levels.LEVELS)
def test_a_client_may_ask_the_host_for_a_bot_of_each_level(level: str) -> None:
    msg = validate({"type": "add_bot", "table": 1, "seat": None, "policy": level}, "c2h")
    assert msg["policy"] == level


def test_a_host_bot_shows_its_level_in_the_lobby() -> None:
    from host.lobby import Lobby

    lobby = Lobby(host_open=True)
    table = lobby.create_table("fang", 5, {})
    lobby.add_bot(table, 1, "hard@0.5s")
    lobby.add_bot(table, 2)  # a new bot's level: normal
    info = next(t for t in lobby.tables_info() if t["id"] == table)
    assert [s.get("policy") for s in info["seats"][:3]] == [None, "hard", "normal"]
    you = {"name": "a", "table": None, "seat": None, "open": True}
    validate({"type": "lobby", "tables": [info], "you": you}, "h2c")  # the wire takes it
