"""The tournament in the client (issue 13), against a real host running one (host.event):
entering with the lobby's key, the lobby's line about the event, and the standings screen that
comes by itself at the end (the entrant's seat played by the game's absent rules)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from rich.console import Console
from textual.widgets import Static

from client.app import HexnetApp
from client.screens.lobby import LobbyScreen
from client.screens.standings import StandingsScreen
from hexnet import i18n
from host.event import Director
from host.server import Host
from tests.client.conftest import screen_text, wait_until

pytestmark = pytest.mark.timeout(90)


def text_of(screen: Any, wid: str) -> str:
    """What the Static ``wid`` shows, as plain text."""
    console = Console(width=100, no_color=True, file=io.StringIO(), record=True)
    console.print(screen.query_one(wid, Static).content)
    return console.export_text().rstrip()


@pytest.fixture
async def event_host(tmp_path: Any) -> Any:
    """An open host running a one-round Swiss event of Hranice: 3 host bots, starting at 4."""
    h = Host("Turnierhaus", tmp_path / "host-cfg", tmp_path / "host-data", open=True,
             bot_delay=0.0, games=["hranice"])
    director = Director(h, game="hranice", fmt="swiss", size=4, rounds=1, bots=3,
                        options={"variant": "tutorial"}, start_when=4, pause=0.0)
    director.load()
    await h.start(bind="127.0.0.1", port=0)
    director.begin()
    try:
        yield h, director
    finally:
        director.close()
        await h.stop()


async def test_an_entrant_enters_by_key_and_is_shown_the_final_standings(event_host,
                                                                         tmp_path) -> None:
    host, director = event_host
    app = HexnetApp(target=("127.0.0.1", host.port), name="Ada",
                    config_dir=str(tmp_path / "ada"), fingerprint=host.fingerprint)
    async with app.run_test(size=(100, 30)) as pilot:
        lobby = await wait_until(pilot, lambda: app.tournament and isinstance(
            app.screen, LobbyScreen) and app.screen, what="the lobby with the event")
        line = text_of(lobby, "#lobby-event")
        assert "Swiss tournament of Hranice — registering: 3 entrants" in line
        assert "Press e in the lobby to enter." in line
        await pilot.press("e")
        await wait_until(pilot, lambda: (app.lobby.get("you") or {}).get("table"),
                         what="Ada seated at her round-1 table")
        assert [e.name for e in director.entrants][-1] == "Ada"
        assert "You play as Ada." in text_of(lobby, "#lobby-event")
        # the organiser lets the absent rules play Ada's seat
        table = app.lobby["you"]["table"]
        host.lobby.mark_absent(table, app.lobby["you"]["seat"])
        screen = await wait_until(pilot, lambda: isinstance(app.screen, StandingsScreen)
                                  and app.screen.query("#standings-title") and app.screen,
                                  timeout=60, what="the standings screen")
        assert text_of(screen, "#standings-title") == (
            "Swiss tournament of Hranice — final standings")
        assert text_of(screen, "#standings-you") == "You play as Ada."
        # the club rates the game once its journal is closed: the standings then say so
        await wait_until(pilot, lambda: all("rating" in r for r in screen.event["standings"]),
                         what="the entrants' ratings in the standings")
        shown = text_of(screen, "#standings-table")
        rows = director.standings_rows()
        assert [r["name"] for r in rows] == [r["name"] for r in screen.event["standings"]]
        lines = shown.splitlines()
        assert lines[0].split() == ["#", "Entrant", "Points", "Wins", "Games", "Byes",
                                    "Median-Buchholz", "Buchholz", "Rating", "Change"]
        board = host.history.board
        keys = {e.name: e.fingerprint or "bot:heuristic" for e in director.entrants}
        for line, r, sent in zip(lines[1:], rows, screen.event["standings"], strict=True):
            assert line.split()[:2] == [str(r["rank"]), r["name"].split()[0]]
            assert f"{r['points']:g}" in line.split()
            rating = board.rating(keys[r["name"]], "hranice")  # after the event's one game
            assert sent["rating"]["mu"] == round(rating.mu, 3)
            assert sent["change"] == round(rating.mu - 25.0, 3)
            assert line.split()[-4:] == [f"{rating.mu:.1f}", "±", f"{rating.sigma:.1f}",
                                         f"{rating.mu - 25.0:+.1f}"]
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, StandingsScreen),
                         what="back from the standings")


async def test_the_standings_key_shows_the_entrants_before_the_start(event_host,
                                                                     tmp_path) -> None:
    host, _ = event_host
    app = HexnetApp(target=("127.0.0.1", host.port), name="Cy", lang="de",
                    config_dir=str(tmp_path / "cy"), fingerprint=host.fingerprint)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.tournament and isinstance(app.screen, LobbyScreen),
                         what="the lobby with the event")
        await pilot.press("o")
        screen = await wait_until(pilot, lambda: isinstance(app.screen, StandingsScreen)
                                  and app.screen.query("#standings-title") and app.screen,
                                  what="the standings screen")
        assert text_of(screen, "#standings-title") == (
            "Schweizer-Turnier: Hranice — Anmeldung: 3 Teilnehmer")
        assert text_of(screen, "#standings-you") == (
            "Drücke e in der Lobby, um dich anzumelden.")
        shown = text_of(screen, "#standings-table")
        assert all(f"host bot {i}" in shown for i in (1, 2, 3))


async def test_by_touch_a_tap_on_press_e_to_enter_enters_and_o_standings_opens_them(
        event_host, tmp_path) -> None:
    host, director = event_host
    app = HexnetApp(target=("127.0.0.1", host.port), name="Tapio",
                    config_dir=str(tmp_path / "tapio"), fingerprint=host.fingerprint)
    async with app.run_test(size=(100, 30)) as pilot:
        lobby = await wait_until(pilot, lambda: app.tournament and isinstance(
            app.screen, LobbyScreen) and app.screen, what="the lobby with the event")
        line = lobby.query_one("#lobby-event", Static)
        await wait_until(pilot, lambda: line.region.height > 0, what="the event line laid out")

        async def tap(action: str) -> None:
            region = line.region
            cells = [(x, y) for y in range(region.y, region.bottom)
                     for x in range(region.x, region.right)
                     if app.screen.get_style_at(x, y).meta.get("@click") == action]
            assert cells, f"nothing on the event line runs {action}"
            await pilot.click(offset=cells[0])

        await tap("screen.tap_key('o')")
        await wait_until(pilot, lambda: isinstance(app.screen, StandingsScreen),
                         what="the standings by a tap")
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is lobby, what="back in the lobby")
        await tap("screen.tap_key('e')")
        await wait_until(pilot, lambda: (app.lobby.get("you") or {}).get("table"),
                         what="Tapio entered by a tap, seated at his round-1 table")
        assert [e.name for e in director.entrants][-1] == "Tapio"


@pytest.mark.parametrize("lang", i18n.LANGS)
async def test_the_tournament_keys_are_on_the_lobby_key_bar_at_80_columns(event_host, tmp_path,
                                                                        lang) -> None:
    """Issue 26, item 5: e (enter) and o (standings) are on the key bar while the host runs a
    tournament — in every language at 80×24, Quit still last — and e goes once entered."""
    host, director = event_host
    app = HexnetApp(target=("127.0.0.1", host.port), name="Kim", lang=lang,
                    config_dir=str(tmp_path / "kim"), fingerprint=host.fingerprint)
    async with app.run_test(size=(80, 24)) as pilot:
        enter, standings = f"e {i18n._('Enter tournament')}", f"o {i18n._('Standings')}"
        quit_key = f"^q {i18n._('Quit')}"
        bar = await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen) and (
            line := screen_text(app).splitlines()[-1]) and enter in line and line,
            what="e on the key bar")
        assert standings in bar and bar.rstrip().endswith(quit_key), bar
        await pilot.press("e")  # the fourth entrant: the round starts, Kim's table opens
        await wait_until(pilot, lambda: app.table_screen is not None
                         and app.screen is app.table_screen, what="Kim's table")
        assert [e.name for e in director.entrants][-1] == "Kim"
        await pilot.press("l")  # the lobby, mid-game
        bar = await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen) and (
            line := screen_text(app).splitlines()[-1]) and quit_key in line and line,
            what="the lobby again")
        assert enter not in bar and standings in bar and f"t {i18n._('Table')}" in bar, bar
