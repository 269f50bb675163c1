"""The Hranice table screen: a Pilot game against a real embedded host with bots (join, play a
citizen, accuse, see the roll, react and let prompts pass), and 80×24 snapshots of the table,
a reaction prompt and the results, made from real engine views (tests/client/hranice_views.py)."""

from __future__ import annotations

import io
import os
import time
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from rich.text import Text
from textual.widgets import Static

from client.app import AutoSeat, HexnetApp
from client.screens.hranice import HraniceScreen
from client.screens.hranice_results import HraniceResultsScreen
from client.screens.picker import Picker
from client.widgets.cards import CardList
from host.server import Host
from tests.client.conftest import FrozenClock, pick, screen_text, wait_until
from tests.client.hranice_views import HraniceViewApp
from tests.client.test_tmux import HEXNET, Tmux
from tests.pace import SECRET_EVERY

# Ada (seat 0) begins; her accusation of bot 2's Kněz rolls a stacked 5.
SCENARIO = {
    "hands": [["rolnik", "svedek", "uplatek", "zebrak", "alibi"],
              ["zebrak", "rolnik", "kovar"], ["zebrak", "rolnik"]],
    "councils": [[], ["knez"], ["soudce"]],
    "first_player": 0,
    "dice": [5],
}


@pytest.fixture
async def host(tmp_path: Any) -> Any:
    h = Host("Hranice test", tmp_path / "host-cfg", tmp_path / "host-data", open=True,
             bot_delay=0.0)
    await h.start(bind="127.0.0.1", port=0)
    try:
        yield h
    finally:
        await h.stop()


def text_of(screen: HraniceScreen, selector: str) -> str:
    """What a Static shows, as plain text (Rich tables rendered 46 columns wide)."""
    content = screen.query_one(selector, Static).content
    if isinstance(content, str | Text):
        return str(content)
    console = Console(width=46, record=True, file=io.StringIO())
    console.print(content)
    return console.export_text()


async def highlight(pilot: Any, hand: CardList, prefix: str) -> None:
    """Move the hand's cursor to the first card whose id starts with ``prefix``."""
    for _ in range(hand.option_count):
        if str(hand.highlighted_id).startswith(prefix):
            return
        await pilot.press("down")
    raise AssertionError(f"no {prefix} in hand")


@pytest.mark.timeout(60)
async def test_join_play_a_citizen_accuse_see_the_roll_and_answer_prompts(
        host: Host, tmp_path: Any, frozen_clock: FrozenClock) -> None:
    table = host.lobby.create_table("hranice", 3, {"scenario": SCENARIO,
                                                   "reaction_seconds": 30}, seed=3)
    for seat in (1, 2):
        host.lobby.add_bot(table, seat, "heuristic")
    app = HexnetApp(target=("127.0.0.1", host.port), name="Ada",
                    config_dir=str(tmp_path / "ada"), fingerprint=host.fingerprint,
                    auto_seat=AutoSeat(table, seat=0))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_until(pilot, lambda: isinstance(app.screen, HraniceScreen)
                                  and app.screen, what="the Hranice table")
        await wait_until(pilot, lambda: screen.legal and "Turn 1: you ●●" in text_of(
            screen, "#status"), what="Ada's turn")
        hand = screen.query_one(CardList)

        # Play a citizen: Rolník from the hand into Ada's council (no target: sent at once).
        await highlight(pilot, hand, "rolnik")
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.view["councils"][0], what="Rolník in council")
        assert screen.view["councils"][0][0].startswith("rolnik")
        assert "●○" in text_of(screen, "#status")
        assert "Rolník 2" in text_of(screen, "#hr-councils")

        # Accuse (x): every accusable citizen is listed; bot 2's Kněz is picked.
        await pilot.press("x")
        labels = await pick(pilot, app, "bot 2's Kněz 4")
        assert labels == ["Accuse your Rolník 2", "Accuse bot 2's Kněz 4",
                          "Accuse bot 3's Soudce 4"]

        # The roll is shown as it happens; Ada (the actor, asked last) may answer her roll.
        await wait_until(pilot, lambda: (screen.view.get("window") or {}).get("event") == "roll"
                         and screen.legal, what="Ada asked about her own roll")
        assert "Dice: Ada rolls 5 (accusing Kněz)." in text_of(screen, "#hr-dice")
        prompt = text_of(screen, "#prompt")
        assert "You rolled 5 accusing bot 2's Kněz 4: total 5, needs ≥ 4" in prompt
        assert "p: let it pass" in prompt and "counts as a pass" in prompt
        assert hand.highlighted_id.startswith("svedek")  # cursor on a usable reaction
        await pilot.press("enter")
        await pick(pilot, app, "(+1)")
        await wait_until(pilot, lambda: "Falešný svědek = 6 ≥ 4? succeeds"
                         in text_of(screen, "#hr-dice"), what="the roll's result")

        # Kněz is about to go to the pyre: Ada lets it pass (p); it lands on the pyre.
        await wait_until(pilot, lambda: (screen.view.get("window") or {}).get("event")
                         == "to_pyre" and screen.legal, what="the Přímluva prompt")
        await pilot.press("p")
        await wait_until(pilot, lambda: screen.view["pyre"], what="Kněz on the pyre")
        assert "Pyre 1/3: Kněz 4" in text_of(screen, "#hr-pyre")

        # Out of turn: a bot's move asks Ada, with the host's countdown; p lets it pass.
        asked = await wait_until(
            pilot, lambda: screen.view.get("turn") != 0 and screen.view.get("window")
            and screen.legal and screen.view, 20, "a reaction prompt on a bot's turn")
        assert text_of(screen, "#countdown") == "⏱ 30s"  # the clock stands still ...
        frozen_clock.advance(12.2)  # ... until the test moves it: 17.8 s left shows as 18
        await wait_until(pilot, lambda: text_of(screen, "#countdown") == "⏱ 18s",
                         what=lambda: f"the countdown at 18 s, not {text_of(screen, '#countdown')}")
        await pilot.press("p")
        await wait_until(pilot, lambda: screen.view["state_id"] > asked["state_id"],
                         what="the prompt answered")
        log = [screen.event_text(e) for e in screen.view["log"]]
        assert "Ada reacts with Falešný svědek (+1)." in log


@pytest.mark.usefixtures("frozen_clock")
def test_hranice_table_six_players_at_80x24(snap_compare) -> None:
    assert snap_compare(HraniceViewApp("table"), terminal_size=(80, 24))


@pytest.mark.usefixtures("frozen_clock")
def test_hranice_reaction_prompt_out_of_turn_with_countdown(snap_compare) -> None:
    assert snap_compare(HraniceViewApp("reaction"), terminal_size=(80, 24))


def test_hranice_results_show_the_winning_path(snap_compare, frozen_clock) -> None:
    # frozen_clock: the results' keys take answers at once (else the bar is drawn dimmed
    # or not, depending on how fast the machine paints)
    assert snap_compare(HraniceViewApp("over"), terminal_size=(80, 24))


async def test_results_screen_opens_when_the_game_ends() -> None:
    app = HraniceViewApp("over")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HraniceResultsScreen)
        how = str(app.screen.query_one("#how", Static).content)
        assert how == "How: dominant at the start of a turn, after 6 turns."
        path = str(app.screen.query_one("#path", Static).content)
        assert "Eva's dominance token turns active (15 ≥ 7)." in path


@pytest.mark.timeout(60)
@pytest.mark.needs("tmux")
def test_hexnet_play_hranice_six_players_in_a_no_color_terminal(tmp_path: Path) -> None:
    env = {"XDG_CONFIG_HOME": str(tmp_path / "cfg"), "XDG_DATA_HOME": str(tmp_path / "data"),
           "NO_COLOR": "1", "TERM": os.environ.get("TERM", "xterm-256color")}
    tmux = Tmux(f"{HEXNET} play hranice --players 6 --name Ada --seed 21 "
                f"--secret-every {SECRET_EVERY}; echo EXITED $?; "
                "sleep 30", env)
    try:
        # six rows at 80×24, tokens drawn as characters
        tmux.wait_for("Your turn (2 actions left)", "Hranice #", "Council (defence)", "0/7 ○", "●",
                      *(f"bot {n}" for n in range(2, 7)))
        tmux.keys("?")
        tmux.wait_for("Help — Hranice")
        for _ in range(20):  # the help screen may take a moment to take the keys
            tmux.keys("Escape")
            time.sleep(0.2)
            if "Help — Hranice" not in tmux.screen():
                break
        tmux.keys("d")
        tmux.wait_for("Ada draws 1 card.")
        tmux.keys("C-q")  # the game runs: asked once
        tmux.wait_for("Quit hexnet?")
        tmux.keys("y")
        tmux.wait_for("EXITED 0")
    finally:
        tmux.kill()


async def test_vyslech_shows_their_hand_and_asks_which_card_to_discard() -> None:
    app = HraniceViewApp("peek")
    async with app.run_test(size=(80, 24)) as pilot:
        picker = await wait_until(pilot, lambda: isinstance(app.screen, Picker)
                                  and app.screen.query("#picker-title") and app.screen,
                                  what="the Výslech picker")
        assert "Výslech: discard which of Bela's cards?" in str(
            picker.query_one("#picker-title", Static).content)
        labels = await pick(pilot, app, "Alibi")
        assert labels == ["Discard their Rolník", "Discard their Kovář", "Discard their Alibi"]
        await wait_until(pilot, lambda: app.sent, what="the discard sent")
        assert app.sent[-1]["action"] == {"type": "discard", "card": "alibi"}
        now = text_of(app.table_screen, "#hr-now")
        assert now == "Výslech: Bela holds Rolník, Kovář, Alibi. Discard one."


async def test_manual_flip_asks_to_flip_or_end_the_turn() -> None:
    app = HraniceViewApp("flip")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.table_screen
        assert text_of(screen, "#prompt") == (
            "End of your turn: f: flip the token · e: end without flipping")
        await pilot.press("f")
        await wait_until(pilot, lambda: app.sent, what="the flip sent")
        assert app.sent[-1]["action"] == {"type": "flip"}


@pytest.mark.parametrize("what,offered", [("table", False), ("reaction", True)])
async def test_the_pass_key_is_on_the_key_bar_only_while_passing_is_allowed(what: str,
                                                                          offered: bool) -> None:
    """Issue 26, item 8: on Ada's turn Hranice refuses a pass (she may draw, play, accuse), so
    ``p Pass`` is not offered; at a reaction prompt it is (``p`` lets it pass)."""
    app = HraniceViewApp(what)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: "Quit" in screen_text(app).splitlines()[-1],
                         what="the key bar")
        bar = screen_text(app).splitlines()[-1]
        assert ("p Pass" in bar) is offered, bar
        assert ("d Draw" in bar) is not offered, bar
        await pilot.press("p")
        await pilot.pause()
        assert [s["action"] for s in app.sent] == ([{"type": "pass"}] if offered else [])
