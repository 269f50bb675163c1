"""No meaning by colour alone: every screen of each game is rendered twice — in colour (the
Okabe–Ito look) and under ``NO_COLOR`` — and the text alone must carry the same: the two
renders read alike, character for character; every span coloured for a meaning
(:mod:`client.palette`'s roles, found by the role each such span carries) has the role's mark
on its line; under ``NO_COLOR`` no colour is left at all and a meaning is bold or reverse
video; a cursor stands out without colour. The high-contrast look draws the same text.
"""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest
from rich.style import Style

from client import palette
from client.widgets.log import GameLog
from tests.client import hranice_views
from tests.client.conftest import wait_until
from tests.client.harness import ScreenApp
from tests.client.test_fang_screen import day_view, over_view

pytestmark = pytest.mark.usefixtures("frozen_clock")
SIZE = (80, 24)
FANG: Any = SimpleNamespace(day_view=day_view, over_view=over_view)
Span = tuple[str, Style]


def _chat_and_notes(app: ScreenApp) -> None:
    screen = app.table_screen
    assert screen is not None
    screen.add_chat("Bela", "who burns next?", "table", 1)
    screen.add_chat("Cora", "the moon is up", "witches", 2)
    log = screen.query_one(GameLog)
    log.add_note("Too late: the window had closed.")
    log.add_note("Fair play verified", warning=False)


# every screen of each game: (name, the app, keys pressed, what is done to it once shown)
SCREENS: list[tuple[str, Callable[[], ScreenApp], list[str], Callable[[ScreenApp], None]]] = [
    ("lobby", lambda: ScreenApp("lobby"), [], lambda app: None),
    ("hexenhammer-turn", lambda: ScreenApp("your_turn"), [], _chat_and_notes),
    ("hexenhammer-reaction", lambda: ScreenApp("reaction"), [], lambda app: None),
    ("hexenhammer-busy", lambda: ScreenApp("busy"), [], lambda app: None),
    ("hexenhammer-picker", lambda: ScreenApp("your_turn"), ["enter"], lambda app: None),
    ("hexenhammer-help", lambda: ScreenApp("your_turn"), ["question_mark"], lambda app: None),
    ("hexenhammer-results", lambda: ScreenApp("over"), [], lambda app: None),
    ("hranice-turn", lambda: ScreenApp("table", "hranice", hranice_views), [],
     _chat_and_notes),
    ("hranice-reaction", lambda: ScreenApp("reaction", "hranice", hranice_views), [],
     lambda app: None),
    ("hranice-peek", lambda: ScreenApp("peek", "hranice", hranice_views), [], lambda app: None),
    ("hranice-flip", lambda: ScreenApp("flip", "hranice", hranice_views), [], lambda app: None),
    ("hranice-flipped", lambda: ScreenApp("flipped", "hranice", hranice_views), [],
     lambda app: None),
    ("hranice-results", lambda: ScreenApp("over", "hranice", hranice_views), [],
     lambda app: None),
    ("fang-day", lambda: ScreenApp("day", "fang", FANG), [], _chat_and_notes),
    ("fang-results", lambda: ScreenApp("over", "fang", FANG), [], lambda app: None),
]


# the palette's roles each screen draws in colour (its test checks the render draws exactly
# these; together they must cover the palette, so no role goes unchecked)
DRAWN: dict[str, set[str]] = {
    "lobby": set(),
    "hexenhammer-turn": {"chat", "danger", "floor", "news", "rest", "rise", "warning"},
    "hexenhammer-reaction": {"danger", "floor", "rest", "rise"},
    "hexenhammer-busy": {"danger", "floor", "rest", "rise"},
    "hexenhammer-picker": set(),
    "hexenhammer-help": set(),
    "hexenhammer-results": set(),
    "hranice-turn": {"chat", "news", "token_off", "warning"},
    "hranice-reaction": {"token_off"},
    "hranice-peek": set(),
    "hranice-flip": {"pyre", "token_off"},
    "hranice-flipped": {"pyre", "token_off", "token_on"},
    "hranice-results": set(),
    "fang-day": {"chat", "news", "warning"},
    "fang-results": set(),
}


async def render(make: Callable[[], ScreenApp], keys: list[str],
                 then: Callable[[ScreenApp], None]) -> list[list[Span]]:
    """The screen as the terminal would get it: a line a row, each as styled spans."""
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.screen is not None and (
            app.what == "lobby" or app.table_screen is not None), 5, "the screen")
        await pilot.pause(0.2)
        if app.table_screen is not None:
            then(app)
        for key in keys:
            await pilot.press(key)
            await pilot.pause(0.2)
        await pilot.pause(0.2)
        update = app.screen._compositor.render_update(full=True,
                                                      screen_stack=app._background_screens)
        return [[(seg.text, seg.style or Style()) for strip in chops for seg in strip
                 if not seg.control] for chops in update.strips]


def text_of(lines: list[list[Span]]) -> list[str]:
    return ["".join(text for text, _style in line) for line in lines]


def role_of(style: Style) -> str | None:
    return (style.meta or {}).get("role")


def no_colour(style: Style) -> bool:
    """Whether the style sets no colour (the terminal's default ones)."""
    return all(colour is None or colour.is_default for colour in (style.color, style.bgcolor))


@pytest.mark.parametrize(("name", "make", "keys", "then"), SCREENS,
                         ids=[s[0] for s in SCREENS])
async def test_the_text_alone_carries_what_the_colours_say(
        name: str, make: Callable[[], ScreenApp], keys: list[str],
        then: Callable[[ScreenApp], None], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("HEXNET_LOOK", raising=False)
    coloured = await render(make, keys, then)
    assert palette.look() == "okabe-ito"
    monkeypatch.setenv("NO_COLOR", "1")
    bare = await render(make, keys, then)
    assert palette.look() == "mono"
    monkeypatch.delenv("NO_COLOR")
    monkeypatch.setenv("HEXNET_LOOK", "contrast")
    contrast = await render(make, keys, then)
    assert palette.look() == "contrast"

    assert {role_of(style) for line in coloured for text, style in line
            if role_of(style) and text.strip()} == DRAWN[name]
    # the same characters in every look: nothing is said by colour that the text does not say
    assert text_of(bare) == text_of(coloured)
    assert text_of(contrast) == text_of(coloured)
    for look, lines in (("okabe-ito", coloured), ("mono", bare), ("contrast", contrast)):
        for line in lines:
            row = "".join(text for text, _style in line)
            for text, style in line:
                role = role_of(style)
                if role is None or not text.strip():
                    continue
                marks = palette.ROLES[role].marks
                assert any(mark in row for mark in marks), (look, role, row)
    # NO_COLOR: no colour at all (the terminal's own) — a meaning by bold or reverse video
    for line in bare:
        for text, style in line:
            assert no_colour(style), (text, style)
            role = role_of(style)
            if role is not None and text.strip():
                want = Style.parse(palette.ROLES[role].mono or "none")
                assert all(getattr(style, a) for a in ("bold", "reverse")
                           if getattr(want, a)), (role, text, style)


def test_every_meaning_the_palette_colours_is_drawn_somewhere() -> None:
    """The screens above show every role of the palette (so none goes unchecked): each
    screen's test checks that it draws the roles :data:`DRAWN` names, and those cover the
    palette."""
    assert set(DRAWN) == {name for name, *_ in SCREENS}
    seen = set().union(*DRAWN.values())
    assert set(palette.ROLES) <= seen, set(palette.ROLES) - seen


async def test_without_colour_a_cursor_is_bold_and_underlined_or_reversed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The cursor of a list (the picker's first entry, the highlighted card) is bold and
    underlined — a list's entry cannot be drawn in reverse video —, the lobby's highlighted
    table in reverse video."""
    monkeypatch.setenv("NO_COLOR", "1")
    picker = await render(lambda: ScreenApp("your_turn"), ["enter"], lambda app: None)
    marked = [text for line in picker for text, style in line
              if style.bold and style.underline and text.strip()]
    assert any("Karl · yours" in text for text in marked), marked
    lobby = await render(lambda: ScreenApp("lobby"), [], lambda app: None)
    reversed_ = [text for line in lobby for text, style in line if style.reverse]
    assert any("Hexenhammer" in text for text in reversed_), reversed_
