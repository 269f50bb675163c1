"""Names in narrow columns stay told apart (issue 26, item 5): at a tournament's table of host
bots at 80×24, two seats both read "host bot…" (the Player column is 9 cells, Hexenhammer's
Owner column 7). Real engine views of tables whose seats are named as a tournament names its
host bots."""

from __future__ import annotations

import sys
from typing import Any

import pytest

from client.widgets.names import fit
from hexnet.games import get_game
from tests.client.conftest import screen_text, wait_until
from tests.client.harness import ScreenApp

BOTS = ["Ada", "host bot 1", "host bot 2", "host bot 3"]


def hranice_view() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    engine = get_game("hranice")
    state = engine.setup(BOTS, 5, {})
    return engine.view(state, 0), engine.legal_actions(state, 0)


def hexenhammer_view() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    engine = get_game("hexenhammer")
    state = engine.setup(BOTS, 5, {})
    return engine.view(state, 0), engine.legal_actions(state, 0)


def fang_view() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    engine = get_game("fang")
    state = engine.setup([*BOTS, "host bot 4", "host bot 5"], 5, {})
    return engine.view(state, 0), engine.legal_actions(state, 0)


@pytest.mark.parametrize("game,shown", [
    ("hranice", ["host bo…1", "host bo…2", "host bo…3"]),
    ("hexenhammer", ["host …1", "host …2", "host …3"]),
    ("fang", ["host bot 1", "host bot 2", "host bot 3", "host bot 4", "host bot 5"])])
async def test_host_bots_at_one_table_read_apart_at_80x24(game: str, shown: list[str]) -> None:
    app = ScreenApp(game, game, sys.modules[__name__], show_lobby=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: app.table_screen is not None
                         and app.screen is app.table_screen, what="the table")
        await pilot.pause()
        text = screen_text(app)
        assert "host bot…" not in text, text
        for name in shown:
            assert name in text, (name, text)


def test_a_cut_keeps_names_apart_and_leaves_short_ones_whole() -> None:
    assert fit(["host bot 1", "host bot 2", "Ada"], 9) == ["host bo…1", "host bo…2", "Ada"]
    assert fit(["Bartholomew", "Zoe"], 6) == ["Barth…", "Zoe"]
    assert fit(["Alexandra", "Alexander"], 6) == ["Alex…a", "Alex…r"]
    assert fit(["Ümit Öztürk", "Ümit Özgür"], 8) == ["Ümit Ö…k", "Ümit Ö…r"]
