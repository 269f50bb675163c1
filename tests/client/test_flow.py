"""Pilot tests of the whole client path against a real embedded host on 127.0.0.1:
discover (mDNS) → fingerprint → room code → lobby → sit → start → play a card → react."""

from __future__ import annotations

import io
from typing import Any

import pytest
from rich.console import Console
from textual.widgets import DataTable, Input, Static

from client.app import HexnetApp
from client.screens.code import CodeScreen
from client.screens.discover import DiscoverScreen
from client.screens.fingerprint import FingerprintScreen
from client.screens.hexenhammer import HexenhammerScreen
from client.screens.lobby import LobbyScreen
from client.screens.results import ResultsScreen
from client.widgets.cards import CardList
from host.server import Host
from tests.client.conftest import (
    asked,
    host_with_table,
    passing_until,
    pick,
    player_app,
    sit_and_start,
    wait_until,
)

pytestmark = pytest.mark.timeout(90)

# Ada (seat 0) starts; she holds a Verleumdung to play and two reactions to answer with.
# bot 2's Heinbichl leads, so its heuristic accuses rather than calling the Inquisition.
SCENARIO = {
    "villagers": [["karl", "maria", "luitger"], ["heinbichl", "berta", "theresa"],
                  ["raphael", "bertram", "markwart"], ["griseldis", "katharina", "tochter"]],
    "start": {"heinbichl": 6, "karl": 2, "maria": 1, "luitger": 3, "berta": 3, "theresa": 2,
              "raphael": 4, "bertram": 3, "markwart": 2, "griseldis": 1, "katharina": 4,
              "tochter": 3},
    "hands": [["verleumdung", "gegenanklage", "keyne_inquisition"],
              ["verleumdung", "verleumdung"], ["ableugnung"], ["ableugnung"]],
    "phase": 1, "turn": 0, "inquisitor": None,
}


@pytest.fixture
async def host(tmp_path: Any) -> Any:
    h = Host("Testhaus", tmp_path / "host-cfg", tmp_path / "host-data", open=False,
             mdns=True, interfaces=["127.0.0.1"], bot_delay=0.0)
    await h.start(bind="127.0.0.1", port=0)
    table = h.lobby.create_table("hexenhammer", 4, {"scenario": SCENARIO}, seed=11)
    for seat in (1, 2, 3):
        h.lobby.add_bot(table, seat, "heuristic")
    try:
        yield h
    finally:
        await h.stop()


def table_screen(app: HexnetApp) -> HexenhammerScreen | None:
    return app.screen if isinstance(app.screen, HexenhammerScreen) else None


@pytest.mark.mdns("alone")  # the only host in the list: its first row
async def test_discover_join_play_a_card_and_react(host: Host, tmp_path: Any) -> None:
    app = HexnetApp(name="Ada", config_dir=str(tmp_path / "ada"), interfaces=["127.0.0.1"])
    async with app.run_test(size=(80, 24)) as pilot:
        # Discover: the host appears, found by mDNS on 127.0.0.1.
        discover = await wait_until(pilot, lambda: isinstance(app.screen, DiscoverScreen)
                                    and app.screen, what="the discover screen")
        await wait_until(pilot, lambda: discover.query_one(DataTable).row_count, 10,
                         "the host in the list")
        assert "Testhaus" in str(discover.query_one(DataTable).get_row_at(0)[0])
        await pilot.press("enter")

        # First contact: the fingerprint the host shows, confirmed with y.
        fp = await wait_until(pilot, lambda: isinstance(app.screen, FingerprintScreen)
                              and app.screen, what="the fingerprint check")
        assert host.fingerprint_human in str(fp.query_one("#fingerprint-value").render())
        await pilot.press("y")

        # The room code: a wrong one is refused and asked again, then the right one.
        await wait_until(pilot, lambda: isinstance(app.screen, CodeScreen), what="code entry")
        await pilot.press(*"WRONG-CODE0", "enter")
        code = await wait_until(pilot, lambda: isinstance(app.screen, CodeScreen)
                                and app.screen.query(".problem") and app.screen,
                                what="the code asked again")
        code.query_one(Input).value = host.room_code
        await pilot.press("enter")

        # Lobby: the table with three bots; sit (Enter) and start (g).
        lobby = await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen)
                                 and app.lobby and app.screen, what="the lobby")
        assert lobby.query_one(DataTable).row_count == 1
        await pilot.press("enter")
        await wait_until(pilot, lambda: (app.lobby.get("you") or {}).get("seat") == 0,
                         what="Ada seated")
        await pilot.press("g")
        screen = await wait_until(pilot, lambda: table_screen(app), what="the table screen")
        await wait_until(pilot, lambda: asked(screen), what="Ada's turn")
        assert screen.view["turn"] == 0

        # Play a card: Verleumdung, Karl accuses Heinbichl — picked by keyboard.
        hand = screen.query_one(CardList)
        assert hand.highlighted_id == screen.view["hand"][0]["id"]
        assert screen.view["hand"][0]["kind"] == "verleumdung"
        before = next(v for v in screen.view["villagers"] if v["id"] == "heinbichl")
        await pilot.press("enter")
        await pick(pilot, app, "Karl")
        await pick(pilot, app, "Heinbichl")
        # the card's effect is shown before it is sent: Heinbichl +1
        confirm = await pick(pilot, app, "play it")
        assert confirm == ["▶ play it (Enter) · Esc: back"]
        await wait_until(pilot, lambda: any("Heinbichl" in screen.event_text(e) and "Verleumdung"
                                            in screen.event_text(e) for e in screen.view["log"]),
                         what="the accusation in the log")
        after = await wait_until(
            pilot, lambda: next((v for v in screen.view["villagers"]
                                 if v["id"] == "heinbichl" and v["suspicion"] > before[
                                     "suspicion"]), None), what="Heinbichl's suspicion rising")
        assert after["suspicion"] == before["suspicion"] + 1

        # End the turn (p); the bots play on; a bot's accusation opens a reaction window.
        await wait_until(pilot, lambda: asked(screen) and not screen.view.get("window"),
                         what="Ada's turn again")
        await pilot.press("p")
        reactable = await wait_until(
            pilot, lambda: screen.view.get("window") and asked(screen) and [
                a for a in screen.legal if a.get("type") == "play"], 30,
            lambda: "a reaction window where Ada can answer: " + str(screen.view))
        assert "let it pass" in str(screen.query_one("#prompt").render())
        card = reactable[0]["card"]
        kind = next(c["kind"] for c in screen.view["hand"] if c["id"] == card)
        name = {"gegenanklage": "Gegenanklage", "keyne_inquisition": "Keyne Inquisition"}[kind]
        # React out of turn: highlight the ▶ card and play it.
        while hand.highlighted_id != card:
            await pilot.press("down")
        await pilot.press("enter")
        await pick(pilot, app, "play it")
        await wait_until(pilot, lambda: any(name in screen.event_text(e) and "Ada" in
                                            screen.event_text(e) for e in screen.view["log"]),
                         what=lambda: f"Ada's {name} in the log: {screen.view['log']}")


PANIC = {
    "villagers": SCENARIO["villagers"], "start": SCENARIO["start"],
    "hands": [["spende:1", "verleumdung", "ableugnung"], ["verleumdung"], ["ableugnung"],
              ["ableugnung"]],
    "phase": 2, "inquisitor": 1,
}


async def test_panic_done_then_discard_and_draw_up_to_six(tmp_path: Any) -> None:
    h, _ = await host_with_table(tmp_path, "Panikhaus", "hexenhammer", 4,
                                 {"scenario": PANIC}, seed=5)
    app = player_app(h, tmp_path)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await sit_and_start(pilot, app, HexenhammerScreen)
            await wait_until(pilot, lambda: screen.view.get("phase") == 2 and asked(screen)
                             and not screen.view.get("window"), what="Ada in the panic")
            assert "d: done" in str(screen.query_one("#prompt").render())
            await pilot.press("d")
            await wait_until(pilot, lambda: any(screen.event_text(e) == "Ada is done." for e in
                                                screen.view["log"]), what="Ada done")

            my_draw_turn = passing_until(
                app, screen, lambda: screen.view.get("phase") == 4 and asked(screen)
                and any(a["type"] == "discard" for a in screen.legal))
            await wait_until(pilot, my_draw_turn, 40, lambda: f"Ada's draw: {screen.view}")
            assert "draw up to 6" in str(screen.query_one("#prompt").render())
            held = len(screen.view["hand"])
            await pilot.press("enter")  # discard the highlighted card
            await wait_until(pilot, lambda: len(screen.view["hand"]) == held - 1
                             and asked(screen), what="one card discarded")
            await pilot.press("p")
            await wait_until(pilot, lambda: len(screen.view["hand"]) == 6,
                             what=lambda: f"drawn up to 6: {screen.view['log'][-5:]}")
    finally:
        await h.stop()


LAST_TRIAL = {
    "villagers": [["karl", "maria"], ["heinbichl"], ["raphael"]],
    "start": {"karl": 2, "maria": 1, "heinbichl": 6, "raphael": 4},
    "hands": [["verleumdung"], ["verleumdung"], ["ableugnung"]],
    "phase": 3, "inquisitor": 1, "turn": 1,
}


async def test_the_last_burning_shows_the_results_with_the_score_breakdown(
        tmp_path: Any) -> None:
    h, _ = await host_with_table(tmp_path, "Endhaus", "hexenhammer", 3,
                                 {"scenario": LAST_TRIAL}, seed=2)
    app = player_app(h, tmp_path)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await sit_and_start(pilot, app, HexenhammerScreen)
            over = passing_until(app, screen, lambda: isinstance(app.screen, ResultsScreen))
            await wait_until(pilot, over, 30, lambda: f"the results: {screen.view['log']}")
            results = app.screen
            outcome = screen.view["outcome"]
            console = Console(width=80, record=True, file=io.StringIO())
            console.print(results.query_one("#scores", Static).content)
            table_text = console.export_text()
            for part in ("pentagrams", "matches", "trials", "empty stakes", "Total"):
                assert part in table_text
            assert "Ada (you)" in table_text
            assert all(str(score) in table_text for score in outcome["scores"])
            await wait_until(pilot, lambda: not results.guard.active, what="keys answering")
            await pilot.press("escape")
            await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen),
                             what="back in the lobby")
    finally:
        await h.stop()
