"""``hexnet play --plain`` in a real terminal (tmux): a whole game of each title played by
reading only the lines the client appended to the terminal and typing lines, with bots at the
other seats, in English, German and Hungarian.

Everything the client writes is copied from the pane as the terminal received it (``tmux
pipe-pane``): the test reads those lines only — never a screen capture — and checks that they
hold no escape sequence, no carriage return but the terminal's own line ends, and no box
drawing. The player answers whatever numbered list was said last (the chief's proposal is
built cat by cat), asks again with ``menu`` when nothing was said for a while, and tries the
other commands once. Bounded: a deadline and a count of typed lines per game.
"""

from __future__ import annotations

import os
import random
import re
import shlex
import time
from pathlib import Path

import pytest

from client.plain.console import speakable
from hexnet import i18n
from tests.client.test_tmux import HEXNET, Tmux
from tests.pace import SECRET_EVERY

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900), pytest.mark.needs("tmux")]

# a 10 s panic (quick: 30 s, six rounds of it) plays the same Hexenhammer in less time
OPTIONS = {"hexenhammer": "--option panic_seconds=10 "}
GAMES = [  # game, players, language, seed
    ("hexenhammer", 3, "en", 3),
    ("fang", 5, "de", 4),
    ("hranice", 3, "hu", 5),
]  # (each game once; a second Hexenhammer in German checked the same thing again: issue 24)
DEADLINE = 600.0  # seconds per game
MAX_TYPED = 3000
QUIET = 1.2  # seconds without news before the player asks for the choices again
NUMBERED = re.compile(r"^(\d+)\. (.*)$")
COMMANDS = ["hand", "table", "status", "log 5", "who", "time", "help", "chat hello"]


def words(lang: str, msgid: str, **args: object) -> str:
    """``msgid`` in ``lang`` as the plain mode says it (made speakable)."""
    i18n.set_language(lang)
    try:
        text = i18n._(msgid)
        return speakable(text.format(**args) if args else text)
    finally:
        i18n.set_language("en")


class PlainPane:
    """A tmux pane running a command; the lines it appended, read from a copy of its output."""

    def __init__(self, command: str, env: dict[str, str], out: Path) -> None:
        self.out = out
        out.write_bytes(b"")
        # the copy starts before the command writes anything (it waits a moment)
        self.tmux = Tmux(f"sleep 1; {command}; echo EXITED $?; sleep 60", env)
        self.tmux.run("pipe-pane", "-o", f"cat >> {shlex.quote(str(out))}")
        self.raw = b""
        self.lines: list[str] = []
        self._partial = ""
        self.typed = 0

    def read(self) -> list[str]:
        """The complete lines appended since the last call."""
        data = self.out.read_bytes()
        fresh, self.raw = data[len(self.raw):], data
        text = self._partial + fresh.decode("utf-8", errors="replace")
        *complete, self._partial = text.split("\n")
        found = [line.removesuffix("\r") for line in complete]
        self.lines += found
        return found

    def type(self, line: str) -> None:
        self.typed += 1
        self.tmux.run("send-keys", "-l", line)
        self.tmux.keys("Enter")

    def kill(self) -> None:
        self.tmux.kill()


def chief_pick(entries: list[tuple[int, str]], not_chosen: str,
               rng: random.Random) -> int | None:
    """Fang's chief: toggle cats until the proposal names as many as it must, then send it."""
    propose = [(n, label) for n, label in entries if re.search(r"\b\d+/\d+\b", label)]
    if not propose:
        return None
    number, label = propose[0]
    have, need = (int(x) for x in re.search(r"\b(\d+)/(\d+)\b", label).groups())
    toggles = [(n, lab) for n, lab in entries if n < number]
    free = [n for n, lab in toggles if lab.endswith(not_chosen)]
    taken = [n for n, lab in toggles if not lab.endswith(not_chosen)]
    if have < need and free:
        return rng.choice(free)
    if have > need and taken:
        return rng.choice(taken)
    return number


def play_a_game(game: str, players: int, lang: str, seed: int, tmp_path: Path) -> PlainPane:
    env = {"XDG_CONFIG_HOME": str(tmp_path / "cfg"), "XDG_DATA_HOME": str(tmp_path / "data"),
           "TERM": os.environ.get("TERM", "xterm-256color"), "LANG": "C.UTF-8"}
    pane = PlainPane(f"{HEXNET} play {game} --plain --players {players} --name Ada "
                     f"--seed {seed} --lang {lang} --policy heuristic --bot-delay 0.05 "
                     # (quick: the plain mode's own relaxed windows only make the bots wait)
                     "--pace quick " + OPTIONS.get(game, "") +
                     f"--secret-every {SECRET_EVERY}",
                     env, tmp_path / "pane.out")
    over = words(lang, "The game at table {table} is over.", table=1)
    not_chosen = words(lang, "{name}: not chosen", name="").lstrip(": ")
    rng = random.Random(seed)
    commands = list(COMMANDS)
    answered = 0  # the lines there were when the player last typed
    last_news = time.monotonic()
    end = time.monotonic() + DEADLINE
    try:
        while time.monotonic() < end and pane.typed < MAX_TYPED:
            if pane.read():
                last_news = time.monotonic()
            if over in pane.lines or any(line.startswith("EXITED") for line in pane.lines):
                break
            start, menu = tail_menu(pane.lines)
            if menu and start >= answered:
                if commands and rng.random() < 0.15:  # the other commands, once each
                    pane.type(commands.pop(0))
                number = chief_pick(menu, not_chosen, rng) if game == "fang" else None
                if number is None:
                    number = rng.choice([n for n, _label in menu if n != 0] or [0])
                answered = len(pane.lines)
                pane.type(str(number))
            elif time.monotonic() - last_news > QUIET and len(pane.lines) > answered:
                answered = len(pane.lines)  # once per silence: what is asked now?
                pane.type("menu")
            time.sleep(0.1)
        return pane
    except BaseException:
        pane.kill()
        raise


def tail_menu(lines: list[str]) -> tuple[int, list[tuple[int, str]]]:
    """The numbered list the lines end with (where it starts, its entries); none if the last
    line is not an entry of one."""
    menu: list[tuple[int, str]] = []
    index = len(lines)
    while index > 0:
        line = lines[index - 1]
        found = NUMBERED.match(line)
        if not line.strip():
            index -= 1
            continue
        if not found:
            break
        menu.insert(0, (int(found.group(1)), found.group(2)))
        index -= 1
    return index, menu


@pytest.mark.parametrize(("game", "players", "lang", "seed"), GAMES,
                         ids=[f"{g}-{lang}" for g, _p, lang, _s in GAMES])
def test_a_whole_game_is_played_by_reading_lines_and_typing_lines(
        game: str, players: int, lang: str, seed: int, tmp_path: Path) -> None:
    pane = play_a_game(game, players, lang, seed, tmp_path)
    try:
        over = words(lang, "The game at table {table} is over.", table=1)
        assert over in pane.lines, "\n".join(pane.lines[-60:])
        fair = words(lang, "Fair play verified ✓ (commitment {short}…)", short="X").split("(")[0]
        end = time.monotonic() + 30
        while not any(line.startswith(fair.strip()) for line in pane.lines):
            assert time.monotonic() < end, "no fair-play line:\n" + "\n".join(pane.lines[-30:])
            time.sleep(0.2)
            pane.read()
        pane.type("results")
        pane.type("quit")
        end = time.monotonic() + 20
        while not any(line.startswith("EXITED") for line in pane.lines):
            assert time.monotonic() < end, "\n".join(pane.lines[-30:])
            time.sleep(0.2)
            pane.read()
        assert "EXITED 0" in pane.lines, "\n".join(pane.lines[-30:])
        # only lines: no escape sequence, no carriage return but at a line's end, no boxes
        assert b"\x1b" not in pane.raw
        assert b"\r" not in pane.raw.replace(b"\r\n", b"")
        assert not re.search("[\u2500-\u259f]", pane.raw.decode("utf-8", errors="replace"))
        assert "Traceback" not in pane.raw.decode("utf-8", errors="replace")
        # the game spoke the player's language: its own words, not English
        if lang != "en":
            assert words("en", "Sent: {what}.", what="X").split(":")[0] + ":" not in "\n".join(
                pane.lines)
    finally:
        pane.kill()
