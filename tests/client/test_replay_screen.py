"""The replay screen (Pilot): stepping both ways, jumping by rounds, a seat's eyes against the
all-seeing view, the results at the end; snapshots of a position as a seat and all-seeing."""

from __future__ import annotations

from argparse import Namespace
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static

from client.replay import load
from client.replay.app import ReplayApp
from client.replay.screen import ReplayControls
from client.screens.results import ResultsScreen
from client.widgets.cards import CardList
from client.widgets.log import GameLog
from hexnet.replay import ALL
from tests.client.conftest import wait_until
from tests.replays.games import play, write_journal

pytestmark = pytest.mark.timeout(60)

JOURNAL = Path(__file__).resolve().parents[1] / "replays" / "hexenhammer.journal"


def replay_app(seat: str | None = None, everyone: bool = False, journal: Path = JOURNAL
               ) -> ReplayApp:
    replay, verdict = load(Namespace(journal=str(journal), seat=seat, all=everyone))
    return ReplayApp(replay, "verified", lang="en")


def screen(app: ReplayApp) -> Any:
    assert isinstance(app.screen, ReplayControls)
    return app.screen


def text(app: ReplayApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


def hand(app: ReplayApp) -> list[str]:
    cards = app.screen.query_one(CardList)
    return [str(cards.get_option_at_index(i).id) for i in range(cards.option_count)]


async def test_stepping_forward_and_back_shows_each_position_again():
    app = replay_app(seat="Bert")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayControls))
        await pilot.pause()
        replay = screen(app).replay
        for _ in range(5):
            await pilot.press("right")
        assert screen(app).position == 5
        assert "step 5/263" in text(app, "#status") and "as Bert" in text(app, "#status")
        assert text(app, "#prompt") == "Bert: Pass"  # step 5 of the kept game (hexenhammer.en.txt)
        at_five = screen(app).view
        await pilot.press("right", "left")
        assert screen(app).position == 5 and screen(app).view == at_five
        assert screen(app).view == {**replay.view_at(5), "deadline": None}  # no clock runs
        await pilot.press("left", "left", "left", "left", "left", "left")  # not before the deal
        assert screen(app).position == 0 and text(app, "#prompt") == "The deal"
        log = app.screen.query_one(GameLog)
        assert str(log.lines[0].text).startswith("✓ verified")


async def test_round_keys_jump_to_where_a_round_begins_and_home_end_to_the_ends():
    app = replay_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayControls))
        await pilot.pause()
        starts = screen(app).replay.round_starts()
        await pilot.press("pagedown")
        assert screen(app).position == starts[1] and "round 2" in text(app, "#status")
        await pilot.press("right_square_bracket", "right", "right")
        assert screen(app).position == starts[2] + 2
        await pilot.press("pageup")
        assert screen(app).position == starts[2]
        await pilot.press("left_square_bracket")
        assert screen(app).position == starts[1]
        await pilot.press("end")
        assert screen(app).position == 263 and "public view" in text(app, "#status")
        await pilot.press("home")
        assert screen(app).position == 0


async def test_a_seat_sees_its_own_hand_and_the_all_seeing_view_every_hand():
    as_cili = replay_app(seat="2")
    async with as_cili.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(as_cili.screen, ReplayControls))
        await pilot.pause()
        cili_hand = hand(as_cili)
        await pilot.press("v")  # only the all-seeing view switches hands
        assert hand(as_cili) == cili_hand and screen(as_cili).shown_seat == 0
    everyone = replay_app(everyone=True)
    async with everyone.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(everyone.screen, ReplayControls))
        await pilot.pause()
        assert screen(everyone).replay.viewer == ALL
        hands = [hand(everyone)]
        for _ in range(2):
            await pilot.press("v")
            hands.append(hand(everyone))
        assert hands[2] == cili_hand and len({tuple(h) for h in hands}) == 3
        assert "all-seeing · hand of Cili" in text(everyone, "#status")
        private = [line for line in everyone.screen.query_one(GameLog).lines
                   if "[only" in str(line.text)]
        assert private == []  # the deal has no private lines in Hexenhammer…
        await pilot.press("right", "right")
        await pilot.press("pagedown")  # …but every draw is one
        assert any("[only" in str(line.text) for line in everyone.screen.query_one(
            GameLog).lines)


async def test_the_end_shows_the_results_and_esc_leaves_the_replay():
    app = replay_app(seat="0")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayControls))
        await pilot.pause()
        await pilot.press("p", "a", "i")  # a replay's table sends nothing and asks nothing
        assert isinstance(app.screen, ReplayControls)
        await pilot.press("end", "r")
        await wait_until(pilot, lambda: isinstance(app.screen, ResultsScreen))
        assert "You win!" in str(app.screen.query_one("#headline", Static).render())
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayControls))
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.return_code is not None or not app.is_running)


async def test_space_plays_the_game_on_at_the_chosen_speed():
    app = replay_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, ReplayControls))
        await pilot.pause()
        await pilot.press("plus", "plus", "plus")  # 2 → 4 → 8 → 16 steps a second
        assert screen(app).speed == 16.0
        await pilot.press("space")
        assert "▶ 16/s" in text(app, "#status")
        await wait_until(pilot, lambda: screen(app).position >= 10, timeout=10)
        await pilot.press("space")
        stopped = screen(app).position
        await pilot.pause(0.3)
        assert screen(app).position == stopped


def test_snapshot_a_position_seen_by_one_seat(snap_compare) -> None:
    async def eight_steps(pilot: Any) -> None:
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ReplayControls))
        await pilot.press(*["right"] * 8)
    assert snap_compare(replay_app(seat="Bert"), terminal_size=(80, 24), run_before=eight_steps)


def test_snapshot_fang_all_seeing(snap_compare, tmp_path) -> None:
    journal = write_journal(tmp_path / "fang.journal",
                            play("fang", ["Ada", "Bert", "Cili", "Dora", "Emil"], seed=3))

    async def first_day(pilot: Any) -> None:
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ReplayControls))
        await pilot.press("pagedown", "right", "right", "right", "v")
    assert snap_compare(replay_app(everyone=True, journal=journal), terminal_size=(80, 24),
                        run_before=first_day)
