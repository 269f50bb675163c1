"""Fang's balance study and behaviour fit (hexnet.tools.fang_balance, fang_behaviour): the
Wilson interval, a study that resumes from its files, and the fit's counts."""

from __future__ import annotations

import json

import pytest

from hexnet.games.fang import behaviour
from hexnet.tools import fang_balance, fang_behaviour


def test_the_wilson_interval_has_its_textbook_values() -> None:
    # 95%: 0 of 10 → [0, 0.2775]; 5 of 10 → [0.2366, 0.7634]; 100 of 200 → [0.4314, 0.5686]
    assert fang_balance.wilson(0, 10) == pytest.approx((0.0, 0.27753), abs=1e-4)
    assert fang_balance.wilson(5, 10) == pytest.approx((0.23659, 0.76341), abs=1e-4)
    assert fang_balance.wilson(100, 200) == pytest.approx((0.43140, 0.56860), abs=1e-4)
    assert fang_balance.wilson(0, 0) == (0.0, 1.0)


def test_the_target_is_both_sides_within_40_to_60_and_the_fool_at_most_15() -> None:
    assert fang_balance.fair({"village": 100, "witches": 80, "fool": 20}, 200)
    assert not fang_balance.fair({"village": 125, "witches": 75, "fool": 0}, 200)
    assert not fang_balance.fair({"village": 90, "witches": 80, "fool": 31}, 200)


def test_hard_alone_plays_at_the_play_time_budget_of_its_table_size() -> None:
    assert fang_balance.bots_for("hard", 8) == f"hard@{fang_balance.PLAY_TIME_PLAYOUTS[8]}p"
    assert fang_balance.bots_for("hard@16p", 8) == "hard@16p"
    assert fang_balance.bots_for("normal", 12) == "normal"


def test_a_study_resumes_from_its_files_and_plays_each_seed_once(tmp_path, capsys) -> None:
    out = tmp_path / "study"
    argv = ["--counts", "4,5", "--bots", "heuristic", "--out", str(out)]
    assert fang_balance.main([*argv, "--tables", "3"]) == 0
    first = {n: (out / f"{n}.jsonl").read_text().splitlines() for n in (4, 5)}
    assert [len(v) for v in first.values()] == [3, 3]
    assert fang_balance.main([*argv, "--tables", "5"]) == 0  # two more a count, appended
    grown = {n: (out / f"{n}.jsonl").read_text().splitlines() for n in (4, 5)}
    assert all(grown[n][:3] == first[n] and len(grown[n]) == 5 for n in (4, 5))
    assert [json.loads(x)["seed"] for x in grown[4]] == [4001, 4002, 4003, 4004, 4005]
    capsys.readouterr()
    assert fang_balance.main([*argv, "--tables", "5", "--report"]) == 0
    report = capsys.readouterr().out
    assert (out / "4.jsonl").read_text().splitlines() == grown[4]  # nothing played
    assert " 4 players, 5 games" in report and " 5 players, 5 games" in report


def test_a_study_shows_its_progress_over_the_games_it_still_has_to_play(tmp_path,
                                                                       capsys) -> None:
    out = tmp_path / "study"
    argv = ["--counts", "4,5", "--bots", "heuristic", "--out", str(out), "--progress"]
    assert fang_balance.main([*argv, "--tables", "2"]) == 0
    err = capsys.readouterr().err
    assert "] 2/4 games  50%" in err and "] 4/4 games  100%" in err
    assert fang_balance.main([*argv, "--tables", "3"]) == 0  # one more a count: 2 to play
    err = capsys.readouterr().err
    assert "] 1/2 games  50%" in err and "] 2/2 games  100%" in err and "/4 games" not in err


def test_a_count_without_games_says_so_in_the_report(tmp_path, capsys) -> None:
    out = str(tmp_path / "study")
    assert fang_balance.main(["--counts", "4", "--tables", "1", "--bots", "heuristic",
                              "--out", out]) == 0
    capsys.readouterr()
    assert fang_balance.main(["--counts", "4,5", "--tables", "1", "--bots", "heuristic",
                              "--out", out, "--report"]) == 0
    report = capsys.readouterr().out.splitlines()
    assert report[1].startswith(" 4 players, 1 game (")
    assert report[2] == " 5 players, no games yet"


def test_a_study_refuses_a_directory_that_holds_another_study(tmp_path, capsys) -> None:
    out = str(tmp_path / "study")
    assert fang_balance.main(["--counts", "4", "--tables", "1", "--bots", "heuristic",
                              "--out", out]) == 0
    assert fang_balance.main(["--counts", "4", "--tables", "1", "--bots", "random",
                              "--out", out]) == 2
    assert "holds another study" in capsys.readouterr().err


def test_a_study_refuses_games_of_a_size_whose_rules_data_changed_but_keeps_the_others(
        tmp_path, capsys) -> None:
    out = tmp_path / "study"
    argv = ["--bots", "heuristic", "--out", str(out)]
    assert fang_balance.main(["--counts", "4,5", "--tables", "1", *argv]) == 0
    marker = out / "study.json"
    held = json.loads(marker.read_text())
    assert held["data"] == {"4": fang_balance.data_fingerprint(4, {}),
                            "5": fang_balance.data_fingerprint(5, {})}
    held["data"]["5"] = "0123456789abcdef"  # as games grown before the 5-seat table changed
    marker.write_text(json.dumps(held))
    capsys.readouterr()
    assert fang_balance.main(["--counts", "5", "--tables", "2", *argv]) == 2
    assert "games at 5 players played under other rules" in capsys.readouterr().err
    assert len((out / "5.jsonl").read_text().splitlines()) == 1  # nothing added
    assert fang_balance.main(["--counts", "4", "--tables", "2", *argv]) == 0  # 4 stands
    assert len((out / "4.jsonl").read_text().splitlines()) == 2
    capsys.readouterr()
    assert fang_balance.main(["--counts", "4,5", "--tables", "2", "--report", *argv]) == 0
    report = capsys.readouterr().out.splitlines()
    assert report[2].startswith(" 5 players, 1 game (")
    assert report[2].endswith("(played under other data than now)")
    assert not report[1].endswith("(played under other data than now)")


def test_a_report_names_the_bots_its_study_was_played_with(tmp_path, capsys) -> None:
    out = tmp_path / "study"
    assert fang_balance.main(["--counts", "4", "--tables", "1", "--bots", "heuristic",
                              "--out", str(out)]) == 0
    capsys.readouterr()
    assert fang_balance.main(["--counts", "4", "--out", str(out), "--report"]) == 0  # no --bots
    assert capsys.readouterr().out.splitlines()[0] == (
        "Fang balance: 200 tables a count, heuristic on every seat, options default")


def test_the_data_fingerprint_follows_the_size_s_own_role_list_and_numbers() -> None:
    standard = {n: fang_balance.data_fingerprint(n, {"deal": "standard"}) for n in range(4, 13)}
    balanced = {n: fang_balance.data_fingerprint(n, {"deal": "balanced"}) for n in range(4, 13)}
    assert len(set(standard.values())) == 9  # each size deals its own table
    # the balanced deal (the default) changes the roles at 5 and 7-12 only
    assert [n for n in range(4, 13) if standard[n] != balanced[n]] == [5, 7, 8, 9, 10, 11, 12]
    assert {n: fang_balance.data_fingerprint(n, {}) for n in range(4, 13)} == balanced


def test_the_witches_side_may_play_another_policy(tmp_path) -> None:
    """Random witches against heuristic cats lose more often than heuristic witches do."""
    rows = {}
    for witches in ("heuristic", "random"):
        games = fang_balance.play_count(6, 12, "heuristic", 1, {}, 1, None, 12, witches)
        rows[witches] = sum(1 for g in games if g["result"] == "witches")
    assert rows["random"] < rows["heuristic"]


def test_the_fit_counts_each_class_of_seat() -> None:
    tally = fang_behaviour.game_tally(5, "heuristic", 8)  # (every class of vote comes up)
    assert set(tally) == set(behaviour.CLASSES)
    for cls in ("village", "witch"):
        for key in ("yes_clean_out", "abstains", "turned"):
            hits, trials = tally[cls][key]
            assert 0 <= hits <= trials and trials > 0
    assert tally["crow"]["abstains"] == [0, 0]  # no crow at 5 seats


def test_the_fit_plays_hard_at_the_play_time_budget_of_each_table_size() -> None:
    eight = fang_behaviour.tasks(8, 2, "hard", 1, None)
    twelve = fang_behaviour.tasks(12, 1, "hard", 1, None)
    assert eight == [(8, f"hard@{fang_balance.PLAY_TIME_PLAYOUTS[8]}p", 8001, None),
                     (8, f"hard@{fang_balance.PLAY_TIME_PLAYOUTS[8]}p", 8002, None)]
    assert twelve == [(12, f"hard@{fang_balance.PLAY_TIME_PLAYOUTS[12]}p", 12001, None)]
    assert fang_behaviour.tasks(5, 1, "normal", 1, None) == [(5, "normal", 5001, None)]


def test_the_data_fingerprint_follows_the_clip_of_the_behaviour_model(monkeypatch) -> None:
    # The belief reads the model clipped to [FLOOR, 1 - FLOOR]: another floor plays other
    # games, so a study must not grow across it.
    before = fang_balance.data_fingerprint(6, {})
    monkeypatch.setattr(behaviour, "FLOOR", behaviour.FLOOR / 2)
    behaviour.model.cache_clear()
    try:
        halved = fang_balance.data_fingerprint(6, {})
    finally:
        monkeypatch.undo()
        behaviour.model.cache_clear()
    assert halved != before
    assert fang_balance.data_fingerprint(6, {}) == before
