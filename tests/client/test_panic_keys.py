"""Hexenhammer's keys under pressure (issue 26, item 4): a card that cannot be used says why
(it said "You cannot use that card now"), a list that closed under the player says what came
first (it said "Too late"), and Tab no longer moves the keys off the hand with no sign of it
(↑↓ went on scrolling the log). Real engine views (tests/client/views.py)."""

from __future__ import annotations

from typing import Any

from client.screens.hexenhammer import HexenhammerScreen
from client.widgets.cards import CardList
from client.widgets.log import GameLog
from tests.client.conftest import wait_until
from tests.client.harness import ScreenApp


async def the_table(pilot: Any, app: ScreenApp) -> HexenhammerScreen:
    return await wait_until(pilot, lambda: isinstance(app.screen, HexenhammerScreen)
                            and app.screen, what="the table")


async def refusal_for(what: str, kind: str) -> str:
    """What Enter on Ada's ``kind`` card says at the ``what`` view (no card is sent)."""
    app = ScreenApp(what)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await the_table(pilot, app)
        hand = screen.query_one(CardList)
        kinds = {c["id"]: c["kind"] for c in screen.view["hand"]}
        for _ in range(hand.option_count):
            if kinds[hand.highlighted_id] == kind:
                break
            await pilot.press("down")
        assert kinds[hand.highlighted_id] == kind
        await pilot.pause(0.7)  # (keys wait a moment after a question changes)
        await pilot.press("enter")
        toast = await wait_until(pilot, lambda: next(
            (n for n in app._notifications if n.severity == "warning"), None),
            what="the refusal")
        assert app.sent == []
        return f"{toast.title}: {toast.message}"


async def test_a_card_out_of_its_phase_says_which_phases_it_is_for() -> None:
    assert await refusal_for("your_turn", "spende") == (
        "You cannot use that card now: Spende is not played in phase 1.")


async def test_a_reaction_that_does_not_fit_the_card_on_the_table_says_so() -> None:
    assert await refusal_for("reaction", "keyne_inquisition") == (
        "You cannot use that card now: Keyne Inquisition does not answer the card on the "
        "table: answer with a fitting ★ card, or pass.")
    assert await refusal_for("reaction", "spende") == (
        "You cannot use that card now: Answer the card on the table with a fitting reaction, "
        "or pass.")


async def test_a_list_that_closed_under_the_player_says_what_came_first() -> None:
    from client import messages as m

    app = ScreenApp("reaction")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await the_table(pilot, app)
        last = screen.event_text(screen.view["log"][-1])
        assert last.startswith("Bela plays Falsches Zeugnis +3")
        said = app.rejection_text(m.ActionRejected(1, "stale", "state moved on", None))
        assert said == ("Too late: the game moved on before your answer arrived — " + last)


async def test_tab_leaves_the_keys_on_the_hand_and_page_keys_scroll_the_log() -> None:
    app = ScreenApp("your_turn")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await the_table(pilot, app)
        hand = screen.query_one(CardList)
        first = hand.highlighted_id
        await pilot.press("tab")
        assert app.focused is hand
        await pilot.press("down")
        assert hand.highlighted_id != first  # ↑↓ still move through the hand
        log = screen.query_one(GameLog)
        for n in range(40):  # enough lines to page
            log.add_note(f"line {n}")
        # the log follows its end after the lines are laid out, a refresh or more later (CI
        # once read it half-way down: 29 of 58)
        bottom = await wait_until(
            pilot, lambda: log.max_scroll_y > 0 and log.scroll_y == log.max_scroll_y
            and log.scroll_y, what=lambda: f"the log at its end ({log.scroll_y} of "
            f"{log.max_scroll_y})")
        await pilot.press("pageup")
        await wait_until(pilot, lambda: log.scroll_y < bottom, what="the log paged up")
        assert app.focused is hand

