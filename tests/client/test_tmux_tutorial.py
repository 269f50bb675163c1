"""``hexnet play --tutorial`` in a real terminal (tmux, 80×24, NO_COLOR), finished by keys alone:
each key is pressed once the hint line asks for it, and the game ends with the score explained.
The test's time limit bounds the whole tutorial (the brief: under 10 minutes; this takes about
half a minute, most of it the tutorial bots' one-second pauses)."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest

from client.widgets.guard import GUARD_SECONDS, PAUSED
from tests.client.test_tmux import HEXNET, Tmux

pytestmark = [pytest.mark.timeout(150),
              pytest.mark.needs("tmux")]

# (what the hint line says, the key it asks for)
STEPS = [
    ("Answer with Gegenanklage (Enter on the ▶ card)", "Enter"),
    ("▶ play it (Enter) · Esc: back", "Enter"),  # what the card will do, confirmed
    ("Everyone else may answer with a ★ card; p lets it pass.", "p"),
    ("Call the Inquisition now (i)", "i"),
    ("No card in your hand answers it: p lets it pass.", "p"),
    ("d says you are done", "d"),
    ("Phase 3 (trial), your turn: one card, or p.", "p"),
]


def flat(screen: str) -> str:
    """The screen's text with its line breaks and runs of spaces folded (a wrapped hint reads
    as one line)."""
    return " ".join(screen.split())


def wait_for_text(tmux: Tmux, text: str, timeout: float = 30.0) -> str:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        screen = tmux.screen()
        if text in flat(screen):
            return screen
        time.sleep(0.2)
    raise AssertionError(f"{text!r} never appeared; the screen:\n{tmux.screen()}")


def steady(screen: str) -> str:
    """The screen without its running countdowns (``⏱ 59:31``): what stays while nothing
    happens at the table."""
    return re.sub(r"⏱ *(\d+s|\d+:\d\d( h)?)", "⏱", flat(screen))


def answering(tmux: Tmux, timeout: float = 30.0) -> None:
    """Wait until the keys answer: no prompt shows ⏸ (keys wait a moment after the question
    changed — a key pressed then only rings the bell, client/widgets/guard.py), twice, longer
    than that moment apart, on a screen that did not change in between (the new question may
    be painted a moment before its ⏸)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        before = steady(tmux.screen())
        time.sleep(GUARD_SECONDS + 0.1)
        after = steady(tmux.screen())
        if before == after and PAUSED not in after:
            return
    raise AssertionError(f"keys never answered; the screen:\n{tmux.screen()}")


def test_the_hexenhammer_tutorial_is_finished_by_keys_alone(tmp_path: Path) -> None:
    env = {"XDG_CONFIG_HOME": str(tmp_path / "cfg"), "XDG_DATA_HOME": str(tmp_path / "data"),
           "NO_COLOR": "1", "TERM": os.environ.get("TERM", "xterm-256color")}
    tmux = Tmux(f"{HEXNET} play --tutorial --name Ada --lang en; echo EXITED $?; sleep 30", env)
    try:
        for hint, key in STEPS:
            wait_for_text(tmux, hint)
            answering(tmux)
            tmux.keys(key)
        wait_for_text(tmux, "You win!")  # and the score under it, once painted:
        wait_for_text(tmux, "You score 7: 6 for the pentagrams of your living villagers, 1 for "
                            "the matches")
        tmux.keys("C-q")
        wait_for_text(tmux, "EXITED 0")
    finally:
        tmux.kill()
    journals = list((tmp_path / "data" / "hexnet" / "play" / "journals").glob("*.journal"))
    assert len(journals) == 1  # journaled like any local game (hexnet replay --list finds it)
