"""``hexnet tournament`` (hexnet.tools.ladder) as a user runs it: everyone plays, workers and a Dask
cluster give the same event as one process, clear refusals on bad command lines."""

from __future__ import annotations

import json

import pytest

from hexnet.cli import main
from hexnet.games.fang import data as fang_data
from hexnet.tools.ladder import parallel_tables, prepare, run_ladder
from hexnet.tools.workers import Dask, Processes, Runner

ISSUE_14 = ["tournament", "--game", "hranice", "--players", "4",
            "--bots", "heuristic,random,heuristic,random,random", "--workers", "1"]


def run_json(tmp_path, argv: list[str]) -> dict:
    out = tmp_path / "event.json"
    assert main([*argv, "--out", str(out)]) == 0
    return json.loads(out.read_text())


def same_event(a: dict, b: dict) -> bool:
    """Everything but the clock and who played."""
    skip = {"seconds", "games_per_s", "workers"}
    return {k: v for k, v in a.items() if k not in skip} == {
        k: v for k, v in b.items() if k not in skip}


def test_swiss_with_a_surplus_entrant_seats_everyone_but_one_bye_a_round(tmp_path, capsys):
    event = run_json(tmp_path, ISSUE_14)
    games = {s["name"]: s["games"] for s in event["standings"]}
    byes = {s["name"]: s["byes"] for s in event["standings"]}
    assert sorted(byes.values()) == [0, 0, 1, 1, 1]  # 3 rounds, 3 different byes
    assert all(games[n] + byes[n] == 3 for n in games)
    assert "random-5" in {e for r in event["records"] for e in r["entrants"]}
    out = capsys.readouterr().out
    assert out.count("bye for") == 3 and " in 0 games" not in out


def test_swiss_of_seven_hexenhammer_entrants_plays_a_table_of_four_and_one_of_three(tmp_path):
    """Issue 26, item 10: Hexenhammer seats 3, so 7 entrants play 4 + 3 — no byes (it gave 3
    byes a round)."""
    event = run_json(tmp_path, ["tournament", "--game", "hexenhammer", "--players", "4",
                                "--bots", ",".join(["random"] * 7), "--rounds", "2",
                                "--workers", "1"])
    assert [sorted(len(t) for t in p["tables"]) for p in event["pairings"]] == [[3, 4]] * 2
    assert [p["byes"] for p in event["pairings"]] == [[], []]
    assert {s["games"] for s in event["standings"]} == {2}
    assert sorted(len(r["entrants"]) for r in event["records"]) == [3, 3, 4, 4]


def test_swiss_over_six_rounds_gives_a_second_bye_only_after_everyone_had_one(tmp_path):
    event = run_json(tmp_path, [*ISSUE_14, "--rounds", "6"])
    byes = [p["byes"] for p in event["pairings"]]
    assert sorted(b for bs in byes[:5] for b in bs) == sorted(
        s["name"] for s in event["standings"])
    assert {s["games"] for s in event["standings"]} == {4, 5}
    # a bye scores 1.5 (half of 3, the most a seat earns at 4 seats)
    assert event["bye_points"] == 1.5
    points = {s["name"]: s["points"] for s in event["standings"]}
    for s in event["standings"]:
        played = sum(r["points"][r["entrants"].index(s["name"])] for r in event["records"]
                     if s["name"] in r["entrants"])
        assert points[s["name"]] == pytest.approx(played + 1.5 * s["byes"])


def test_knockout_runs_its_bracket_to_a_champion(tmp_path):
    event = run_json(tmp_path, ["tournament", "--game", "hranice", "--players", "2",
                                "--bots", "heuristic,random,random,random,random",
                                "--format", "knockout", "--workers", "1"])
    assert event["rounds"] == 3 and event["tables"] == 4  # 5 entrants: byes for seeds 1–3
    assert event["pairings"][0]["byes"] == ["heuristic-1", "random-2", "random-3"]
    assert [s["reached"] for s in event["standings"]] == [3, 2, 1, 1, 0]


def test_round_robin_plays_its_whole_schedule_by_default(tmp_path):
    event = run_json(tmp_path, ["tournament", "--game", "hranice", "--players", "3",
                                "--bots", "random,random,random,random", "--format",
                                "round-robin", "--workers", "1"])
    assert event["rounds"] == 4 and event["tables"] == 4
    assert {frozenset(r["entrants"]) for r in event["records"]} == {
        frozenset(g) for g in [("random-1", "random-2", "random-3"),
                               ("random-1", "random-2", "random-4"),
                               ("random-1", "random-3", "random-4"),
                               ("random-2", "random-3", "random-4")]}


LADDER = dict(game_name="hranice", size=2, fmt="round-robin", rounds=None, seed=7,
              policies=["heuristic", "random", "random", "heuristic", "random", "random"])


@pytest.mark.timeout(240)
def test_a_ladder_on_two_worker_processes_equals_one_process():
    alone = run_ladder(**LADDER, runner=Runner(), log=lambda line: None)
    with Processes(2) as runner:
        spread = run_ladder(**LADDER, runner=runner, log=lambda line: None)
    assert alone["tables"] == 15 and spread["workers"] == 2
    assert same_event(alone, spread)


@pytest.mark.timeout(240)
def test_a_swiss_ladder_on_worker_processes_equals_one_process():
    args = dict(LADDER, fmt="swiss", rounds=4)
    alone = run_ladder(**args, runner=Runner(), log=lambda line: None)
    with Processes(2) as runner:
        assert same_event(alone, run_ladder(**args, runner=runner, log=lambda line: None))


@pytest.mark.timeout(240)
def test_a_ladder_on_a_dask_local_cluster_equals_the_local_run():
    distributed = pytest.importorskip("distributed")
    alone = run_ladder(**LADDER, runner=Runner(), log=lambda line: None)
    # threads in this process, but a real scheduler and worker talking TCP on 127.0.0.1
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  protocol="tcp", host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        assert cluster.scheduler_address.startswith("tcp://127.0.0.1:")
        with Dask(cluster.scheduler_address) as runner:
            on_cluster = run_ladder(**LADDER, runner=runner, log=lambda line: None)
    assert on_cluster["workers"] == 2
    assert same_event(alone, on_cluster)


@pytest.mark.parametrize("extra,message", [
    (["--players", "1"], "--players must be at least 2, not 1"),
    (["--players", "9"], "Hranice seats 2–6 per table, not 9"),
    (["--rounds", "0"], "--rounds must be at least 1, not 0"),
    (["--workers", "0"], "--workers must be at least 1, not 0"),
    (["--bots", "heuristic,clever"], "No bot policy 'clever' for hranice"),
    (["--bots", ",,"], "--bots names no entrants"),
    (["--bots", "random,random,random"], "3 entrants cannot fill a table of 4"),
    (["--format", "knockout", "--rounds", "4"], "plays 2 rounds; leave out --rounds"),
    (["--bots", "nosuchmodule:choose,random,random,random"], "no Python module 'nosuchmodule'"),
    (["--option", "variant"], "--option 'variant': give KEY=VALUE"),
    (["--option", "variant=speedrun"],
     "--option: Option 'variant' must be one of standard, quick, long, tutorial."),
    (["--option", "scenario=x"], "--option: Option 'scenario' fixes hidden information"),
])
def test_tournament_refuses_a_bad_command_line_in_one_line(capsys, extra, message):
    argv = ["tournament", "--game", "hranice", "--players", "4",
            "--bots", "random,random,random,random,random"]
    for flag, value in zip(extra[::2], extra[1::2], strict=True):
        if flag in argv:
            argv[argv.index(flag) + 1] = value
        else:
            argv += [flag, value]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("hexnet tournament: ") and message in err and err.count("\n") == 1


def test_every_table_of_a_tournament_plays_with_its_options(tmp_path):
    argv = ["tournament", "--game", "fang", "--players", "5", "--rounds", "4", "--format",
            "round-robin", "--workers", "1", "--bots", "random,random,random,random,random"]
    plain = run_json(tmp_path, argv)
    standard = run_json(tmp_path, [*argv, "--option", "deal=standard"])
    assert (plain["options"], standard["options"]) == ({}, {"deal": "standard"})
    deal = {"standard": sorted(fang_data.deal_for(5, "standard")),
            "balanced": sorted(fang_data.deal_for(5))}  # the default
    assert deal["standard"] != deal["balanced"]
    for event, name in ((plain, "balanced"), (standard, "standard")):
        assert [sorted(r["outcome"]["roles"]) for r in event["records"]] == [deal[name]] * 4


@pytest.mark.slow
@pytest.mark.timeout(60)
def test_tournament_says_so_when_the_dask_scheduler_cannot_be_reached(capsys):
    pytest.importorskip("distributed")
    assert main([*ISSUE_14, "--scheduler", "tcp://127.0.0.1:1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("hexnet tournament: cannot reach the Dask scheduler at "
                          "tcp://127.0.0.1:1") and err.count("\n") == 1


def test_one_round_is_said_as_one_round(capsys):
    """Issue 26, item 5: "Standings after 1 rounds (1 tables …)"."""
    assert main([*ISSUE_14, "--rounds", "1"]) == 0
    assert "Standings after 1 round (1 table in " in capsys.readouterr().out


def test_a_round_robin_has_work_for_a_worker_per_table_of_all_its_rounds():
    """A round-robin plays every round at once: three entrants at one table of three, over
    ten rounds, keep ten workers busy (one round at a time, a Swiss keeps one)."""
    history, rounds = prepare("hranice", 3, ["easy", "normal", "normal"], "round-robin", 10)
    assert parallel_tables(history, rounds) == 10
    swiss, rounds = prepare("hranice", 3, ["easy", "normal", "normal"], "swiss", 10)
    assert parallel_tables(swiss, rounds) == 1
