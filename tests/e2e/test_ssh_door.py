"""``hexnet host --ssh``: a real SSH server (asyncssh) on 127.0.0.1 whose only program is the
hexnet client, driven by an asyncssh client and by OpenSSH's ``ssh`` in tmux."""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

asyncssh = pytest.importorskip("asyncssh", reason="needs hexnet[ssh] (asyncssh)")

from host.ssh import SSHDoor, code_matches  # noqa: E402
from tests.e2e.frontdoor import (  # noqa: E402
    Screen,
    cards_in,
    door_fixture,
    play_to_the_end,
    poll,
    seat_of,
    secret_cards,
)

pytestmark = pytest.mark.timeout(180)
class CodeTyper(asyncssh.SSHClient):
    """Answers keyboard-interactive prompts with ``code``; counts the prompts."""

    def __init__(self, code: str) -> None:
        self.code = code
        self.prompts: list[str] = []

    def kbdint_auth_requested(self) -> str:
        return ""

    def kbdint_challenge_received(self, name: str, instructions: str, lang: str,
                                  prompts: list[tuple[str, bool]]) -> list[str]:
        self.prompts += [p for p, _ in prompts]
        return [self.code] * len(prompts)


# The SSH door of the e2e ``host`` (code required), on 127.0.0.1, any free port.
door = door_fixture(lambda host: SSHDoor(host, bind="127.0.0.1", port=0))


async def login(door: SSHDoor, code: str, **kwargs: Any) -> tuple[Any, CodeTyper]:
    """An SSH connection to ``door`` typing ``code``, pinned to the door's host key."""
    typer = CodeTyper(code)
    conn = await asyncssh.connect(
        "127.0.0.1", door.port, username="guest", client_factory=lambda: typer,
        known_hosts=([door.host_key.convert_to_public()], [], []), agent_path=None,
        **({"client_keys": None} | kwargs))
    return conn, typer


def test_a_room_code_is_compared_as_the_game_port_does() -> None:
    assert code_matches("abcde fghjk", "ABCDE-FGHJK")
    assert not code_matches("ABCDE-FGHJM", "ABCDE-FGHJK")
    assert not code_matches("", "ABCDE-FGHJK")


async def test_the_ssh_host_key_is_the_hosts_tls_key(host, door) -> None:
    from cryptography.hazmat.primitives import serialization

    tls_public = serialization.load_pem_private_key(
        host.key_path.read_bytes(), None).public_key().public_bytes(
        serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH)
    assert door.host_key.export_public_key("openssh").split()[:2] == tls_public.split()[:2]
    assert door.fingerprint.startswith("SHA256:")


async def test_a_wrong_room_code_is_refused_and_the_connection_closed(host, door) -> None:
    with pytest.raises(asyncssh.PermissionDenied):
        await login(door, "WRONG-CODES")
    assert host.connections == {}
    # the back-off slows a guesser but never locks the address out: the right code gets in
    conn, typer = await login(door, host.room_code)
    async with conn:
        assert typer.prompts == ["Room code: "]


async def test_exec_subsystem_shell_without_terminal_and_forwarding_are_refused(
        host, door) -> None:
    conn, typer = await login(door, host.room_code)
    async with conn:
        assert typer.prompts == ["Room code: "]
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.create_process("id")  # exec
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.create_process()  # a shell without a terminal
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.start_sftp_client()  # a subsystem
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.open_connection("127.0.0.1", host.port)  # local port forwarding
        with pytest.raises(asyncssh.ChannelListenError):
            await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", host.port)
        assert door.sessions == set()  # no client was started for any of them
    assert host.connections == {}


async def test_a_shell_request_with_a_terminal_runs_the_client_and_nothing_else(
        host, door) -> None:
    conn, _ = await login(door, host.room_code)
    async with conn:
        proc = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
        out = Screen(80, 24)
        reader = asyncio.create_task(_pump(proc, out))
        try:
            await poll(lambda: "Your name at the table" in out.text, 30, "the name screen")
            session = next(iter(door.sessions))
            assert session.process is not None
            cmdline = Path(f"/proc/{session.process.pid}/cmdline").read_bytes().split(b"\0")
            assert cmdline[1:3] == [b"-m", b"client.guest"]
            proc.stdin.write(b"\x11")  # Ctrl+Q: the client quits, and the session with it
            await asyncio.wait_for(proc.wait_closed(), 15)
        finally:
            reader.cancel()
    await poll(lambda: not door.sessions, 10, "the session to end")


async def _pump(proc: Any, out: Screen) -> None:
    with contextlib.suppress(Exception):
        while data := await proc.stdout.read(65536):
            out.feed(data)


@contextlib.asynccontextmanager
async def terminal(conn: Any, size: tuple[int, int] = (80, 24)) -> AsyncIterator[tuple[Any,
                                                                                     Screen]]:
    """A terminal session on ``conn`` (``size`` asked for) and what it shows at 80×24."""
    proc = await conn.create_process(term_type="xterm", term_size=size, encoding=None)
    out = Screen(80, 24)
    reader = asyncio.create_task(_pump(proc, out))
    try:
        yield proc, out
    finally:
        reader.cancel()


async def test_an_ssh_guest_plays_a_bot_table_to_the_end_seeing_only_its_hand(
        host, door) -> None:
    table = host.lobby.create_table("toy", 3, {})
    host.lobby.add_bot(table, None, "heuristic")
    host.lobby.add_bot(table, None, "heuristic")
    conn, _ = await login(door, host.room_code)
    async with conn:
        proc = await conn.create_process(term_type="xterm-256color", term_size=(100, 30),
                                         encoding=None)
        out = Screen(100, 30)
        reader = asyncio.create_task(_pump(proc, out))

        async def send(keys: str) -> None:
            proc.stdin.write(keys.encode())

        try:
            await poll(lambda: "Your name at the table" in out.text, 30, "the name screen")
            await send("Sshira\r")
            await poll(lambda: "You are Sshira" in out.text, 30, "the lobby")
            await send("s")  # sit at the highlighted (only) table
            await poll(lambda: "seated at table" in out.screen(), 15, "sitting down")
            await send("g")  # start
            await poll(lambda: host.lobby.tables[table].status == "playing", 15, "the start")
            seat = seat_of(host, table, "Sshira")
            hand = set(host.lobby.state_of(table)["hands"][seat])
            await poll(lambda: cards_in(out.text, hand) == hand, 15, "the guest's own hand")
            never_seen = secret_cards(host, table, seat)
            moves = await play_to_the_end(host, table, out.screen, send)
            await poll(lambda: "Game over" in out.text, 15, "the results screen")
        finally:
            reader.cancel()
    assert moves >= 2  # two rounds: at least one move of the guest's each
    played = {c for p in host.lobby.state_of(table)["played"] for c in p}
    # What stayed hidden to the end (the bots' unplayed cards, the pile) never reached the guest.
    assert cards_in(out.text, never_seen - played) == set()


# -- OpenSSH's ssh, in a real terminal (tmux) ------------------------------------------------

needs_openssh = pytest.mark.needs("ssh", "ssh-keygen", "tmux")  # (openssh-client, tmux)


class Tmux:
    """One tmux server on its own socket, one window of ``cols``×``rows``. (The socket's name
    is made unique: every tmux of the user shares one directory, whoever runs which suite.)"""

    def __init__(self, name: str, cols: int = 80, rows: int = 24) -> None:
        self.socket = f"{name}-{uuid.uuid4().hex[:8]}"
        self.cols, self.rows = cols, rows
        self.started = False

    def run(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], check=True, timeout=10,
                              capture_output=True, text=True).stdout

    def start(self, command: str) -> None:
        if self.started:
            self.run("respawn-pane", "-k", command)
        else:
            self.run("new-session", "-d", "-x", str(self.cols), "-y", str(self.rows),
                     "-e", "TERM=xterm", command)
            self.run("set-option", "remain-on-exit", "on")
            self.started = True

    def screen(self) -> str:
        return self.run("capture-pane", "-p")

    async def keys(self, text: str) -> None:
        self.run("send-keys", "-l", text)

    def kill(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], timeout=10,
                       capture_output=True)


@needs_openssh
async def test_openssh_with_a_key_plays_and_the_same_key_gets_its_seat_back(
        host, door, tmp_path) -> None:
    key = tmp_path / "id_ed25519"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)],
                   check=True, timeout=30)
    known = tmp_path / "known_hosts"
    known.write_text(f"[127.0.0.1]:{door.port} "
                     f"{door.host_key.export_public_key('openssh').decode().strip()}\n")
    ssh = (f"ssh -t -p {door.port} -i {key} -o IdentitiesOnly=yes -o IdentityAgent=none "
           f"-o UserKnownHostsFile={known} -o StrictHostKeyChecking=yes "
           f"-o PreferredAuthentications=publickey -o BatchMode=yes guest@127.0.0.1")
    table = host.lobby.create_table("toy", 2, {})
    host.lobby.add_bot(table, None, "heuristic")
    tmux = Tmux(f"hexnet-sshdoor-{tmp_path.name[-12:]}")
    try:
        tmux.start(ssh)
        # The key is accepted (no login prompt); a key without a seat still needs the code,
        # which the door asks for before it starts a client.
        await poll(lambda: "Room code:" in tmux.screen(), 30, "the door's code prompt")
        assert next(iter(door.sessions)).process is None  # no client before the code
        await tmux.keys(host.room_code + "\r")
        await poll(lambda: "Your name at the table" in tmux.screen(), 30, "the name screen")
        await tmux.keys("Okey\r")
        await poll(lambda: "You are Okey" in tmux.screen(), 30, "the lobby")
        await tmux.keys("s")
        await poll(lambda: "seated at table" in tmux.screen(), 15, "sitting down")
        await tmux.keys("g")
        await poll(lambda: host.lobby.tables[table].status == "playing", 15, "the start")
        seat = seat_of(host, table, "Okey")
        identity = host.lobby.tables[table].seats[seat].identity

        # The guest's connection drops (ssh's escape: ~.); the same key comes back.
        await tmux.keys("\r~.")
        await poll(lambda: not door.sessions, 15, "the first session to end")
        tmux.start(ssh)
        await poll(lambda: f"toy #{table}" in tmux.screen(), 30, "the table again, with no prompts")
        assert host.lobby.tables[table].seats[seat].identity == identity
        assert "Room code" not in tmux.screen() and "Your name" not in tmux.screen()
        moves = await play_to_the_end(host, table, tmux.screen, tmux.keys)
        await poll(lambda: "Game over" in tmux.screen(), 15, "the results screen")
        assert moves >= 1
    finally:
        tmux.kill()


async def _guest_identity(door: SSHDoor, conn: Any) -> bytes:
    """The hexnet identity the door gave the client of a terminal session on ``conn`` (the
    room code typed first where the door asks for it)."""
    proc = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
    out = Screen(80, 24)
    reader = asyncio.create_task(_pump(proc, out))
    try:
        await poll(lambda: "Your name at the table" in out.text or "Room code: " in out.text,
                   30, "the name screen or the door's code prompt")
        if "Room code: " in out.text:
            assert not door.sessions or next(iter(door.sessions)).process is None
            proc.stdin.write(door.host.room_code.encode() + b"\r")
        await poll(lambda: "Your name at the table" in out.text, 30, "the name screen")
        session = next(iter(door.sessions))
        assert session.guest is not None
        public = session.guest.public
        proc.stdin.write(b"\x11")  # Ctrl+Q
        await asyncio.wait_for(proc.wait_closed(), 15)
    finally:
        reader.cancel()
    await poll(lambda: not door.sessions, 10, "the session to end")
    return public


async def test_a_key_is_the_same_identity_every_time_and_no_key_a_fresh_one(
        host, door) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")
    with_key = []
    for _ in range(2):
        conn, typer = await login(door, "unused", client_keys=[key])
        async with conn:
            assert typer.prompts == []  # the key alone lets it in
            with_key.append(await _guest_identity(door, conn))
    without = []
    for _ in range(2):
        conn, typer = await login(door, host.room_code)
        async with conn:
            assert typer.prompts == ["Room code: "]
            without.append(await _guest_identity(door, conn))
    other_key = asyncssh.generate_private_key("ssh-ed25519")
    conn, _ = await login(door, "unused", client_keys=[other_key])
    async with conn:
        other = await _guest_identity(door, conn)
    assert with_key[0] == with_key[1]
    assert len({with_key[0], without[0], without[1], other}) == 4


async def test_sessions_per_address_are_capped_and_an_idle_session_is_closed(host) -> None:
    from host import guests

    door = SSHDoor(host, bind="127.0.0.1", port=0,
                   caps=guests.SessionCaps(total=8, per_address=1), idle_after=3.0)
    await door.start()
    try:
        conn, _ = await login(door, host.room_code)
        async with conn, terminal(conn) as (proc, out):
            await poll(lambda: "Your name at the table" in out.text, 30, "the name screen")
            session = next(iter(door.sessions))
            assert door.caps.live == {"127.0.0.1": 1}
            second, _ = await login(door, host.room_code)  # a second from 127.0.0.1
            async with second:
                refused = await second.create_process(term_type="xterm", encoding=None)
                said = await asyncio.wait_for(refused.stdout.read(), 15)
                assert b"hexnet: too many sessions from 127.0.0.1" in said
            assert door.caps.live == {"127.0.0.1": 1}
            # Nothing typed: after 3 s the session closes and its client process is gone.
            await asyncio.wait_for(proc.wait_closed(), 30)
            await poll(lambda: not door.sessions, 15, "the idle session to end")
            assert session.process is not None and session.process.returncode is not None
        await poll(lambda: door.caps.live == {}, 15, "the connection to be uncounted")
    finally:
        await door.stop()


async def test_a_key_without_a_seat_gets_no_client_process_before_the_room_code(
        host, door) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")
    conn, typer = await login(door, "unused", client_keys=[key])
    assert typer.prompts == []  # the key alone passes the SSH login…
    async with conn, terminal(conn, (1000, 500)) as (proc, out):
        await poll(lambda: "Room code:" in out.text, 15, "the door's code prompt")
        session = next(iter(door.sessions))
        for n, typed in enumerate((b"AAAAA-AAAAA\r", b"not a code\r"), 1):
            proc.stdin.write(typed)
            await poll(lambda n=n: out.text.count("Room code:") > n, 10, "the next prompt")
        assert session.process is None and session.guest is None  # …but gets no client
        proc.stdin.write(b"BBBBB-BBBBB\r")  # the third wrong code ends the connection
        await asyncio.wait_for(proc.wait_closed(), 15)
    await poll(lambda: not door.sessions and not door.connections, 15, "the connection to end")
    assert session.process is None


async def test_a_resize_storm_reaches_the_client_coalesced_and_capped(host, door) -> None:
    import fcntl
    import struct
    import termios

    from host import guests

    conn, _ = await login(door, host.room_code)
    async with conn, terminal(conn, (1000, 500)) as (proc, _out):
        try:
            await poll(lambda: door.sessions and next(iter(door.sessions)).master is not None,
                       30, "the client's terminal")
            session = next(iter(door.sessions))

            def size() -> tuple[int, int]:
                rows, cols, _, _ = struct.unpack("HHHH", fcntl.ioctl(
                    session.master, termios.TIOCGWINSZ, b"\0" * 8))
                return cols, rows

            assert size() == (guests.MAX_COLS, guests.MAX_ROWS)
            before = door.resizes
            for i in range(400):  # a storm: 400 window changes at once
                proc.change_terminal_size(1000 - i, 500 - i % 300)
            proc.change_terminal_size(120, 40)
            # the storm's last change is on the terminal, so the door has received every
            # change before it; with none left to pass on, the count below is final
            await poll(lambda: size() == (120, 40), 10, "the last size")
            assert session._resize is None  # (no window change pending)
            assert door.resizes - before <= 3  # coalesced: the storm came as one or two
            assert size() == (120, 40)
        finally:
            proc.stdin.write(b"\x11")


async def test_key_logins_waiting_at_the_code_prompt_never_keep_a_neighbour_out(
        host, door) -> None:
    from host import ssh

    idle = []  # key-only logins from 127.0.0.1 that sit at the door's prompt, typing nothing
    for _ in range(ssh.MAX_LOGINS_PER_ADDRESS + 2):
        conn, _ = await login(door, "unused",
                              client_keys=[asyncssh.generate_private_key("ssh-ed25519")])
        proc = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
        idle.append((conn, proc))
    try:
        await poll(lambda: door.logins.by_address.get("127.0.0.1")
                   == ssh.MAX_LOGINS_PER_ADDRESS, 15, "the logins of 127.0.0.1 at their cap")
        conn, typer = await login(door, host.room_code)  # the neighbour, same address
        assert typer.prompts == ["Room code: "]
        async with conn, terminal(conn) as (proc, out):
            await poll(lambda: "Your name at the table" in out.text, 30, "the name screen")
            proc.stdin.write(b"\x11")
        assert door.logins.by_address.get("127.0.0.1", 0) <= ssh.MAX_LOGINS_PER_ADDRESS
    finally:
        for c, _ in idle:
            c.close()


class SecondTry(CodeTyper):
    """Types a wrong code, then the right one; keeps what each challenge said and echoed."""

    def __init__(self, codes: list[str]) -> None:
        super().__init__("")
        self.codes = list(codes)
        self.said: list[tuple[str, list[tuple[str, bool]]]] = []

    def kbdint_challenge_received(self, name: str, instructions: str, lang: str,
                                  prompts: list[tuple[str, bool]]) -> list[str]:
        self.said.append((instructions, list(prompts)))
        return [self.codes.pop(0) for _ in prompts]


async def test_the_room_code_is_not_echoed_and_a_wrong_one_is_said_so(host, door) -> None:
    """Issue 26, item 5: the code is a secret (typed unseen, like a password) and a wrong one
    is answered in words, with the tries left, not by the same prompt again."""
    typer = SecondTry(["WRONG-CODES", host.room_code])
    conn = await asyncssh.connect(
        "127.0.0.1", door.port, username="guest", client_factory=lambda: typer,
        known_hosts=([door.host_key.convert_to_public()], [], []), agent_path=None,
        client_keys=None)
    async with conn:
        assert typer.said == [
            ("Test host: type the room code its screen shows.", [("Room code: ", False)]),
            ("That is not the room code of Test host (2 tries left): type the code its screen "
             "shows.", [("Room code: ", False)])]


async def test_a_guest_whose_address_floods_codes_is_asked_again_not_sent_away(host,
                                                                               door) -> None:
    # four waiting attempts of a guesser (its own next check 30 s away) hold the line of
    # 127.0.0.1's room codes: the guest's code is told "busy" in words and asked for again —
    # not counted as a wrong one, not the connection closed (before: "too many room codes at
    # once", and out) — and gets in once the line has moved
    limiter, guesser = door.rate_limiter, b"g" * 32
    for _ in range(20):
        limiter.fail(guesser, "10.0.0.9")
    held = True
    line = [asyncio.ensure_future(limiter.check(guesser, "127.0.0.1", lambda: False,
                                                gone=lambda: not held)) for _ in range(4)]
    await poll(lambda: limiter.waiting("127.0.0.1") == 4, 10, "the line full")

    class Patient(CodeTyper):
        def __init__(self) -> None:
            super().__init__(host.room_code)
            self.said: list[str] = []

        def kbdint_challenge_received(self, name: str, instructions: str, lang: str,
                                      prompts: list[tuple[str, bool]]) -> list[str]:
            nonlocal held
            self.said.append(instructions)
            held = len(self.said) < 2  # the flood is over once the guest is asked again
            return [self.code for _ in prompts]

    typer = Patient()
    conn = await asyncssh.connect(
        "127.0.0.1", door.port, username="guest", client_factory=lambda: typer,
        known_hosts=([door.host_key.convert_to_public()], [], []), agent_path=None,
        client_keys=None)
    async with conn:
        busy = ("Test host is checking too many room codes from your address at once; type "
                "the code again in 1 s.")
        assert typer.said[0] == "Test host: type the room code its screen shows."
        assert len(typer.said) >= 2 and set(typer.said[1:]) == {busy}
    assert [verdict for verdict, _ in await asyncio.gather(*line)] == ["gone"] * 4
