"""Helpers of the front-door tests (``--web``, ``--ssh``): a terminal's output as text, the toy
table's secrets, and playing a table by keys until it is over."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-B]"
                     r"|\x1b[=>78DEHMc]|\x1bP[^\x1b]*\x1b\\")


def door_fixture(make: Callable[[Any], Any]) -> Any:
    """A fixture: the door ``make(host)`` builds for the e2e ``host``, started, stopped after."""

    @pytest.fixture
    async def door(host):
        d = make(host)
        await d.start()
        try:
            yield d
        finally:
            await d.stop()

    return door


def plain(raw: str) -> str:
    """Terminal output without its escape sequences."""
    return ESCAPES.sub("", raw)


def cards_in(text: str, cards: set[str]) -> set[str]:
    """Which of the toy game's ``cards`` (``c7``…) appear in ``text`` as whole words (not the
    start of a hex string such as a commitment: "c8f3…" once failed a run)."""
    return {c for c in cards if re.search(rf"(?<![A-Za-z0-9]){c}(?![A-Za-z0-9])", text)}


def secret_cards(host: Any, table: int, seat: int) -> set[str]:
    """The toy cards ``seat`` may not know now: the other seats' hands and the pile."""
    state = host.lobby.state_of(table)
    assert state is not None
    hidden = set(state["pile"])
    for s, hand in enumerate(state["hands"]):
        if s != seat:
            hidden |= set(hand)
    return hidden


def seat_of(host: Any, table: int, name: str) -> int:
    """The seat ``name`` holds at ``table``."""
    seats = host.lobby.tables[table].seats
    return next(i for i, s in enumerate(seats) if s.name == name)


async def poll(check: Callable[[], Any], timeout: float, what: str,
               step: float = 0.1) -> Any:
    """``check()`` until it is truthy (returned) or ``timeout`` s passed (AssertionError)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        value = check()
        if value:
            return value
        if loop.time() > end:
            raise AssertionError(f"{what}: not within {timeout} s")
        await asyncio.sleep(step)


class Screen:
    """Just enough of a terminal to read a Textual app's screen from its output: cursor moves
    (CUP), carriage return, line feed, erase display/line; other sequences are skipped."""

    SEQUENCE = re.compile(r"\x1b\[([0-?]*)[ -/]*([@-~])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"
                          r"|\x1bP[^\x1b]*\x1b\\|\x1b[()][0-9A-B]|\x1b[=>78DEHMc]")

    def __init__(self, cols: int, rows: int) -> None:
        self.cols, self.rows = cols, rows
        self.grid = [[" "] * cols for _ in range(rows)]
        self.row = self.col = 0
        self.tail = ""
        self.raw = ""  # everything received, decoded

    def feed(self, data: bytes | str) -> None:
        text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
        self.raw += text
        text = self.tail + text
        self.tail = ""
        i = 0
        while i < len(text):
            ch = text[i]
            if ch == "\x1b":
                m = self.SEQUENCE.match(text, i)
                if m is None:
                    if len(text) - i < 64:  # an escape cut in two: wait for the rest
                        self.tail = text[i:]
                        return
                    i += 1
                    continue
                if m.group(2):
                    self._csi(m.group(1), m.group(2))
                i = m.end()
                continue
            if ch == "\r":
                self.col = 0
            elif ch == "\n":
                self.row = min(self.row + 1, self.rows - 1)
            elif ch == "\b":
                self.col = max(0, self.col - 1)
            elif ch >= " ":
                if self.col < self.cols:
                    self.grid[self.row][self.col] = ch
                self.col += 1
            i += 1

    def _csi(self, params: str, final: str) -> None:
        if params.startswith("?"):
            return
        nums = [int(p) if p.isdigit() else 0 for p in params.split(";")] if params else []
        if final in "Hf":
            row = (nums[0] if nums and nums[0] else 1) - 1
            col = (nums[1] if len(nums) > 1 and nums[1] else 1) - 1
            self.row, self.col = min(row, self.rows - 1), min(col, self.cols - 1)
        elif final == "J" and (nums or [0])[0] in (2, 3):
            self.grid = [[" "] * self.cols for _ in range(self.rows)]
        elif final == "K":
            for c in range(self.col, self.cols):
                self.grid[self.row][c] = " "

    @property
    def text(self) -> str:
        """Everything received, without escape sequences (what ever appeared)."""
        return plain(self.raw)

    def screen(self) -> str:
        """What the screen shows now, line by line."""
        return "\n".join("".join(line).rstrip() for line in self.grid)


async def play_to_the_end(host: Any, table: int, screen: Callable[[], str],
                          send: Callable[[str], Awaitable[None]], *,
                          timeout: float = 120.0, max_moves: int = 200) -> int:
    """Play ``table`` by keys until the host says it is over: whenever the terminal shows that
    it is this player's move, ``a`` (every legal action) and Enter (the first). ``screen()`` is
    the text to look at; the number of moves made."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    moves = 0
    while host.lobby.tables[table].status != "over":
        assert loop.time() < end, f"the table was not over within {timeout} s"
        assert moves < max_moves, f"still not over after {max_moves} moves"
        if "Your move" in screen() and "Every action you can take" not in screen():
            await send("a")
            try:
                await poll(lambda: "Every action you can take" in screen(), 5.0,
                           "the action list")
            except AssertionError:
                continue  # nothing to do after all (a stale prompt): look again
            await send("\r")
            moves += 1
        await asyncio.sleep(0.1)
    return moves
