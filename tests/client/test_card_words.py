"""A card's text says what this copy does (issue 26, item 5): Spende ±1 said "gains or loses 1
or 2 suspicion", the text of every Spende; Beweys and Falsches Zeugnis the same. Bela's real
hand (tests/client/views.py) holds Falsches Zeugnis +3, Beweys +1 and Spende ±1."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Static

from client.widgets.cards import CardList
from hexnet.games import get_game
from tests.client import views
from tests.client.conftest import wait_until
from tests.client.harness import ScreenApp


def bela_view() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    engine = get_game("hexenhammer")
    state = engine.setup(views.PLAYERS, 3, {"scenario": views.SCENARIO})
    return engine.view(state, 1), engine.legal_actions(state, 1)


class BelaApp(ScreenApp):
    def __init__(self, lang: str) -> None:
        import sys

        super().__init__("bela", "hexenhammer", sys.modules[__name__], show_lobby=False,
                         lang=lang)


@pytest.mark.parametrize("lang,said", [
    ("en", ["Falsches Zeugnis +3: Brown, phases 1-3: the accused gains 3 suspicion.",
            "Beweys +1: Brown, phases 2-3: the accused gains 1 suspicion.",
            "Spende ±1: Yellow, phase 2: a villager gains or loses 1 suspicion (you choose "
            "the sign)."]),
    ("de", ["Falsches Zeugnis +3: Braun, Phasen 1–3: der Verdacht des Angeklagten steigt um 3.",
            "Beweys +1: Braun, Phasen 2–3: der Verdacht des Angeklagten steigt um 1.",
            "Spende ±1: Gelb, Phase 2: der Verdacht eines Dorfbewohners steigt oder sinkt um 1 "
            "(du wählst das Vorzeichen)."])])
async def test_each_card_says_its_own_value(lang: str, said: list[str]) -> None:
    app = BelaApp(lang)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_until(pilot, lambda: app.table_screen is not None
                                  and app.screen is app.table_screen and app.screen,
                                  what="Bela's table")
        hand = screen.query_one(CardList)
        shown = []
        for _ in range(hand.option_count):
            await pilot.pause()
            shown.append(str(screen.query_one("#card-text", Static).content))
            await pilot.press("down")
        for text in said:
            assert text in shown, (text, shown)
        assert not any(" 1 or 2 " in t or " 3 or 4 " in t or "1 oder 2" in t for t in shown)
