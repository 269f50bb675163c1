"""Client tests: a real host on 127.0.0.1 (TLS, protocol, engine, host-side bots), no mocks."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from typing import Any

import pytest
from textual.css.query import NoMatches
from textual.pilot import WaitForScreenTimeout
from textual.widgets import OptionList

from client.app import HexnetApp
from client.screens.picker import Picker
from client.widgets import countdown, guard
from client.widgets.log import GameLog
from host.server import Host


async def wait_until(pilot: Any, check: Callable[[], Any], timeout: float = 30.0,
                     what: Any = "") -> Any:
    """Let the app run until ``check()`` is truthy (returned), failing after ``timeout`` s. A
    screen is current a moment before its widgets are composed, so nothing is true while the
    current screen is not yet mounted (a check such as ``isinstance(app.screen, ...)`` would
    pass before the screen's widgets are there to query), and a check that queries a widget
    not yet there (``NoMatches``) is not yet true. Nor is an app that has not yet worked off
    its messages (Textual's own 30 s wait in ``pause``, which a heavily loaded machine can
    exceed while a watched game streams in): the deadline here decides."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            result = check()
        except NoMatches:
            result = None
        if result and pilot.app.screen.is_mounted:
            return result
        with contextlib.suppress(WaitForScreenTimeout):
            await pilot.pause(0.05)
    raise AssertionError(f"timed out waiting for {what() if callable(what) else what}")


class FrozenClock:
    """The countdowns' clock, standing still until a test moves it on."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def frozen_clock(monkeypatch: pytest.MonkeyPatch) -> FrozenClock:
    """Countdowns stand still (snapshots; countdown tests move the clock themselves) and keys
    never wait after a new question (client/widgets/guard.py): nothing moves by itself."""
    clock = FrozenClock()
    monkeypatch.setattr(countdown, "CLOCK", clock)
    monkeypatch.setattr(guard, "GUARD_SECONDS", 0.0)
    return clock


@pytest.fixture
async def open_host(request: pytest.FixtureRequest, tmp_path: Any) -> Any:
    """An open Hexenhammer host on 127.0.0.1, named by a ``host_name`` mark (else Openhaus)."""
    mark = request.node.get_closest_marker("host_name")
    h = Host(mark.args[0] if mark else "Openhaus", tmp_path / "host-cfg",
             tmp_path / "host-data", open=True, bot_delay=0.0, games=["hexenhammer"])
    await h.start(bind="127.0.0.1", port=0)
    try:
        yield h
    finally:
        await h.stop()


async def host_with_table(tmp_path: Any, name: str, game: str, seats: int,
                          options: dict[str, Any], seed: int) -> tuple[Host, int]:
    """An open host on 127.0.0.1 (port 0, bots without delay) with one table of ``game``
    whose seats after the first are heuristic bots; seat 0 waits for the test's player."""
    h = Host(name, tmp_path / "host-cfg", tmp_path / "host-data", open=True, bot_delay=0.0,
             games=[game])
    await h.start(bind="127.0.0.1", port=0)
    table = h.lobby.create_table(game, seats, options, seed=seed)
    for seat in range(1, seats):
        h.lobby.add_bot(table, seat, "heuristic")
    return h, table


def player_app(h: Host, tmp_path: Any, name: str = "Ada") -> HexnetApp:
    """A client for ``h``, its key pinned up front."""
    return HexnetApp(target=("127.0.0.1", h.port), name=name,
                     config_dir=str(tmp_path / name.lower()), fingerprint=h.fingerprint)


async def sit_and_start(pilot: Any, app: HexnetApp, screen_type: type) -> Any:
    """From the lobby: sit at the highlighted table, start it, return its table screen."""
    await wait_until(pilot, lambda: app.lobby, what="the lobby")
    await pilot.press("enter")  # sit
    await wait_until(pilot, lambda: (app.lobby.get("you") or {}).get("seat") == 0)
    await pilot.press("g")
    return await wait_until(pilot, lambda: isinstance(app.screen, screen_type) and app.screen,
                            what="the table")


def asked(screen: Any) -> bool:
    """The seat is asked something and its keys answer (the moment in which keys wait after a
    new question — client/widgets/guard.py — is over)."""
    return bool(screen.legal) and not screen.guard.active


def passing_until(app: HexnetApp, screen: Any, done: Callable[[], bool]) -> Callable[[], bool]:
    """A ``wait_until`` check: true once ``done()``; until then every new question is passed."""
    asked_at = [-1]

    def check() -> bool:
        if done():
            return True
        if asked(screen) and asked_at[0] != screen.view["state_id"]:
            asked_at[0] = screen.view["state_id"]  # pass each question once
            app.call_later(screen.action_pass_turn)
        return False

    return check


async def pick(pilot: Any, app: HexnetApp, wanted: str) -> list[str]:
    """In the open picker, take the entry whose label contains ``wanted``; return every label."""
    def choices() -> OptionList | None:  # the picker is up and has composed its list
        screen = app.screen
        lists = screen.query(OptionList) if isinstance(screen, Picker) else None
        return lists.first() if lists and lists.first().option_count else None

    options = await wait_until(pilot, choices, what="a picker with its choices")
    labels = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
    index = next(i for i, label in enumerate(labels) if wanted in label)
    for _ in range(index):
        await pilot.press("down")
    await pilot.press("enter")
    return labels


def log_text(log: GameLog) -> str:
    """Every line of a game log, as plain text."""
    return "\n".join(line.text for line in log.lines)


def screen_text(app: Any) -> str:
    """What the terminal shows now, as plain text (one line a row): the layout as a tmux capture
    would read it, without a terminal."""
    import io

    from rich.console import Console

    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True,
                      color_system=None, record=True, legacy_windows=False, safe_box=False)
    console.print(app.screen._compositor.render_update(
        full=True, screen_stack=app._background_screens))
    return console.export_text(styles=False)
