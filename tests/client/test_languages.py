"""Each game in its home language, and the language switch: Hexenhammer in Hungarian, Fang die
Hexe in German, Hranice in Czech at 80×24 (snapshots), F2 and the command palette switching an
open table, and readers of one table each in their own language."""

from __future__ import annotations

import pytest
from textual.command import CommandPalette

from client.screens.hexenhammer import HexenhammerScreen
from client.widgets.log import GameLog
from hexnet import i18n
from tests.client.conftest import log_text, wait_until
from tests.client.harness import ScreenApp
from tests.client.hranice_views import HraniceViewApp
from tests.client.test_fang_screen import FangViewApp, day_view


@pytest.mark.usefixtures("frozen_clock")
def test_hexenhammer_reads_hungarian_with_the_rulebooks_names(snap_compare) -> None:
    assert snap_compare(ScreenApp("your_turn", lang="hu"), terminal_size=(80, 24))


@pytest.mark.usefixtures("frozen_clock")
def test_fang_die_hexe_reads_german(snap_compare) -> None:
    assert snap_compare(FangViewApp(*day_view(), lang="de"), terminal_size=(80, 24),
                        press=["r"])


@pytest.mark.usefixtures("frozen_clock")
def test_hranice_reads_czech(snap_compare) -> None:
    assert snap_compare(HraniceViewApp("reaction", lang="cs"), terminal_size=(80, 24))


async def test_f2_switches_the_open_table_and_its_log_to_the_next_language() -> None:
    app = ScreenApp("your_turn")
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await wait_until(pilot, lambda: isinstance(app.screen, HexenhammerScreen)
                                  and app.screen, what="the table")
        log = screen.query_one(GameLog)
        await wait_until(pilot, lambda: "Round 1, phase 1: Bela begins." in log_text(log),
                         what="the English log")
        await pilot.press("f2")
        await wait_until(pilot, lambda: "1. forduló, 1. fázis: Bela kezd." in log_text(log),
                         what="the Hungarian log")
        assert i18n.language() == "hu"
        assert "Round 1" not in log_text(log)
        assert str(screen.query_one("#prompt").render()).startswith("A te köröd: ")
        first = screen.query_one("#hand").get_option_at_index(0).prompt
        assert "Rágalmazás +1" in str(first)  # Verleumdung, by the Hungarian rulebook


async def test_the_command_palette_offers_every_language_and_switches() -> None:
    app = ScreenApp("your_turn")
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, HexenhammerScreen),
                         what="the table")
        await pilot.press("ctrl+p")
        await wait_until(pilot, lambda: isinstance(app.screen, CommandPalette),
                         what="the palette")
        await pilot.press(*"Čeština")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await wait_until(pilot, lambda: i18n.language() == "cs", what="Czech")
        screen = await wait_until(pilot, lambda: isinstance(app.screen, HexenhammerScreen)
                                  and app.screen, what="the table again")
        assert "Fáze 1 obviňování" in str(screen.query_one("#status").render())


def test_one_table_reads_in_each_readers_language() -> None:
    """The same seat-free events, three readers: the words are the reader's, the facts one."""
    event = {"n": 7, "key": "draws", "player": 1, "count": 3}
    players = ["Anna", "Bob", "Cili"]
    assert i18n.render("hexenhammer", event, players, "en") == "Bob draws 3 cards."
    assert i18n.render("hexenhammer", event, players, "hu") == "Bob húz 3 lapot."
    assert i18n.render("hexenhammer", event, players, "de") == "Bob zieht 3 Karten."
    assert i18n.render("hexenhammer", event, players, "cs") == "Bob si dobírá 3 karty."
    five = {**event, "count": 5}
    assert i18n.render("hexenhammer", five, players, "cs") == "Bob si dobírá 5 karet."
    one = {**event, "count": 1}
    assert i18n.render("hexenhammer", one, players, "cs") == "Bob si dobírá 1 kartu."
