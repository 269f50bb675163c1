"""By touch alone, at every game's table (web guests tap; xterm.js turns a tap into a click): every
legal action of a seat can be sent with taps only — the bottom bar's `Actions`, then an entry of
each list (a long list scrolled by tapping its scrollbar, as a finger can: a swipe does not
scroll a terminal app) — and pass/done/OK and the votes have keys of their own in the bottom bar.
The views are the real engines' (seeded random games), at the client's 80×24."""

from __future__ import annotations

import asyncio
import random
from types import SimpleNamespace
from typing import Any

import pytest
from textual.widgets import OptionList
from textual.widgets._footer import FooterKey

from client.screens.picker import Picker
from hexnet.games import get_game
from tests.client.harness import ScreenApp

pytestmark = [pytest.mark.timeout(240), pytest.mark.slow]
SIZE = (80, 24)
PLAYERS = {"hexenhammer": 3, "fang": 5, "hranice": 3}
# The bottom-bar key that answers an action type by itself (the rest: `Actions`).
BUTTONS = {"pass": "pass_turn", "done": "pass_turn", "ready": "pass_turn", "confirm": "pass_turn",
           "end_talk": "pass_turn"}


def decisions(name: str, seed: int, steps: int = 800) -> list[tuple[dict[str, Any], list]]:
    """Seat 0's view and legal actions at each first moment it is offered a new set of action
    types, in a game of random moves (timeouts applied when nobody can move)."""
    game = get_game(name)
    rnd = random.Random(seed)
    state = game.setup([f"P{i}" for i in range(PLAYERS[name])], seed, {})
    seen: set[tuple[str, ...]] = set()
    found = []
    for _ in range(steps):
        if game.outcome(state) is not None:
            break
        mine = game.legal_actions(state, 0)
        kinds = tuple(sorted({str(a["type"]) for a in mine}))
        if mine and kinds not in seen:
            seen.add(kinds)
            found.append((game.view(state, 0), mine))
        movers = [s for s in game.waiting_for(state) if game.legal_actions(state, s)]
        if not movers:
            deadline = game.deadline(state)
            if deadline is None:
                break
            game.apply(state, None, {"type": "timeout", "key": deadline.key})
            continue
        seat = rnd.choice(movers)
        game.apply(state, seat, rnd.choice(game.legal_actions(state, seat)))
    return found


def spot(app: Any, region: Any, wanted: Any) -> tuple[int, int] | None:
    """The first cell of ``region`` on the screen whose mouse meta ``wanted`` accepts."""
    for y in range(region.y, region.bottom):
        for x in range(region.x, region.right):
            if wanted(app.screen.get_style_at(x, y).meta):
                return x, y
    return None


async def until(pilot: Any, check: Any, what: str, seconds: float = 15.0) -> Any:
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while not (value := check()):
        assert loop.time() < end, f"{what}: not within {seconds} s"
        await pilot.pause(0.02)
    return value


async def tap_entry(pilot: Any, box: OptionList, index: int) -> None:
    """Tap entry ``index`` of ``box``; while it is out of sight, page down first with a tap:
    on the ↓ of a list's hint, else on the scrollbar below its thumb."""
    for _ in range(60):
        where = spot(pilot.app, box.region, lambda meta: meta.get("option") == index)
        if where is not None:
            await pilot.click(offset=where)
            return
        screen = pilot.app.screen.region
        down = spot(pilot.app, screen, lambda meta: meta.get("@click") == "screen.page(1)") \
            or spot(pilot.app, box.region, lambda meta: meta.get("@mouse.down") == "scroll_down")
        assert down is not None, f"entry {index} is out of sight and nothing pages down"
        await pilot.click(offset=down)
        await pilot.wait_for_scheduled_animations()
    raise AssertionError(f"entry {index} never came into sight")


def footer_key(app: Any, action: str) -> FooterKey | None:
    """The bottom bar's key for ``action`` once laid out (None before)."""
    keys = [k for k in app.screen.query(FooterKey) if k.action == action and k.region.width]
    return keys[0] if keys else None


async def tap_key(pilot: Any, action: str, done: Any) -> None:
    """Tap the bottom bar's ``action`` key until ``done()`` (the bar is redrawn when a list
    closes: a tap on a key being replaced is lost, and a finger taps again)."""
    for _ in range(3):
        key = await until(pilot, lambda: footer_key(pilot.app, action),
                          f"the {action} key in the bottom bar")
        assert key.region.right <= SIZE[0] and key.region.y < SIZE[1], \
            f"the {action} key is off the screen"
        await pilot.click(key)
        try:
            await until(pilot, done, f"the {action} key's effect", 5.0)
            return
        except AssertionError:
            continue
    raise AssertionError(f"three taps on the {action} key did nothing")


async def finish_by_taps(pilot: Any, app: Any, table: Any) -> list[dict[str, Any]]:
    """Tap the one entry of every list that follows (a field shown to confirm, the preview)
    until something is sent; the actions sent."""
    for _ in range(8):
        await until(pilot, lambda: app.sent or (isinstance(app.screen, Picker)
                                                and app.screen.query(OptionList)),
                    "a list or a message")
        if app.sent:
            break
        box = app.screen.query_one(OptionList)
        assert box.option_count == 1, "a list after the pick offers more than the pick"
        await tap_entry(pilot, box, 0)
        await pilot.pause()
    await until(pilot, lambda: app.screen is table, "back at the table")
    return [m["action"] for m in app.sent if m["type"] == "act"]


def targets(legal: list[dict[str, Any]], rnd: random.Random) -> list[dict[str, Any]]:
    """One action of each type offered, and the last one listed (the far end of the list)."""
    picked = [rnd.choice([a for a in legal if a["type"] == kind])
              for kind in sorted({str(a["type"]) for a in legal})]
    return picked + ([legal[-1]] if legal[-1] not in picked else [])


def table_app(name: str, view: dict[str, Any], legal: list[dict[str, Any]]) -> ScreenApp:
    """The client showing ``view`` at a ``name`` table; what it sends is kept in ``sent``."""
    return ScreenApp("fixed", game=name, source=SimpleNamespace(fixed_view=lambda: (view, legal)))


def listing(app: Any) -> bool:
    return isinstance(app.screen, Picker)


def answered(app: Any) -> bool:
    return bool(app.sent) or isinstance(app.screen, Picker)


async def tap_through(pilot: Any, legal: list[dict[str, Any]], rnd: random.Random) -> set[str]:
    """Send actions of ``legal`` by taps, one of each type; the types sent."""
    app = pilot.app
    table = app.table_screen
    await until(pilot, lambda: app.screen is table or listing(app), "the table", 30.0)
    await pilot.pause()
    if listing(app):  # the table asks by itself (Hranice: Výslech's discard)
        offered = [value for _label, value in app.screen.choices]
        await tap_entry(pilot, app.screen.query_one(OptionList), len(offered) - 1)
        assert await finish_by_taps(pilot, app, table) == [offered[-1]]
        return {str(a["type"]) for a in offered}
    sent: set[str] = set()
    for target in targets(legal, rnd):
        app.sent.clear()
        await tap_key(pilot, "all_actions", lambda: listing(app))
        await tap_entry(pilot, app.screen.query_one(OptionList), legal.index(target))
        assert await finish_by_taps(pilot, app, table) == [target]
        sent.add(str(target["type"]))
    return sent


@pytest.mark.parametrize("name", sorted(PLAYERS))
async def test_every_action_of_every_game_can_be_sent_by_taps_alone(name: str) -> None:
    rnd = random.Random(5)
    found = decisions(name, seed=11)
    assert len(found) >= 3, "too few kinds of decision to check"
    checked: set[str] = set()
    for view, legal in found:
        app = table_app(name, view, legal)
        async with app.run_test(size=SIZE) as pilot:
            checked |= await tap_through(pilot, legal, rnd)
    assert checked == {str(a["type"]) for _, legal in found for a in legal}


async def tap_button(pilot: Any, action: str) -> list[dict[str, Any]]:
    """Tap the bottom bar's ``action`` key at the table, then whatever single entry follows;
    the actions sent."""
    app = pilot.app
    table = app.table_screen
    await until(pilot, lambda: app.screen is table, "the table", 30.0)
    await tap_key(pilot, action, lambda: answered(app))
    return await finish_by_taps(pilot, app, table)


@pytest.mark.parametrize("name", sorted(PLAYERS))
async def test_pass_done_and_ok_have_a_key_to_tap_in_every_game(name: str) -> None:
    found = [(v, g) for v, g in decisions(name, seed=11)
             if any(a["type"] in BUTTONS for a in g)]
    assert found, "no decision with a pass, done or OK"
    for view, legal in found:
        app = table_app(name, view, legal)
        async with app.run_test(size=SIZE) as pilot:
            sent = await tap_button(pilot, "pass_turn")
        assert len(sent) == 1 and sent[0] in legal and sent[0]["type"] in BUTTONS


async def test_fangs_proposal_vote_has_yes_and_no_keys_to_tap() -> None:
    found = [(v, g) for v, g in decisions("fang", seed=11)
             if any(a["type"] == "vote_proposal" for a in g)]
    assert found, "no proposal vote in the game"
    view, legal = found[0]
    for action, yes in (("vote_yes", True), ("vote_no", False)):
        app = table_app("fang", view, legal)
        async with app.run_test(size=SIZE) as pilot:
            assert await tap_button(pilot, action) == [{"type": "vote_proposal", "yes": yes}]
