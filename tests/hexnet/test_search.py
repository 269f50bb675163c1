"""The search bots: budgets, reproducibility, constant think time, and that a bot never uses
information its seat could not have."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from hexnet.games import get_game, get_policy
from hexnet.games.fang import bots as fang_bots
from hexnet.games.fang import data as fang_data
from hexnet.games.fang import search as fang_search
from hexnet.games.hexenhammer import bots as hh_bots
from hexnet.games.hexenhammer import search as hh_search
from hexnet.games.hranice import search as hr_search
from hexnet.search import (
    MIN_EVIDENCE,
    STOP_EVERY,
    Budget,
    Playout,
    SearchPolicy,
    budgeted,
    copy_state,
    parse_budget,
)
from tests.hexnet.test_sample_state import positions

ROOT = Path(__file__).resolve().parents[2]


def test_a_budget_is_seconds_or_playouts():
    assert parse_budget("0.5s") == Budget(think=0.5)
    assert parse_budget("200p") == Budget(playouts=200)
    for bad in ("0s", "-1s", "11s", "nans", "0p", "20001p", "200", "fast", "1.5p"):
        with pytest.raises(ValueError):
            parse_budget(bad)


def test_get_policy_reads_a_search_budget():
    bot = get_policy("hexenhammer", "search@50p")
    assert isinstance(bot, SearchPolicy) and bot.budget == Budget(playouts=50)
    assert get_policy("fang", "search-village@0.2s").search.budget == Budget(think=0.2)
    for bad in ("heuristic@5p", "search@0s", "search@lots", "seek@5p"):
        with pytest.raises(KeyError):
            get_policy("hranice", bad)


def test_the_command_line_budget_goes_to_search_bots_only():
    assert budgeted("search", playouts=200) == "search@200p"
    assert budgeted("search-witches", think=0.3) == "search-witches@0.3s"
    assert budgeted("search@9p", playouts=200) == "search@9p"
    assert budgeted("heuristic", playouts=200) == "heuristic"
    assert budgeted("search") == "search"


def _decision(game_name: str, players: int, seed: int, wanted: int = 1) -> tuple[dict, int]:
    """A position (and its seat) where that seat has several legal actions."""
    game = get_game(game_name)
    found = 0
    for state, seat in positions(game_name, players, seed, {}, every=5):
        if game.outcome(state) is None and len(game.legal_actions(state, seat)) > 2:
            found += 1
            if found == wanted:
                return copy_state(state), seat
    raise AssertionError("no decision found")


def _hide_differently(game_name: str, state: dict[str, Any], seat: int) -> dict[str, Any]:
    """The same position with hidden information moved: a card of another hand swapped with
    one of the pile (or two hidden roles swapped), checked to keep ``seat``'s view."""
    other = copy_state(state)
    n = len(state["players"])
    if game_name == "fang":
        hidden = [s for s in range(n) if s != seat
                  and get_game("fang").view(state, seat)["roles"][s] is None]
        roles = sorted({other["roles"][s] for s in hidden})
        a = next(s for s in hidden if other["roles"][s] == roles[0])
        b = next(s for s in hidden if other["roles"][s] == roles[-1])
        other["roles"][a], other["roles"][b] = other["roles"][b], other["roles"][a]
    else:
        pile = "deck" if game_name == "hexenhammer" else "pile"
        victim = next(s for s in range(n) if s != seat and other["hands"][s])
        held = _kind(game_name, other, other["hands"][victim][0])
        i = next(k for k, c in enumerate(other[pile]) if _kind(game_name, other, c) != held)
        other["hands"][victim][0], other[pile][i] = other[pile][i], other["hands"][victim][0]
    assert other != state
    return other


def _kind(game_name: str, state: dict[str, Any], card: str) -> Any:
    return tuple(state["cards"][card]) if game_name == "hexenhammer" else card.rsplit("-", 1)[0]


@pytest.mark.parametrize(("game_name", "players", "seed"), [
    ("hexenhammer", 4, 3), ("hranice", 3, 2), ("fang", 6, 1), ("fang", 8, 4)])
def test_two_states_with_the_same_view_get_the_same_choice(game_name, players, seed):
    game = get_game(game_name)
    bot = get_policy(game_name, "search@24p")
    state, seat = _decision(game_name, players, seed)
    twin = _hide_differently(game_name, state, seat)
    sampled = game.sample_state(game.view(state, seat), random.Random(99))
    views = [game.view(s, seat) for s in (state, twin, sampled)]
    assert views[0] == views[1] == views[2]
    legal = game.legal_actions(state, seat)
    choices = [bot(v, game.legal_actions(s, seat), random.Random(7))
               for v, s in zip(views, (state, twin, sampled), strict=True)]
    assert choices[0] == choices[1] == choices[2] and choices[0] in legal


# the deals and choices of a few positions, printed by a fresh interpreter
_ONE_PROCESS = """
import random, sys
from hexnet.games import get_game, get_policy
from tests.hexnet.test_sample_state import positions
name, players = sys.argv[1], int(sys.argv[2])
game, bot = get_game(name), get_policy(name, "search@8p")
for i, (state, seat) in enumerate(positions(name, players, 5, {}, every=9)):
    if i % 4 or game.outcome(state) is not None or seat not in game.waiting_for(state):
        continue
    view = game.view(state, seat)
    deal = game.sample_state(view, random.Random(i))
    print(repr(sorted(deal.items())), bot(view, game.legal_actions(state, seat), random.Random(i)))
"""


@pytest.mark.parametrize(("game_name", "players"), [("hexenhammer", 4), ("hranice", 4),
                                                    ("fang", 7)])
def test_a_search_decision_is_the_same_in_every_process(game_name, players):
    # a tournament's workers are processes, each with its own string hashes: a deal or a
    # choice that followed a set's order would differ between them (Hexenhammer's cards out
    # of the game did)
    runs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run([sys.executable, "-c", _ONE_PROCESS, game_name, str(players)],
                              env=env, cwd=ROOT, capture_output=True, text=True, timeout=120,
                              check=True)
        runs.append(done.stdout.splitlines())
    assert len(runs[0]) >= 3
    assert runs[0] == runs[1]


@pytest.mark.parametrize("game_name", ["hexenhammer", "hranice", "fang"])
def test_a_search_bot_plays_only_legal_actions_to_the_end(game_name):
    from hexnet.tools.selfplay import play_game

    game = get_game(game_name)
    players = {"hexenhammer": 3, "hranice": 2, "fang": 4}[game_name]
    policies = [get_policy(game_name, "search@6p")] + [
        get_policy(game_name, "heuristic")] * (players - 1)
    outcome, actions = play_game(game, policies, 21)
    assert outcome["winners"] is not None and actions > 10


def test_a_timed_decision_takes_its_whole_think_time_even_when_forced():
    game = get_game("hexenhammer")
    state = game.setup(["a", "b", "c"], 1)
    bot = get_policy("hexenhammer", "search@0.2s")
    passing = [{"type": "pass"}]
    started = time.perf_counter()
    assert bot(game.view(state, 0), passing, random.Random(1)) == {"type": "pass"}
    assert time.perf_counter() - started >= 0.2


def _counting_bot(think: float) -> tuple[SearchPolicy, list[int]]:
    """Hexenhammer's search bot on a clock that is its playouts' work: one rollout choice (the
    policy's, or settled without it) = 1 ms (a playout ≈ 80 ms, its horizon); the count of
    choices comes along."""
    search = get_policy("hexenhammer", "search")
    steps = [0]

    def counting(view: dict, legal: list, rng: random.Random) -> dict:
        steps[0] += 1
        return search.spec.rollout(view, legal, rng)

    def settled(state: dict, seat: int) -> dict | None:
        action = search.spec.settled(state, seat)
        steps[0] += action is not None
        return action

    return SearchPolicy(replace(search.spec, rollout=counting, settled=settled),
                        Budget(think=think), clock=lambda: steps[0] / 1000,
                        sleep=lambda s: None), steps


def test_a_timed_decision_stops_at_its_deadline_even_mid_playout():
    game = get_game("hexenhammer")
    state, seat = _decision("hexenhammer", 4, 3)
    bot, steps = _counting_bot(0.05)
    legal = game.legal_actions(state, seat)
    choice = bot.decide(game.view(state, seat), legal, random.Random(1), 0.0)
    # deadline at 0.9 × 50 ms; the playout then running stops within STOP_EVERY steps
    assert choice in legal and steps[0] <= 45 + STOP_EVERY


def test_a_timed_decision_short_of_playouts_keeps_the_heuristics_choice():
    # 300 ms: three playouts for some twenty candidates — too few to leave the heuristic's
    # choice on (without this rule this position picks another action)
    game = get_game("hexenhammer")
    state, seat = _decision("hexenhammer", 4, 3)
    bot, _ = _counting_bot(0.3)
    view, legal = game.view(state, seat), game.legal_actions(state, seat)
    heuristic = get_policy("hexenhammer", "heuristic")(view, legal, random.Random(1))
    assert bot.decide(view, legal, random.Random(1), 0.0) == heuristic
    assert 0 < bot.last_playouts < MIN_EVIDENCE * len(legal)


def _part_of(lean: Any, full: Any) -> bool:
    """``lean`` is ``full`` with some map keys left out (at any depth)."""
    if isinstance(lean, dict):
        return isinstance(full, dict) and all(k in full and _part_of(v, full[k])
                                              for k, v in lean.items())
    if isinstance(lean, list):
        return isinstance(full, list) and len(lean) == len(full) and all(
            _part_of(a, b) for a, b in zip(lean, full, strict=True))
    return lean == full


@pytest.mark.parametrize(("game_name", "players"), [("hexenhammer", 4), ("hranice", 4),
                                                    ("fang", 8)])
def test_the_rollout_view_agrees_with_the_view(game_name, players):
    game = get_game(game_name)
    spec = get_policy(game_name, "search").spec
    heuristic = get_policy(game_name, "heuristic")
    compared = 0
    for state, seat in positions(game_name, players, 6, {}, every=2):
        if game.outcome(state) is not None:
            continue
        full, lean = game.view(state, seat), spec.rollout_view(state, seat)
        for key, value in lean.items():
            if key == "board":  # Hexenhammer's: the living villagers' numbers, ready-made
                living = [v for v in full["villagers"] if v["alive"]]
                assert value == tuple({v["id"]: v[f] for v in living}
                                      for f in ("suspicion", "start", "owner"))
                continue
            assert _part_of(value, full[key]), key
        if seat in game.waiting_for(state):
            legal = game.legal_actions(state, seat)
            assert heuristic(lean, legal, random.Random(compared)) == heuristic(
                full, legal, random.Random(compared))
            compared += 1
    assert compared > 20


@pytest.mark.parametrize(("game_name", "players"), [("hexenhammer", 5), ("fang", 10)])
def test_the_candidates_are_legal_and_hold_the_heuristics_choice(game_name, players):
    game = get_game(game_name)
    spec = get_policy(game_name, "search").spec
    for state, seat in positions(game_name, players, 8, {}, every=4):
        if seat not in game.waiting_for(state):
            continue
        view, legal = game.view(state, seat), game.legal_actions(state, seat)
        first = spec.rollout(view, legal, random.Random(1))
        chosen = spec.candidates(game, view, legal, first, random.Random(1))
        assert chosen and all(a in legal for a in chosen)
        # Fang's votes and witches' places follow a rule (witch odds, the whisper), not search
        ruled = game_name == "fang" and {"vote", "abstain", "witch_place"} & {
            a["type"] for a in legal}
        if not ruled:
            assert first in chosen


def test_every_fang_witch_whispers_the_same_vote():
    game = get_game("fang")
    seen = 0
    for state, _seat in positions("fang", 10, 2, {}, every=1):
        if state["scene"].get("name") != "vote" or state.get("outcome"):
            continue
        witches = [s for s, r in enumerate(state["roles"])
                   if r == "hexe" and state["form"][s] == "cat"]
        plans = {fang_search.whisper_vote(game.view(state, w)) for w in witches}
        assert len(plans) == 1  # one plan: a cat, or all abstain (every cat a likely fool)
        plan = plans.pop()
        if plan is not None:
            assert state["roles"][plan] != "hexe"
            seen += 1
    assert seen > 0


@pytest.mark.parametrize(("game_name", "players"), [("hexenhammer", 4), ("hranice", 4),
                                                    ("fang", 8)])
def test_a_playout_asks_the_policy_only_for_real_choices(game_name, players):
    # a forced move (one legal action) is played without building a view for the policy
    game = get_game(game_name)
    spec = get_policy(game_name, "search").spec
    asked: list[int] = []

    def rollout(view, legal, rng):
        asked.append(len(legal))
        return spec.rollout(view, legal, rng)

    playout = Playout(game, replace(spec, rollout=rollout))
    state = game.setup([f"p{i}" for i in range(players)], 3)
    value = playout.run(state, 0, random.Random(3))
    assert value is not None and 0.0 <= value <= 1.0
    assert len(asked) > 10 and min(asked) >= 2


def _same_playouts(game: Any, game_name: str, players: int, fast: Playout, slow: Playout, *,
                   every: int, seat_step: int = 1) -> int:
    """Plays a deal sampled at positions of a few games (every ``every``-th action; seats that
    are multiples of ``seat_step``) with both playouts and the same generator: the same value
    and the same final state. Returns how many deals were played."""
    deals = 0
    for state, seat in positions(game_name, players, 4, {}, every=every):
        if game.outcome(state) is not None or seat % seat_step:
            continue
        deal = game.sample_state(game.view(state, seat), random.Random(deals))
        a, b = copy_state(deal), copy_state(deal)
        assert fast.run(a, seat, random.Random(deals)) == slow.run(b, seat, random.Random(deals))
        assert a == b
        deals += 1
    return deals


def _as_the_heuristic(game: Any, settle: Any, heuristic: Any, taken: list[str],
                      note: Any) -> Any:
    """``settle`` (a :attr:`SearchGame.settled` hook), checking that each action it settles is
    ``heuristic``'s on the seat's full view among all its legal actions (and so one of them);
    ``note(state, action)`` of each goes to ``taken``."""
    def settled(state, seat):
        action = settle(state, seat)
        if action is not None:
            legal = game.legal_actions(state, seat)
            assert action == heuristic(game.view(state, seat), legal, random.Random(0))
            assert action in legal
            taken.append(note(state, action))
        return action

    return settled


def _forced_and_not(game_name: str, hook: Any) -> tuple[Playout, Playout, list[int]]:
    """Playouts of ``game_name`` with ``hook`` as the forced path (each call's count of steps
    played goes to the list) and without one."""
    game = get_game(game_name)
    spec = get_policy(game_name, "search").spec
    runs: list[int] = []

    def forced(state, rng, keep, limit):
        runs.append(hook(state, rng, keep, limit))
        return runs[-1]

    return (Playout(game, replace(spec, forced=forced)), Playout(game, replace(spec, forced=None)),
            runs)


@pytest.mark.parametrize("players", [5, 8, 11])
def test_fangs_confirmation_rounds_play_out_as_the_playout_loop_plays_them(players):
    # the forced path (SearchGame.forced) skips the view, the policy and the waiting set of a
    # round of confirmations; the playouts (values, final states) stay the loop's, step by step
    game = get_game("fang")
    fast, slow, rounds = _forced_and_not("fang", fang_search.confirm_round)
    deals = _same_playouts(game, "fang", players, fast, slow, every=9, seat_step=3)
    assert deals > 10 and sum(rounds) > 20 * deals  # a third of a playout's steps or so
    played = fang_search.confirm_round
    state = game.setup([f"p{i}" for i in range(players)], 4)  # the ready scene: not a round
    assert played(state, random.Random(1), 24, 100) == 0


@pytest.mark.parametrize("players", [2, 4, 6])
def test_hranices_passes_in_windows_nobody_asked_can_answer_play_out_as_the_loop_plays_them(
        players):
    # the forced path (SearchGame.forced) passes for each seat asked in a reaction window that
    # holds no fitting reaction, closing the window as an answer does; the playouts (values,
    # final states, the horizon's step count) stay the loop's, step by step
    game = get_game("hranice")
    fast, slow, runs = _forced_and_not("hranice", hr_search.passes)
    deals = _same_playouts(game, "hranice", players, fast, slow, every=5)
    assert deals > 10 and sum(runs) > 10 * deals  # about 22 of a playout's 55 steps at 4
    state = game.setup([f"p{i}" for i in range(players)], 4)  # a turn: no window to pass in
    assert hr_search.passes(state, random.Random(1), 0, 100) == 0


@pytest.mark.parametrize("players", [5, 8, 12])
def test_fangs_resent_picks_and_votes_play_out_as_the_heuristic_plays_them(players):
    # the settled path (SearchGame.settled) re-sends a seat's pick or vote without its view or
    # the policy: each is the heuristic's choice on the seat's full view, and the playouts
    # (values, final states) stay the loop's
    game = get_game("fang")
    spec = get_policy("fang", "search").spec
    resent: list[str] = []
    settled = _as_the_heuristic(game, fang_search.resend, fang_bots.choose_heuristic,
                                resent, lambda state, action: action["type"])
    fast = Playout(game, replace(spec, settled=settled))
    slow = Playout(game, replace(spec, settled=None))
    deals = _same_playouts(game, "fang", players, fast, slow, every=9, seat_step=3)
    assert deals > 10 and len(resent) > 5 * deals  # 9 a playout at 5 seats
    assert set(resent) >= {"pick", "vote_proposal", "vote"}


@pytest.mark.parametrize("players", [3, 4, 5])
def test_hexenhammers_settled_passes_turns_and_plays_are_the_heuristics(players):
    # the settled path passes in phase 4, in windows the seat holds no answer to and in those
    # that do not touch it, and plays the turns of a seat holding no trial from the plays
    # grouped by card, without the seat's view, its legal list or the policy: each is the
    # heuristic's choice on the seat's full view, and the playouts (values, final states) stay
    # the loop's
    game = get_game("hexenhammer")
    spec = get_policy("hexenhammer", "search").spec
    taken: list[str] = []

    def note(state, action):
        window = state["window"]
        where = f"window {window['trigger']['type']}" if window else f"phase {state['phase']}"
        return f"{where}: {action['type']}" + (" by" if "accuser" in action else "")

    settled = _as_the_heuristic(game, hh_search.settled, hh_bots.choose_heuristic, taken, note)
    fast = Playout(game, replace(spec, settled=settled))
    slow = Playout(game, replace(spec, settled=None))
    deals = _same_playouts(game, "hexenhammer", players, fast, slow, every=5)
    assert deals > 10 and len(taken) > 40 * deals  # about 65 of a playout's 80 steps
    assert {"window card: pass", "window call: pass", "window trial: pass", "phase 4: pass",
            "phase 1: call_inquisition", "phase 1: pass", "phase 2: play by", "phase 2: play",
            "phase 3: pass"} <= set(taken)


def test_a_fang_seer_whose_power_is_open_looks_before_she_resends_her_vote():
    # the heuristic's order: a power first, then a re-send; the settled path must agree
    game = get_game("fang")
    state = next(s for seed in range(8, 16) for s, _ in positions("fang", 8, seed, {}, every=1)
                 if s["scene"]["name"] == "proposal_vote" and game.outcome(s) is None
                 and s["roles"].index(fang_data.SEER) in s["scene"]["need"])
    seer = state["roles"].index(fang_data.SEER)
    scene = state["scene"]
    scene["count"][seer], scene["choice"][seer] = 1, True
    scene["need"] = [s for s in scene["need"] if s != seer]
    state["today"].update(seer_open=True, seen=False)
    state["version"] += 1  # (what the game waits on is remembered by version)
    legal = game.legal_actions(state, seer)
    assert {"type": "vote_proposal", "yes": True} in legal
    assert fang_search.resend(state, seer) is None
    assert fang_bots.choose_heuristic(game.view(state, seer), legal,
                                      random.Random(0))["type"] == "see"


def test_copy_state_is_deep_except_for_shared_keys():
    game = get_game("hexenhammer")
    state = game.setup(["a", "b", "c"], 1)
    copy = copy_state(state, frozenset({"cards"}))
    copy["hands"][0].append("x")
    copy["villagers"][next(iter(copy["villagers"]))]["suspicion"] = 99
    assert copy["cards"] is state["cards"]
    assert "x" not in state["hands"][0]
    assert 99 not in [v["suspicion"] for v in state["villagers"].values()]


def test_a_bad_think_time_is_a_one_line_error(capsys):
    from hexnet.cli import main

    for argv in (["selfplay", "--think", "0"], ["play", "--think", "soon"],
                 ["tournament", "--game", "hranice", "--players", "2", "--bots", "search",
                  "--playouts", "0"]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err
        assert ("--think must be more than 0 and at most 10 seconds" in err
                or "--think takes a number" in err or "--playouts must be 1–20000" in err), err


def test_selfplay_gives_its_search_bots_the_playout_budget(capsys):
    import json

    from hexnet.cli import main

    code = main(["selfplay", "--game", "hranice", "--players", "2", "--games", "1",
                 "--bots", "search,heuristic", "--playouts", "3", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and report["bots"] == ["search@3p", "heuristic"]
    assert report["completed"] == 1


def test_hexnet_play_seats_normal_bots_by_default_and_hard_ones_think():
    from hexnet.cli import build_parser

    args = build_parser().parse_args(["play", "fang"])
    assert args.policy is None and args.level is None  # main resolves it: level normal
    args = build_parser().parse_args(["play", "--level", "hard", "--think", "1.5"])
    assert budgeted(args.level, args.think) == "hard@1.5s"  # the hard level searches
    assert budgeted("normal", 1.5) == "normal"
