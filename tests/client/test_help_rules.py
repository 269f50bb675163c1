"""Learning at the table (Pilot): ``?`` says what the selected card or your role does, and ``r``
there opens the game's rules in the reader's language, searchable."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Label, Markdown, Static

from client.screens.help import HelpScreen
from client.screens.rules import RulesScreen, sections
from client.widgets.cards import CardList
from hexnet import i18n
from hexnet.seeds import rules_text
from tests.client.conftest import wait_until
from tests.client.harness import ScreenApp
from tests.client.test_fang_screen import FangViewApp, day_view

pytestmark = pytest.mark.timeout(60)


def shown_sections(screen: RulesScreen) -> list[str]:
    return [str(m.id) for m in screen.query(Markdown) if m.display]


async def test_help_explains_the_selected_card_in_the_readers_language():
    app = ScreenApp("your_turn", lang="de")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        card = app.screen.query_one(CardList).highlighted_id
        expected = app.screen.card_text(card)
        await pilot.press("question_mark")
        help_screen = await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen)
                                       and app.screen)
        explain = str(help_screen.query_one("#help-explain", Static).render())
        assert expected and explain == f"Die gewählte Karte — {expected}"
        kind = next(c["kind"] for c in app.table_screen.view["hand"] if c["id"] == card)
        assert i18n.word("hexenhammer", "card_text", kind, "de") in explain  # the catalog's


async def test_the_rules_page_is_searchable_and_in_the_readers_language():
    app = ScreenApp("your_turn", lang="hu")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.press("r")
        rules = await wait_until(pilot, lambda: isinstance(app.screen, RulesScreen)
                                 and app.screen)
        text = rules_text("hexenhammer", "hu")
        assert len(shown_sections(rules)) == len(sections(text)) > 10
        assert str(rules.query_one(".title", Label).render()) == "Szabályok — Boszorkánypöröly"
        await pilot.press(*"máglya")  # the search box has the keyboard
        wanted = [f"rules-{i}" for i, s in enumerate(sections(text)) if "máglya" in s.text.lower()]
        assert shown_sections(rules) == wanted and 0 < len(wanted) < len(sections(text))
        assert str(rules.query_one("#rules-found", Label).render()) == (
            f"{len(wanted)} szakasz illik rá")
        await pilot.press(*" qqzx")  # nothing has every word
        assert shown_sections(rules) == []
        assert "Semmi sem illik erre" in str(rules.query_one("#rules-found", Label).render())
        await pilot.press("escape")  # clears the search…
        assert rules.query_one(Input).value == "" and len(shown_sections(rules)) == len(
            sections(text))
        await pilot.press("escape")  # …then goes back to the help
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))


async def test_help_says_what_your_fang_role_does_once_the_card_is_up():
    app = FangViewApp(*day_view())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        shown = await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen) and app.screen)
        assert str(shown.query_one("#help-explain", Static).render()) == (
            "Turn your role card up (r) to read here what your role does.")
        await pilot.press("escape", "r", "question_mark")
        shown = await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen) and app.screen)
        assert str(shown.query_one("#help-explain", Static).render()).startswith(
            "Herbalist — for the village. Instead of going to a place you may turn a frog back")


def test_rules_text_is_cut_at_every_heading():
    found = sections("intro\n# A\none\n## B\ntwo\n### C\n")
    assert [s.text for s in found] == ["intro", "# A\none", "## B\ntwo", "### C"]
    assert found[2].matches(["two", "b"]) and not found[2].matches(["two", "one"])

