"""The tutorials in the client (Pilot, a real host on 127.0.0.1 with the tutorial's table and
bots): the hint line of each tutorial's first steps, and — for Hexenhammer — the whole game to
the scoring explained on the results screen, then "replay this game" from the reveal."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static

from client.app import AutoSeat, HexnetApp
from client.replay.screen import ReplayControls
from client.screens.picker import Picker
from client.screens.results import ResultsScreen
from client.screens.table_base import TableScreen
from client.widgets.cards import CardList
from hexnet.cli.play import tutorial_table
from hexnet.tutorial import load
from host.server import Host
from tests.client.conftest import asked, wait_until

pytestmark = pytest.mark.timeout(90)


@pytest.fixture
async def tutorial(request: pytest.FixtureRequest, tmp_path: Any) -> Any:
    """(host, table) of the tutorial named by the test's ``game`` parameter."""
    game = request.param
    host = Host("Lernhaus", tmp_path / "host-cfg", tmp_path / "host-data", open=True,
                bot_delay=0.0, games=[game])
    await host.start(bind="127.0.0.1", port=0)
    try:
        yield host, tutorial_table(host, load(game)), game
    finally:
        await host.stop()


def app_for(host: Host, table: int, game: str, tmp_path: Any) -> HexnetApp:
    return HexnetApp(target=("127.0.0.1", host.port), name="Ada",
                     config_dir=str(tmp_path / "ada"), fingerprint=host.fingerprint,
                     auto_seat=AutoSeat(table, seat=load(game).seat), lang="en",
                     tutorial=game)


def hint(app: HexnetApp) -> str:
    screen = app.table_screen
    if screen is None or not screen.is_attached:
        return ""
    line = screen.query_one("#tutorial-hint", Static)
    return str(line.render()) if line.display else ""


async def hint_starting(pilot: Any, app: HexnetApp, start: str) -> str:
    """Wait for the hint starting ``start`` and for the table to take answers (keys wait a
    moment after the question changed, client/widgets/guard.py)."""
    text = await wait_until(pilot, lambda: hint(app).startswith(start) and hint(app),
                            what=lambda: f"a hint starting {start!r}; it says {hint(app)!r}")
    await wait_until(pilot, lambda: app.table_screen is not None and asked(app.table_screen),
                     what="keys answering")
    return text


@pytest.mark.slow
@pytest.mark.parametrize("tutorial", ["hexenhammer"], indirect=True)
async def test_hexenhammer_tutorial_to_the_score_and_its_replay(tutorial, tmp_path):
    host, table, game = tutorial
    app = app_for(host, table, game, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await hint_starting(pilot, app, "Theresa accuses your Karl with Falsches Zeugnis +3. "
                                        "Answer with Gegenanklage (Enter on the ▶ card)")
        assert app.screen.query_one(CardList).highlighted_id is not None
        await pilot.press("enter")  # the cursor rests on Gegenanklage, the card that answers
        await wait_until(pilot, lambda: isinstance(app.screen, Picker)
                         and not app.screen.guard.active, what="the card's confirmation")
        await pilot.press("enter")  # what the card will do is shown first: Enter plays it
        await hint_starting(pilot, app, "bot 3 plays Falsches Zeugnis +3 on Theresa (bot 3).")
        await pilot.press("p")
        await hint_starting(pilot, app, "Theresa (bot 3) has the highest suspicion. Call the "
                                        "Inquisition now (i)")
        await pilot.press("i")
        await hint_starting(pilot, app, "Spende +1 is aimed at your Karl.")
        await pilot.press("p")
        await hint_starting(pilot, app, "Panic (phase 2): everybody plays at once.")
        await pilot.press("d")
        await hint_starting(pilot, app, "Phase 3 (trial), your turn")
        await pilot.press("p")
        results = await wait_until(pilot, lambda: isinstance(app.screen, ResultsScreen)
                                   and app.screen, what="the results")
        end = str(results.query_one("#tutorial-end", Static).render())
        assert end.startswith("The game is over: only 3 villagers live, no more than the "
                              "players. You score 7: 6 for the pentagrams")
        # "replay this game": from the host's reveal, no journal file needed
        await wait_until(pilot, lambda: table in app.revealed, what="the reveal")
        # results that came up by themselves take keys after a moment (a late Enter meant for
        # the table must not close them)
        await wait_until(pilot, lambda: not results.guard.active, what="the results' keys")
        await pilot.press("r")
        replay = await wait_until(pilot, lambda: isinstance(app.screen, ReplayControls)
                                  and app.screen, what="the replay")
        assert replay.position == 0 and replay.replay.viewer == 0
        assert replay.replay.last == len(host.lobby.tables[table].history)
        await pilot.press("end")
        assert replay.position == replay.replay.last
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, ResultsScreen))


@pytest.mark.parametrize("tutorial", ["fang"], indirect=True)
async def test_fang_tutorial_first_steps(tutorial, tmp_path):
    """A whole day from the witches' side (issue 26, item 7): the role card, her window —
    place, spell, whom to turn — and the evening that names her frog."""
    host, table, game = tutorial
    app = app_for(host, table, game, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await hint_starting(pilot, app, "Read your role card (r turns it up")
        await pilot.press("r", "p")
        await hint_starting(pilot, app, "Your window (when its time runs out the game chooses "
                                        "for you): you see how many cats went where, not who "
                                        "— 3 at Wald.")
        await pilot.press("enter")  # Wald, where the cats are
        await hint_starting(pilot, app, "Spells unlock as rituals fail (none has yet)")
        await pilot.press("enter")  # no spell
        await hint_starting(pilot, app, "Whom to turn into a frog (Enter)? Every cat at Wald "
                                        "is in reach — bot 2, say.")
        await pilot.press("enter")
        await hint_starting(pilot, app, "Evening: the duck names the new frogs: bot 2.")
        await pilot.press("p")
        await hint_starting(pilot, app, "Evening talk: the village wonders who turned bot 2 "
                                        "into a frog.")


@pytest.mark.parametrize("tutorial", ["hranice"], indirect=True)
async def test_hranice_tutorial_first_steps(tutorial, tmp_path):
    host, table, game = tutorial
    app = app_for(host, table, game, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await hint_starting(pilot, app, "Your turn (actions left: 2). Play Rolník into your "
                                        "council (Enter on it): 3 + 2 = 5 influence")
        hand = app.screen.query_one(CardList)
        for _ in range(6):
            if str(hand.highlighted_id).startswith("rolnik-"):
                break
            await pilot.press("down")
        assert str(hand.highlighted_id).startswith("rolnik-")  # a physical card: rolnik-<copy>
        await pilot.press("enter")
        await hint_starting(pilot, app, "You have 5 influence, enough to win: now hold it.")
        assert isinstance(app.screen, TableScreen)


def test_a_tutorial_refuses_options_that_would_change_its_table():
    hexnet = Path(sys.executable).parent / "hexnet"
    done = subprocess.run([str(hexnet), "play", "fang", "--tutorial", "--players", "6"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "hexnet play: --tutorial sets its own table; leave out --players, --seed and --lan." in (
        done.stderr)


@pytest.mark.parametrize("tutorial", ["hranice"], indirect=True)
async def test_the_welcome_goes_to_the_log_and_hides_no_hint(tutorial, tmp_path):
    """Issue 26, item 7: the tutorial's welcome was a toast that covered the hint line (over
    the prompt at 80×24) for its first ~10 seconds; it is the log's first note now."""
    from hexnet.cli.play import TUTORIAL_GREETING
    from tests.client.conftest import screen_text

    host, table, game = tutorial
    app = HexnetApp(target=("127.0.0.1", host.port), name="Ada",
                    config_dir=str(tmp_path / "ada"), fingerprint=host.fingerprint,
                    auto_seat=AutoSeat(table, seat=load(game).seat), lang="en",
                    tutorial=game, greeting=TUTORIAL_GREETING)
    async with app.run_test(size=(80, 24)) as pilot:
        said = await hint_starting(pilot, app, "Your turn (actions left: 2). Play Rolník")
        await pilot.pause()
        # no toast lies over the hint line (a toast sits at the bottom right, over the prompt)
        assert [n.message for n in app._notifications] == []
        shown = " ".join(screen_text(app).split())
        assert " ".join(said.split()) in shown, shown
        assert "A guided first game:" in shown and "the rules." in shown, shown  # in the log
