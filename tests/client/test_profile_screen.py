"""The profile screen (issue 28) on a profile the club database built from real journals (a
dozen games played in-process): what it shows, its chart per game, a recent game's replay, and
a snapshot at 80×24; and against a real host: ``p`` in the lobby asks for a player's profile
and Enter on a recent game gets its replay over the network."""

from __future__ import annotations

import io
import time
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.widgets import DataTable, OptionList, Static

from client.app import HexnetApp
from client.screens.help import HelpScreen
from client.screens.picker import Picker
from client.screens.profile import ProfileScreen, RatingChart
from client.screens.table_base import TableScreen
from host.club.profile import for_wire
from host.server import Host
from tests.client.conftest import player_app, wait_until
from tests.club.evening import DOZEN, dozen, evening_profile

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(autouse=True)
def utc(monkeypatch):
    """The screen shows local times: the pictures are taken in UTC."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


class ProfileApp(HexnetApp):
    """The client showing one profile, no host."""

    def __init__(self, shown: dict[str, Any]) -> None:
        super().__init__(target=None, name="Ada", lang="en")
        self.shown = shown

    def begin(self) -> None:
        self.push_screen(ProfileScreen(self.shown))


@pytest.fixture(scope="module")
def ada(tmp_path_factory) -> dict[str, Any]:
    """Ada's profile after the evening's dozen games (10 of them hers)."""
    return evening_profile(tmp_path_factory.mktemp("club"))


def text_of(screen: Any, wid: str) -> str:
    console = Console(width=100, no_color=True, file=io.StringIO(), record=True)
    console.print(screen.query_one(wid, Static).content)
    return console.export_text().rstrip()


def test_a_profile_counts_games_and_wins_per_game_and_fang_role(ada) -> None:
    played = [(game, who) for game, who, _ in DOZEN if "Ada" in who]
    assert {g: row["games"] for g, row in ada["games"].items()} == {
        g: sum(1 for game, _ in played if game == g) for g in ("fang", "hexenhammer", "hranice")}
    assert sum(r["games"] for r in ada["fang_roles"].values()) == ada["games"]["fang"]["games"]
    assert sum(r["wins"] for r in ada["fang_roles"].values()) == ada["games"]["fang"]["wins"]
    fang = ada["series"]["fang"]
    assert len(fang) == ada["games"]["fang"]["games"] + 1 and fang[0]["mu"] == 25.0
    assert fang[-1]["mu"] == pytest.approx(ada["games"]["fang"]["rating"]["mu"], abs=1e-4)
    assert len(ada["recent"]) == len(played) and ada["recent"][0]["game"] == played[-1][0]
    assert all(Path(g["journal"]).is_file() for g in ada["recent"])
    assert "journal" not in str(for_wire(ada)["recent"])


async def test_the_profile_screen_shows_ratings_chart_roles_and_recent_games(ada) -> None:
    app = ProfileApp(ada)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ProfileScreen)
        assert text_of(screen, "#profile-title").startswith(
            f"Ada — {sum(1 for _, who, _ in DOZEN if 'Ada' in who)} rated games")
        games = text_of(screen, "#profile-games")
        for game in ("Fang", "Hexenhammer", "Hranice"):
            row = ada["games"][game.lower()]
            assert f"{row['rating']['mu']:.1f} ± {row['rating']['sigma']:.1f}" in games
            assert f"{row['rank']} of {row['rated']}" in games
        chart = screen.query_one(RatingChart)
        assert chart.game == "fang"
        await pilot.press("g")
        assert chart.game == "hexenhammer" and chart.series == ada["series"]["hexenhammer"]
        assert "Role" in text_of(screen, "#profile-roles")
        recent = screen.query_one("#profile-recent", OptionList)
        assert recent.option_count == len(ada["recent"])
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen


async def enter_on_the_last_game(app: ProfileApp, pilot: Any) -> None:
    await pilot.pause()
    app.screen.query_one("#profile-recent", OptionList).focus()
    await pilot.press("home", "enter")
    await pilot.pause()


async def test_enter_on_a_recent_game_opens_its_replay_and_esc_comes_back(ada) -> None:
    app = ProfileApp(ada)
    async with app.run_test(size=(80, 24)) as pilot:
        await enter_on_the_last_game(app, pilot)
        assert isinstance(app.screen, TableScreen)
        assert app.screen.game == ada["recent"][0]["game"]
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ProfileScreen)


async def test_a_recent_game_without_its_journal_is_asked_of_the_host_and_not_connected_says_so(
        ada) -> None:
    app = ProfileApp(for_wire(ada))
    async with app.run_test(size=(80, 24)) as pilot:
        await enter_on_the_last_game(app, pilot)
        assert isinstance(app.screen, ProfileScreen)
        assert [n.message for n in app._notifications] == ["Not connected."]


def test_profile_snapshot(snap_compare, ada) -> None:
    assert snap_compare(ProfileApp(ada), terminal_size=(80, 24))


async def test_p_in_the_lobby_shows_a_players_profile_and_enter_replays_a_game_from_the_host(
        tmp_path) -> None:
    dozen(tmp_path / "host-data" / "journals")  # the club evening: the heuristic bot played
    host = Host("Klubhaus", tmp_path / "host-cfg", tmp_path / "host-data", open=True,
                bot_delay=0.0, games=["hranice"])
    await host.start(bind="127.0.0.1", port=0)
    try:
        table = host.lobby.create_table("hranice", 3, {})
        host.lobby.add_bot(table, 1, "heuristic")
        app = player_app(host, tmp_path, "Zed")
        async with app.run_test(size=(100, 30)) as pilot:
            bot = await wait_until(pilot, lambda: host.history.board.rating(
                "bot:heuristic", "hranice"), what="the club database open")
            await wait_until(pilot, lambda: any("rating" in seat for seat in app.club_seats.of(
                table)), what="the bot's rating in the lobby")
            rating = f"{bot.mu:.1f} ± {bot.sigma:.1f}"
            row = app.lobby_screen.query_one(DataTable).get_row_at(0)
            assert f"bot 2 (heuristic) {bot.mu:.0f}±{bot.sigma:.0f}" in str(row[3])
            await pilot.press("p")
            picker = await wait_until(pilot, lambda: isinstance(app.screen, Picker)
                                      and app.screen.query(OptionList) and app.screen,
                                      what="whose profile")
            box = picker.query_one(OptionList)
            assert [str(box.get_option_at_index(i).prompt) for i in range(box.option_count)] \
                == ["You (Zed)", f"bot 2 — {rating}"]
            await pilot.press("down", "enter")
            screen = await wait_until(pilot, lambda: isinstance(app.screen, ProfileScreen)
                                      and app.screen.query("#profile-title") and app.screen,
                                      what="the bot's profile")
            played = sum(1 for _, who, _ in DOZEN if "bot:heuristic" in who)
            assert text_of(screen, "#profile-title") == f"bot:heuristic — {played} rated games"
            assert rating in text_of(screen, "#profile-games")
            last = screen.profile["recent"][0]
            assert "journal" not in last  # over the network: named by its commitment
            await enter_on_the_last_game(app, pilot)
            replay = await wait_until(pilot, lambda: isinstance(app.screen, TableScreen)
                                      and app.screen, what="the replay from the host")
            assert replay.game == last["game"]
            assert replay.verdict == "Checked ✓ — the game as the host recorded it"
            await pilot.press("escape")
            await wait_until(pilot, lambda: isinstance(app.screen, ProfileScreen),
                             what="back to the profile")
    finally:
        await host.stop()


async def test_moving_in_the_recent_games_brings_them_into_view_on_a_small_screen(ada) -> None:
    app = ProfileApp(ada)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        page = app.screen.query_one("#profile")
        recent = app.screen.query_one("#profile-recent", OptionList)
        assert page.scroll_y == 0 and recent.region.y >= 24  # opened at its top: off screen
        await pilot.press("down")
        await pilot.pause()
        assert recent.highlighted == 1
        assert recent.region.y > 0 and recent.region.bottom <= 23  # above the footer
