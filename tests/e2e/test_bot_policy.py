"""``hexnet bot --policy MODULE:FUNCTION``: a policy from the user's own module plays over real
TLS, sees its seat's view only, and is treated like a player when it answers illegally or too
slowly: refused, then timed out by the game's clock."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from client.bot import run_bots
from hexnet.cli import main

MYBOT = '''
import random
seen = []

def choose(view, legal, rng: random.Random):
    seen.append(view)
    plays = [a for a in legal if a["type"] != "pass"]
    return rng.choice(plays or legal)
'''

ILLEGAL = '''
def choose(view, legal, rng):
    if legal[0]["type"] == "nod":
        return legal[0]
    return {"type": "play", "card": "c999"}
'''

SLOW = '''
import time

def choose(view, legal, rng):
    if legal[0]["type"] != "nod":
        time.sleep(1.2)  # longer than the turn's clock
    return legal[0]
'''


def readme_bot() -> str:
    """The example bot of the README, as printed there."""
    text = (Path(__file__).parents[2] / "README.md").read_text()
    block = text[text.index("    # mybot.py"):].split("\n\n\n")[0]
    lines = block.split("\n")
    end = next(i for i, line in enumerate(lines) if line and not line.startswith("    "))
    return textwrap.dedent("\n".join(lines[:end]))


@pytest.mark.timeout(60)
async def test_the_readme_example_bot_plays_a_game_to_the_end(host, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    module_file(tmp_path, "mybot", readme_bot())
    report = await bots(host, count=2, policy="mybot:choose")
    assert report.outcome == host.lobby.tables[report.table].state["outcome"]
    assert not report.rejected and report.actions_sent > 0


def module_file(tmp_path, name: str, text: str) -> str:
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(text))
    return str(path)


def bots(host, **kw):
    return run_bots("127.0.0.1", host.port, game="toy", code=host.room_code,
                    config_dir=str(host.config_dir.parent / "client"), seed=3, **kw)


@pytest.mark.timeout(60)
async def test_a_bot_plays_with_a_policy_from_the_users_own_module(host, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    module_file(tmp_path, "mybot_plays", MYBOT)
    report = await bots(host, count=2, policy="mybot_plays:choose")
    table = host.lobby.tables[report.table]
    assert report.outcome == table.state["outcome"] and not report.rejected
    seen = sys.modules["mybot_plays"].seen
    assert len(seen) >= report.actions_sent > 0
    # the seat's own view only: its hand, never another seat's (and the table's presence,
    # the same for every seat)
    engine_keys = set(table.engine.view(table.state, 0)) | {"presence"}
    for view in seen:
        assert set(view) == engine_keys and view["seat"] in (0, 1)
        assert "hands" not in view and "pile" not in view


@pytest.mark.timeout(60)
async def test_a_policy_file_that_answers_illegally_is_refused_then_timed_out(host, tmp_path):
    spec = module_file(tmp_path, "illegal", ILLEGAL) + ":choose"
    report = await bots(host, count=2, policy=spec, options={"turn_seconds": 0.5})
    # every turn: the answer refused, the turn's clock passes for the seat; nobody played
    assert report.rejected.get("illegal", 0) >= 4
    assert report.outcome == {"scores": [0, 0], "winners": [0, 1]}


@pytest.mark.timeout(60)
async def test_a_policy_too_slow_for_the_clock_is_timed_out_and_its_late_answer_refused(
        host, tmp_path):
    spec = module_file(tmp_path, "slow", SLOW) + ":choose"
    report = await bots(host, count=2, policy=spec, options={"turn_seconds": 0.5})
    assert report.rejected.get("stale", 0) >= 1
    assert report.outcome == {"scores": [0, 0], "winners": [0, 1]}


@pytest.mark.timeout(60)
async def test_a_policy_that_raises_is_reported_and_its_seat_waits_for_the_clock(
        host, tmp_path, capsys):
    spec = module_file(tmp_path, "broken", '''
        def choose(view, legal, rng):
            if legal[0]["type"] == "nod":
                return legal[0]
            raise ValueError("no idea")
        ''') + ":choose"
    report = await bots(host, count=2, policy=spec, options={"turn_seconds": 0.5})
    assert report.outcome == {"scores": [0, 0], "winners": [0, 1]}
    assert report.rejected.get("unsent", 0) >= 4
    assert "hexnet bot: the policy raised ValueError: no idea" in capsys.readouterr().err


@pytest.mark.parametrize("policy,message", [
    ("nosuchmodule_xyz:choose", "no Python module 'nosuchmodule_xyz'"),
    ("./nowhere.py:choose", "no file ./nowhere.py for the policy './nowhere.py:choose'"),
    ("json:nothing_here", "json has no function 'nothing_here'"),
    ("clever", "No bot policy 'clever' for hranice"),
    (":choose", "':choose' is not MODULE:FUNCTION"),
])
def test_bot_refuses_a_policy_it_cannot_load_in_one_line(capsys, policy, message):
    assert main(["bot", "127.0.0.1:1", "--game", "hranice", "--policy", policy]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"hexnet bot: {message}") and err.count("\n") == 1


@pytest.mark.parametrize("argv,message", [
    (["--count", "0"], "--count must be at least 1, not 0"),
    (["--count", "3", "--seats", "2"], "--seats 2 cannot hold --count 3 bots"),
])
def test_bot_refuses_counts_that_seat_nobody_in_one_line(capsys, argv, message):
    assert main(["bot", "127.0.0.1:1", "--game", "hranice", *argv]) == 2
    assert capsys.readouterr().err == f"hexnet bot: {message}\n"
