"""The watcher's table (issue 15): each game's table screen in its read-only mode — a clear
"watching" banner, no action keys (pressing them sends nothing), the public view of a real
engine state — snapshots at 80×24; the lobby's w / x / u keys and its watchers; a watcher who
sits becomes a player; and over a real host, ``auto_watch`` (``hexnet join --watch``) watching
a game of host bots to its end."""

from __future__ import annotations

from typing import Any

import pytest

from client import messages as m
from client.app import HexnetApp
from client.screens.lobby import LobbyScreen
from client.screens.picker import Picker
from client.screens.table_base import TableScreen
from hexnet.games import get_game
from host.server import Host
from tests.client.conftest import wait_until
from tests.client.harness import LOBBY

SEATS = {"hexenhammer": 4, "fang": 5, "hranice": 3}
PLAYERS = ["Ada", "Bela", "Cora", "Dan", "Ede"]


def public_view(game: str, steps: int = 0) -> dict[str, Any]:
    """The public view of a real game of ``game`` after its first ``steps`` actions."""
    engine = get_game(game)
    state = engine.setup(PLAYERS[:SEATS[game]], 7, {})
    for _ in range(steps):
        seat = engine.waiting_for(state)[0]
        engine.apply(state, seat, engine.legal_actions(state, seat)[0])
    return engine.view(state, None)


def seat_view(game: str, seat: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    engine = get_game(game)
    state = engine.setup(PLAYERS[:SEATS[game]], 7, {})
    return engine.view(state, seat), engine.legal_actions(state, seat)


class WatchApp(HexnetApp):
    """The lobby (``LOBBY``, with watchers) and table 1 of ``game`` watched; records sends."""

    def __init__(self, game: str, lang: str = "en", watch: bool = True, delay: int = 0) -> None:
        super().__init__(target=None, name="Ada", lang=lang)
        self.game, self.watch, self.delay = game, watch, delay
        self.sent: list[dict[str, Any]] = []

    def begin(self) -> None:
        self.push_screen(self.lobby_screen)
        lobby = {**LOBBY, "tables": [dict(t) for t in LOBBY["tables"]]}
        lobby["tables"][0].update(game=self.game, watchers=["Ada", "Zoe"], watch=True,
                                  watch_delay=self.delay)
        lobby["tables"][1].update(watch=False, watchers=[])
        lobby["you"] = {**lobby["you"], "watching": 1 if self.watch else None}
        self.lobby = lobby
        self.lobby_screen.set_connection("Hexhaus · key ABCD-EFGH-IJKL-MNOP · you are Ada")
        self.lobby_screen.update_lobby(lobby)
        if self.watch:
            self.post_message(m.WatchViewChanged(1, public_view(self.game, 3)))

    async def send(self, msg: dict[str, Any]) -> None:
        self.sent.append(msg)


ACTION_KEYS = ["a", "p", "d", "i", "x", "s", "y", "n", "w", "enter", "f", "e", "c"]


@pytest.mark.parametrize("game", sorted(SEATS))
async def test_a_watched_table_is_read_only_with_a_watching_banner(game: str) -> None:
    app = WatchApp(game)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_until(pilot, lambda: isinstance(app.screen, TableScreen)
                                  and app.screen, what="the watched table")
        assert screen.watching and screen.legal == []
        banner = str(screen.query_one("#watch-banner").render())
        assert "WATCHING table #1" in banner and "read-only" in banner
        assert "Watching — waiting for" in str(screen.query_one("#prompt").render())
        shown = {b.binding.action for b in app.active_bindings.values()
                 if b.node is screen and screen.check_action(b.binding.action, ()) is not False}
        assert shown <= {"lobby", "results", "help", "role"}, shown
        for key in ACTION_KEYS:
            await pilot.press(key)
            await pilot.pause()
            if app.screen is not screen:  # a key that opened something (it must not)
                break
        assert app.sent == []
        assert app.screen is screen
        await pilot.press("l")
        await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen), what="the lobby")


@pytest.mark.parametrize("game", ["hexenhammer", "fang"])
def test_snapshot_of_a_watched_table(snap_compare, frozen_clock, game: str) -> None:
    assert snap_compare(WatchApp(game), terminal_size=(80, 24))


async def test_a_delayed_watchers_banner_says_how_late_before_anything_else() -> None:
    app = WatchApp("hranice", delay=4)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_until(pilot, lambda: isinstance(app.screen, TableScreen)
                                  and app.screen._ready and app.screen,
                                  what="the watched table")
        await wait_until(pilot, lambda: str(screen.query_one("#watch-banner").render())
                         .startswith("4 actions late · 👁 WATCHING table #1"),
                         what="the delay first in the banner")


async def test_a_watcher_who_sits_gets_the_players_screen() -> None:
    app = WatchApp("hranice")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen)
                         and app.screen.watching, what="the watched table")
        view, legal = seat_view("hranice", 0)
        app.post_message(m.ViewChanged(1, view, legal))
        screen = await wait_until(pilot, lambda: isinstance(app.screen, TableScreen)
                                  and not app.screen.watching and app.screen,
                                  what="the player's table")
        assert not screen.query("#watch-banner")
        assert screen.legal == legal


async def test_the_lobby_lists_watchers_and_w_x_u_send_watching_requests() -> None:
    app = WatchApp("hexenhammer", watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen)
                                 and app.screen, what="the lobby")
        rows = lobby.query_one("#tables")
        assert "👁 Ada, Zoe" in str(rows.get_row_at(0)[3])
        assert "no watching" in str(rows.get_row_at(1)[3])
        await pilot.press("w")
        await wait_until(pilot, lambda: app.sent, what="a watch request")
        assert app.sent[-1] == {"type": "watch", "table": 1}
        await pilot.press("x")
        await wait_until(pilot, lambda: len(app.sent) == 2, what="a rules request")
        assert app.sent[-1] == {"type": "watch_rules", "table": 1, "allowed": False}
        await pilot.press("u")
        await wait_until(pilot, lambda: len(app.sent) == 3, what="an unwatch request")
        assert app.sent[-1] == {"type": "unwatch"}


async def test_w_at_your_own_playing_table_asks_before_giving_up_the_seat() -> None:
    app = WatchApp("hexenhammer", watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen), what="the lobby")
        app.lobby_screen.update_lobby({**app.lobby, "you": {
            "name": "Ada", "table": 1, "seat": 0, "open": True}})
        await pilot.press("w")
        picker = await wait_until(pilot, lambda: isinstance(app.screen, Picker)
                                  and app.screen.query("#picker-title") and app.screen,
                                  what="the question")
        assert "Give up your seat at table #1" in str(picker.query_one("#picker-title").render())
        await pilot.press("escape")
        await pilot.pause()
        assert app.sent == []


async def test_w_asks_too_when_the_lobby_still_lists_your_running_table_as_open() -> None:
    # the host sends no lobby frames to a player while they play: back in the lobby, the
    # entry of their table may still read "open" although their game runs
    app = WatchApp("hranice", watch=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen), what="the lobby")
        app.views[1] = seat_view("hranice", 0)
        tables = [{**t, "status": "open"} if t["id"] == 1 else t for t in app.lobby["tables"]]
        app.lobby_screen.update_lobby({**app.lobby, "tables": tables, "you": {
            "name": "Ada", "table": 1, "seat": 0, "open": True}})
        await pilot.press("w")
        await wait_until(pilot, lambda: isinstance(app.screen, Picker), what="the question")
        await pilot.press("escape")
        await pilot.pause()
        assert app.sent == []


@pytest.mark.slow
@pytest.mark.timeout(240)
async def test_auto_watch_follows_a_game_of_host_bots_to_its_results(tmp_path: Any) -> None:
    host = Host("Zuschauhaus", tmp_path / "host-cfg", tmp_path / "host-data", open=True,
                bot_delay=0.02, games=["hexenhammer"])
    port = await host.start(bind="127.0.0.1", port=0)
    kinds: list[str] = []
    handle = host.lobby.handle

    def spy(conn_id: int, msg: dict[str, Any]) -> None:
        kinds.append(msg["type"])
        handle(conn_id, msg)
    host.lobby.handle = spy  # type: ignore[method-assign]
    tid = host.lobby.create_table("hexenhammer", 4, {})
    for seat in range(4):
        host.lobby.add_bot(tid, seat, "heuristic")
    app = HexnetApp(target=("127.0.0.1", port), name="Vera", config_dir=str(tmp_path / "v"),
                    fingerprint=host.fingerprint, auto_watch=tid)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: "watch" in kinds, what="the watch request")
            host.lobby.start(tid)
            screen = await wait_until(pilot, lambda: app.table_screen is not None
                                      and app.table_screen.watching and app.table_screen,
                                      what="the watched table")
            for key in ("p", "d", "i", "a"):
                await pilot.press(key)
            await wait_until(pilot, lambda: host.lobby.tables[tid].status == "over",
                             timeout=120, what="the end of the game")
            # the client may be behind the bots on a loaded machine: it catches up
            await wait_until(pilot, lambda: type(app.screen).__name__ == "ResultsScreen",
                             timeout=90, what=lambda: f"the results, not {app.screen_stack}")
            assert screen.view.get("outcome") == host.lobby.tables[tid].engine.outcome(
                host.lobby.tables[tid].state)
            assert "act" not in kinds and "cover" not in kinds
            info = next(t for t in app.lobby["tables"] if t["id"] == tid)
            assert info["watchers"] == ["Vera"]
    finally:
        await host.stop()


async def test_a_players_table_lists_who_watches_it() -> None:
    from tests.client.harness import ScreenApp

    app = ScreenApp("your_turn")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_until(pilot, lambda: isinstance(app.screen, TableScreen)
                                  and app.screen, what="the table")
        assert "👁" not in str(screen.query_one("#status").render())
        app.post_message(m.WatchersChanged(1, ["Zoe"]))
        await wait_until(pilot, lambda: "👁 Zoe" in str(screen.query_one("#status").render()),
                         what="the watcher listed")


async def test_news_of_your_table_while_you_are_in_the_lobby_keep_the_client_running() -> None:
    # l pops the table screen (its widgets go) but the app keeps it for Ctrl+Q's question: a
    # watcher arriving, a table chat line or a lost link must not redraw the gone widgets
    from tests.client.harness import ScreenApp

    app = ScreenApp("your_turn")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_until(pilot, lambda: isinstance(app.screen, TableScreen)
                                  and app.screen, what="the table")
        await pilot.press("l")
        await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen), what="the lobby")
        app.post_message(m.WatchersChanged(1, ["Zoe"]))
        app.post_message(m.ChatPosted("Bela", "hi", "table", 1))
        app.post_message(m.LinkChanged("reconnecting", 1, "gone"))
        app.post_message(m.LinkChanged("connected"))
        await pilot.pause()
        await pilot.pause()
        assert app.is_running and isinstance(app.screen, LobbyScreen)
        app.open_table(1)  # back at the table (t): the news is there
        again = await wait_until(pilot, lambda: isinstance(app.screen, TableScreen)
                                 and app.screen._ready and app.screen, what="the table again")
        await wait_until(pilot, lambda: "👁 Zoe" in str(again.query_one("#status").render()),
                         what="the watcher listed")
        assert not screen.is_attached  # the old screen stays gone


async def test_a_watched_table_lists_its_watchers_from_the_lobby() -> None:
    app = WatchApp("hranice")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_until(pilot, lambda: isinstance(app.screen, TableScreen)
                                  and app.screen, what="the watched table")
        assert "👁 Ada, Zoe" in str(screen.query_one("#status").render())


@pytest.mark.timeout(120)
async def test_a_watcher_whose_connection_drops_watches_again_once_back(tmp_path: Any) -> None:
    host = Host("Wiederhaus", tmp_path / "host-cfg", tmp_path / "host-data", open=True,
                bot_delay=60.0, games=["hranice"])  # the bots hold the game still
    port = await host.start(bind="127.0.0.1", port=0)
    tid = host.lobby.create_table("hranice", 3, {})
    for seat in range(3):
        host.lobby.add_bot(tid, seat, "heuristic")
    host.lobby.start(tid)
    app = HexnetApp(target=("127.0.0.1", port), name="Vera", config_dir=str(tmp_path / "v"),
                    fingerprint=host.fingerprint, auto_watch=tid)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: app.table_screen is not None
                             and app.table_screen.watching, what="the watched table")
            watcher = next(c.id for c in host.lobby.conns.values() if c.name == "Vera")
            host.links.live[watcher].writer.transport.abort()  # the link drops
            # (the client may be back before a poll sees the watcher gone: the connection
            # ids tell the old watching from the new one)
            await wait_until(pilot, lambda: watcher not in host.lobby.watchers.by_conn,
                             what="the host forgetting the watcher")
            await wait_until(pilot, lambda: [w for w in host.lobby.watchers.by_conn.values()
                                             if w.table == tid and w.conn != watcher],
                             timeout=30, what="watching again")
            assert app.table_screen is not None and app.table_screen.watching
            assert app.session is not None and app.session.reconnects == 1
    finally:
        await host.stop()


async def test_a_watched_table_names_who_is_reconnecting_or_absent_on_its_top_line() -> None:
    """Issue 14, presence on every table screen: the watcher's frames carry the seats'
    presence, and the watched table's top line names who is not simply there."""
    from textual.widgets import Static

    app = WatchApp("hexenhammer")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_until(pilot, lambda: isinstance(app.screen, TableScreen)
                                  and app.screen, what="the watched table")
        view = {**public_view("hexenhammer", 4),
                "presence": [{"state": "connected"}, {"state": "reconnecting", "absent_in": 40},
                             {"state": "absent"}, {"state": "connected"}]}
        app.post_message(m.WatchViewChanged(1, view))
        status = screen.query_one("#status", Static)
        await wait_until(pilot, lambda: str(status.content).startswith(
            "Bela ⟳reconnecting, absent in "), what=lambda: str(status.content))
        assert "Cora ⌀ absent" in str(status.content)
