"""The plain mode (``--plain``) against a real host on 127.0.0.1: lines typed into a pipe, the
sentences it writes read back. The whole game by lines in a real terminal is
``test_plain_tmux.py``; these check the parts: the key and the room code asked as lines, the
lobby's commands, a card narrowed down field by field with its foreseen effect, a question that
closes under a half-made choice, quitting while a game runs, and that the package needs no
Textual."""

from __future__ import annotations

import asyncio
import io
import os
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest

from client.autoseat import AutoSeat
from client.plain.console import Console, speakable
from client.plain.front import PlainClient
from host.server import Host
from tests.client import views

pytestmark = pytest.mark.timeout(90)


class Terminal:
    """What a player types (a pipe the client reads) and what the client wrote."""

    def __init__(self) -> None:
        self.read_end, self.write_end = os.pipe()
        self.out = io.StringIO()
        self.console = Console(out=self.out, fd=self.read_end)

    def type(self, line: str) -> None:
        os.write(self.write_end, (line + "\n").encode())

    @property
    def lines(self) -> list[str]:
        return self.out.getvalue().splitlines()

    def after(self, mark: int) -> list[str]:
        return self.lines[mark:]

    async def until(self, check: Callable[[list[str]], Any], timeout: float = 30.0,
                    what: str = "") -> Any:
        """Wait until ``check(lines)`` is truthy (returned)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while loop.time() < end:
            found = check(self.lines)
            if found:
                return found
            await asyncio.sleep(0.05)
        raise AssertionError(f"{what}: not within {timeout} s; the lines:\n"
                             + "\n".join(self.lines[-40:]))

    def close(self) -> None:
        os.close(self.write_end)
        os.close(self.read_end)


async def running(client: PlainClient) -> asyncio.Task[int]:
    return asyncio.create_task(client.run())


async def ended(task: asyncio.Task[int], term: Terminal) -> int:
    term.type("quit")
    term.type("quit")  # (a running game asks once more)
    code = await asyncio.wait_for(task, 15)
    term.close()
    assert "\x1b" not in term.out.getvalue()  # lines only: no escape sequence
    return code


async def ada_begins(tmp_path: Any, options: dict[str, Any]
                     ) -> tuple[Host, Terminal, asyncio.Task[int]]:
    """A host whose Hexenhammer table Ada (seat 0, by lines) begins, holding the fixed views'
    hand, heuristic bots at the other seats; the host, her terminal and her client's task."""
    host = Host("Hexhaus", tmp_path / "host-cfg", tmp_path / "host-data", open=True,
                bot_delay=0.0, games=["hexenhammer"])
    await host.start(bind="127.0.0.1", port=0)
    table = host.lobby.create_table(
        "hexenhammer", 4, {"scenario": {**views.SCENARIO, "turn": 0}, **options}, seed=7)
    for seat in (1, 2, 3):
        host.lobby.add_bot(table, seat, "heuristic")
    term = Terminal()
    task = await running(PlainClient(target=("127.0.0.1", host.port), name="Ada",
                                     config_dir=str(tmp_path / "ada"),
                                     fingerprint=host.fingerprint, auto_seat=AutoSeat(table, 0),
                                     console=term.console))
    return host, term, task


def test_the_plain_package_needs_no_textual() -> None:
    probe = ("import sys, client.plain.front, client.plain.replay, client.plain.fang, "
             "client.plain.hexenhammer, client.plain.hranice; "
             "print(sorted(m for m in sys.modules if m.split('.')[0] == 'textual'))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True, timeout=60).stdout
    assert out.strip() == "[]"


def test_a_line_is_said_without_marks_escapes_or_control_characters() -> None:
    assert speakable("⟳reconnecting · ⚡disconnected │ ⌀ absent") == (
        "reconnecting, disconnected; absent")
    assert speakable("\x1b[31m▶ Verleumdung +1\x1b[0m\x07") == "Verleumdung +1"
    assert speakable("Fair play verified ✓ (commitment 12ab…)") == (
        "Fair play verified (commitment 12ab…)")


async def test_the_hosts_key_and_the_room_code_are_asked_as_lines(tmp_path: Any) -> None:
    host = Host("Codehaus", tmp_path / "host-cfg", tmp_path / "host-data", open=False,
                bot_delay=0.0, games=["hexenhammer"])
    await host.start(bind="127.0.0.1", port=0)
    term = Terminal()
    try:
        task = await running(PlainClient(target=("127.0.0.1", host.port), name="Ada",
                                         config_dir=str(tmp_path / "ada"),
                                         console=term.console))
        await term.until(lambda lines: any("Compare it with the key" in x for x in lines),
                         what="the key's question")
        assert any(line.startswith("First contact with 127.0.0.1:") for line in term.lines)
        term.type("yes")
        await term.until(lambda lines: any("needs its room code" in x for x in lines),
                         what="the code's question")
        term.type("WRONG-CODE1")
        await term.until(lambda lines: sum("needs its room code" in x for x in lines) == 2,
                         what="the code asked again")
        term.type(host.room_code)
        await term.until(lambda lines: any("you are Ada" in x for x in lines), what="in")
        assert await ended(task, term) == 0
    finally:
        await host.stop()


async def test_the_lobby_by_lines_new_table_bots_chat_and_start(open_host: Host,
                                                                tmp_path: Any) -> None:
    term = Terminal()
    task = await running(PlainClient(target=("127.0.0.1", open_host.port), name="Bea",
                                     config_dir=str(tmp_path / "bea"),
                                     fingerprint=open_host.fingerprint, console=term.console))
    await term.until(lambda lines: any("You are Bea, not seated" in x for x in lines),
                     what="the lobby")
    term.type("new")  # one game here: straight to the seats
    await term.until(lambda lines: "How many seats at the Hexenhammer table?" in lines,
                     what="the seats")
    assert "1. 3 players" in term.lines
    term.type("1")
    await term.until(lambda lines: "Which pace?" in lines, what="the pace")
    term.type("1")
    await term.until(lambda lines: any("seated at table 1" in x for x in lines),
                     what="seated")
    term.type("bot")
    term.type("bot")
    await term.until(lambda lines: any(x.startswith("Table 1: Hexenhammer") and "3 of 3" in x
                                       for x in lines), what="two bots")
    term.type("chat good evening, village")
    await term.until(lambda lines: "In the lobby, Bea says: good evening, village" in lines,
                     what="the chat line")
    term.type("tables")
    await term.until(lambda lines: sum(x.startswith("Table 1: Hexenhammer") for x in lines)
                     >= 2, what="the list")
    term.type("start")
    await term.until(lambda lines: "Hexenhammer, table 1." in lines, what="the table")
    await term.until(lambda lines: any(x.startswith("Round 1, phase 1") for x in lines),
                     what="the first line of the log")
    mark = len(term.lines)
    term.type("quit")
    await term.until(lambda lines: any("still runs" in x for x in lines[mark:]),
                     what="asked once more")
    assert not task.done()
    assert await ended(task, term) == 0


async def test_a_card_is_asked_field_by_field_with_its_effect_then_played(
        tmp_path: Any) -> None:
    host, term, task = await ada_begins(tmp_path, {})
    try:
        await term.until(lambda lines: "Your turn." in lines, what="Ada's turn")
        menu = [x for x in term.lines[term.lines.index("Your turn."):] if x[:1].isdigit()]
        assert menu[0] == "1. Verleumdung +1: play it"  # her cards first, as in her hand
        assert "Pass" in menu[-2] or "Pass" in menu[-1]
        term.type("hand")
        await term.until(lambda lines: any(x.startswith("1. Verleumdung +1: Brown") and
                                           "You can use it now." in x for x in lines),
                         what="the hand")
        mark = len(term.lines)
        term.type("1")
        await term.until(lambda lines: "Verleumdung +1: Who accuses?" in lines[mark:],
                         what="the accuser")
        assert "1. Karl, yours, 7" in term.after(mark)
        mark = len(term.lines)
        term.type("1")  # Karl accuses
        await term.until(lambda lines: any(x.endswith("Whom?") for x in lines[mark:]),
                         what="the target")
        targets = [x for x in term.after(mark) if x[:1].isdigit() and " → " in x]
        theresa = next(x for x in targets if "Theresa, bot 2, 14 → 15" in x)
        mark = len(term.lines)
        term.type(theresa.split(".")[0])
        await term.until(lambda lines: "1. Do it." in lines[mark:], what="the preview")
        said = term.after(mark)
        assert "Theresa (bot 2): 14 → 15" in said and "(unless someone reacts)" in said
        assert "0. Back." in said
        mark = len(term.lines)
        term.type("1")
        await term.until(lambda lines: any("Karl (Ada) accuses Theresa (bot 2)" in x
                                           for x in lines[mark:]), what="the card played")
        assert any(x.startswith("Sent: Play Verleumdung +1") for x in term.after(mark))
        assert await ended(task, term) == 0
    finally:
        await host.stop()


async def test_a_half_made_choice_is_dropped_when_its_question_closes(tmp_path: Any) -> None:
    host, term, task = await ada_begins(tmp_path, {"turn_seconds": 3})
    try:
        await term.until(lambda lines: "Your turn." in lines, what="Ada's turn")
        assert any(x.startswith("Timer: 3 seconds.") for x in term.lines)
        term.type("1")  # a card … and no answer to "Who accuses?" before the 3 s are up
        await term.until(lambda lines: "That question is closed: the game moved on." in lines,
                         10, what="the question closing")
        mark = len(term.lines)
        term.type("1")  # now the number answers the new question, not the old one
        await term.until(lambda lines: len(lines) > mark + 1, what="an answer")
        assert "Verleumdung +1: Who accuses?" not in term.after(mark)
        assert await ended(task, term) == 0
    finally:
        await host.stop()


async def test_the_second_action_of_a_turn_is_asked_again_even_when_the_choices_are_alike(
        tmp_path: Any) -> None:
    """Hranice: Ada draws with her first action; her second is asked again at once (the
    list of choices may read as before: it is a new question all the same)."""
    host = Host("Hranhaus", tmp_path / "host-cfg", tmp_path / "host-data", open=True,
                bot_delay=0.0, games=["hranice"])
    await host.start(bind="127.0.0.1", port=0)
    scenario = {"hands": [["kovar", "knez", "rolnik"], ["zebrak"], ["zebrak"]],
                "first_player": 0}
    table = host.lobby.create_table("hranice", 3, {"scenario": scenario}, seed=3)
    for seat in (1, 2):
        host.lobby.add_bot(table, seat, "heuristic")
    term = Terminal()
    try:
        task = await running(PlainClient(target=("127.0.0.1", host.port), name="Ada",
                                         config_dir=str(tmp_path / "ada"),
                                         fingerprint=host.fingerprint,
                                         auto_seat=AutoSeat(table, 0), console=term.console))
        await term.until(lambda lines: "Your turn (2 actions left)." in lines, what="the turn")
        draw = next(x for x in term.lines if x.endswith(". Draw a card"))
        term.type(draw.split(".")[0])
        await term.until(lambda lines: "Your turn (1 action left)." in lines,
                         what="the second action asked")
        assert await ended(task, term) == 0
    finally:
        await host.stop()


async def test_a_rematch_an_emote_and_the_bots_paused_by_lines(tmp_path: Any) -> None:
    host = Host("Hexhaus", tmp_path / "host-cfg", tmp_path / "host-data", open=True,
                bot_delay=1.5, games=["hranice"])  # time to pause the bot before it moves
    await host.start(bind="127.0.0.1", port=0)
    table = host.lobby.create_table("hranice", 2, {"turn_cap": 1}, seed=5, owner_seat=0)
    host.lobby.add_bot(table, 1, "normal")
    term = Terminal()
    task = await running(PlainClient(target=("127.0.0.1", host.port), name="Ada",
                                     config_dir=str(tmp_path / "ada"),
                                     fingerprint=host.fingerprint, auto_seat=AutoSeat(table, 0),
                                     console=term.console))
    try:
        await term.until(lambda lines: any("You sit at seat 1" in x for x in lines),
                         what="seated")
        mark = len(term.lines)
        term.type("bots pause")
        await term.until(lambda lines: any("bots paused by Ada" in x for x in lines[mark:]),
                         what="the pause said")
        term.type("bots go")
        await term.until(lambda lines: any("The bots play on" in x for x in lines[mark:]),
                         what="the bots go on")
        term.type("emote laughing")
        await term.until(lambda lines: "Ada reacts: laughing." in lines[mark:],
                         what="the emote in words")
        for _ in range(100):  # Ada takes her first choice whenever asked, to the end
            if any("is over" in x for x in term.lines):
                break
            term.type("1")
            await asyncio.sleep(0.3)
        await term.until(lambda lines: any("Type rematch to play this table again" in x
                                           for x in lines), what="the rematch offered")
        term.type("rematch")
        await term.until(lambda lines: "The rematch is on at table #2." in lines,
                         what="the rematch dealt (Ada and the bot)")
        await term.until(lambda lines: any(x.startswith("Hranice, table 2") for x in lines),
                         what="the new table said")
        assert host.lobby.tables[2].status == "playing"
        assert host.lobby.tables[1].status == "over"
        mark = len(term.lines)
        term.type("results 1")  # the old table's results stay
        await term.until(lambda lines: "The game at table 1 is over." in lines[mark:],
                         what="the old results")
    finally:
        await ended(task, term)
        await host.stop()
