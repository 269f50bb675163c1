"""The SSH door's screen-reader mode: ``ssh plain@HOST`` (or ``TERM=dumb``) runs the client in
its plain mode — sentences and typed lines, no screen — over a real SSH server (asyncssh) on
127.0.0.1; a guest who asks for neither gets the full screen."""

from __future__ import annotations

import asyncio
import contextlib
import re
from pathlib import Path
from typing import Any

import pytest

asyncssh = pytest.importorskip("asyncssh", reason="needs hexnet[ssh] (asyncssh)")

from host.ssh import SSHDoor, wants_plain  # noqa: E402
from tests.e2e.frontdoor import cards_in, door_fixture, poll, seat_of, secret_cards  # noqa: E402
from tests.e2e.test_ssh_door import CodeTyper  # noqa: E402

pytestmark = pytest.mark.timeout(180)
door = door_fixture(lambda host: SSHDoor(host, bind="127.0.0.1", port=0))
NUMBERED = re.compile(r"^(\d+)\. ")


def test_the_plain_mode_is_asked_for_by_the_login_name_or_a_dumb_terminal() -> None:
    assert wants_plain("plain", "xterm-256color")
    assert wants_plain("Plain", "xterm")
    assert wants_plain("guest", "dumb")
    assert not wants_plain("guest", "xterm-256color")
    assert not wants_plain("plainly", "xterm")


async def login(door: SSHDoor, code: str, username: str) -> Any:
    return await asyncssh.connect(
        "127.0.0.1", door.port, username=username, client_factory=lambda: CodeTyper(code),
        known_hosts=([door.host_key.convert_to_public()], [], []), agent_path=None,
        client_keys=None)


class Lines:
    """What the guest's terminal received, as text."""

    def __init__(self) -> None:
        self.raw = b""

    @property
    def text(self) -> str:
        return self.raw.decode("utf-8", errors="replace").replace("\r\n", "\n")

    @property
    def lines(self) -> list[str]:
        return self.text.split("\n")


async def _pump(proc: Any, out: Lines) -> None:
    with contextlib.suppress(Exception):
        while data := await proc.stdout.read(65536):
            out.raw += data


@pytest.mark.parametrize(("username", "term"), [("plain", "xterm-256color"), ("guest", "dumb")])
async def test_an_ssh_guest_in_plain_mode_plays_a_table_to_the_end_by_lines(
        host, door, username: str, term: str) -> None:
    table = host.lobby.create_table("toy", 3, {})
    host.lobby.add_bot(table, None, "heuristic")
    host.lobby.add_bot(table, None, "heuristic")
    conn = await login(door, host.room_code, username)
    async with conn:
        proc = await conn.create_process(term_type=term, term_size=(80, 24), encoding=None)
        out = Lines()
        reader = asyncio.create_task(_pump(proc, out))

        async def typed(line: str) -> None:
            proc.stdin.write(line.encode() + b"\r")

        try:
            await poll(lambda: "Your name at the table:" in out.text, 30, "the name question")
            session = next(iter(door.sessions))
            cmdline = Path(f"/proc/{session.process.pid}/cmdline").read_bytes().split(b"\0")
            assert b"--plain" in cmdline
            await typed("Lina")
            await poll(lambda: "You are Lina, not seated." in out.text, 30, "the lobby")
            await typed(f"sit {table}")
            await poll(lambda: f"seated at table {table}" in out.text, 15, "sitting down")
            await typed("start")
            await poll(lambda: host.lobby.tables[table].status == "playing", 15, "the start")
            seat = seat_of(host, table, "Lina")
            never_seen = secret_cards(host, table, seat)
            answered = 0
            for _ in range(200):  # bounded: the toy game is six turns
                if "is over." in out.text:
                    break
                lines = [line for line in out.lines if line.strip()]
                if len(lines) > answered and lines and NUMBERED.match(lines[-1]):
                    answered = len(lines) + 1
                    await typed("1")
                await asyncio.sleep(0.2)
            await poll(lambda: f"The game at table {table} is over." in out.text, 30,
                       "the results")
            await typed("quit")
            await asyncio.wait_for(proc.wait_closed(), 15)
        finally:
            reader.cancel()
    assert b"\x1b" not in out.raw  # lines only: no escape sequence reached the guest
    final = host.lobby.state_of(table)
    played = {c for p in final["played"] for c in p}
    drawn = set(final["hands"][seat])  # drawn from the pile since the deal: hers to know
    assert cards_in(out.text, never_seen - played - drawn) == set()
    await poll(lambda: not door.sessions, 10, "the session to end")
