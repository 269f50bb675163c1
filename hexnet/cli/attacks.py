"""The hostile guests of ``hexnet drill --hostile`` (:mod:`hexnet.cli.hostile`): each one a
coroutine that attacks a host on 127.0.0.1 until ``stop`` is set, from loopback addresses of its
own, and counts what it did in a :class:`Tally`. They are what a stranger on the LAN — or a
player with the room code — could do to a host; nothing here is needed to play.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import ssl
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from client.session import BadRoomCode, HostBusy, ProtocolError, Session, SessionError
from protocol import auth, tls

Tally = Counter  # what an attacker did, by name ("slowloris opened", …)


async def slowloris(port: int, source: str, stop: asyncio.Event, tally: Tally) -> None:
    """One TLS connection to the web door sending a request head a byte a second (again when
    the door closes it)."""
    while not stop.is_set():
        writer = None
        try:
            reader, writer = await asyncio.wait_for(asyncio.open_connection(
                "127.0.0.1", port, ssl=tls.client_context(), local_addr=(source, 0)), 5)
            tally["slowloris opened"] += 1
            for byte in b"GET / HTTP/1.1\r\nHost: x\r\nX-a: " + b"a" * 500:
                writer.write(bytes([byte]))
                await writer.drain()
                with contextlib.suppress(TimeoutError):
                    if await asyncio.wait_for(reader.read(1), 1.0) == b"":
                        tally["slowloris closed by the door"] += 1
                        break
                if stop.is_set():
                    break
        except (OSError, ConnectionError, TimeoutError, ssl.SSLError):
            tally["slowloris refused"] += 1
            await asyncio.sleep(1.0)
        finally:
            if writer is not None:
                writer.close()


async def ssh_storm(port: int, source: str, stop: asyncio.Event, tally: Tally) -> None:
    """A key-only SSH login with a 1000×500 terminal that never types the room code and
    resizes its window 20 times every tenth of a second (again when closed)."""
    import asyncssh  # (hexnet[ssh]; the drill leaves this attack out without it)

    key = asyncssh.generate_private_key("ssh-ed25519")
    while not stop.is_set():
        try:
            async with await asyncio.wait_for(asyncssh.connect(
                    "127.0.0.1", port, username="guest", client_keys=[key], known_hosts=None,
                    agent_path=None, local_addr=(source, 0)), 10) as conn:
                proc = await conn.create_process(term_type="xterm", term_size=(1000, 500),
                                                 encoding=None)
                tally["ssh sessions"] += 1
                for i in itertools.count():
                    if stop.is_set() or proc.channel.is_closing():
                        break
                    for j in range(20):
                        proc.change_terminal_size(1000 - (i + j) % 700, 500 - (i + j) % 400)
                    tally["ssh window changes"] += 20
                    await asyncio.sleep(0.1)
        except (OSError, asyncssh.Error, TimeoutError):
            tally["ssh refused or closed"] += 1
            await asyncio.sleep(0.5)


async def wrong_codes(port: int, source: str, every: float, workdir: Path,
                      stop: asyncio.Event, tally: Tally) -> None:
    """Logins with a fresh key and a wrong room code, one every ``every`` seconds, from
    ``source`` (the honest player's own address)."""
    async def one(code: str) -> None:
        try:
            s = await Session.connect("127.0.0.1", port, name="guess", code=code,
                                      config_dir=workdir, identity_file=None, accept_new=True,
                                      local_address=source, timeout=30, busy_tries=1)
            await s.aclose()
            tally["wrong codes let in (!)"] += 1
        except BadRoomCode:
            tally["wrong codes refused"] += 1
        except HostBusy:  # (a flood does not try again: its next guess is a new login)
            tally["wrong codes told busy"] += 1
        except SessionError:
            tally["wrong codes dropped"] += 1

    tasks: set[asyncio.Task[None]] = set()
    while not stop.is_set():
        task = asyncio.ensure_future(one(auth.new_room_code()))  # (a wrong one, all but surely)
        tasks.add(task)
        task.add_done_callback(tasks.discard)
        tally["wrong codes sent"] += 1
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), every)
    for task in list(tasks):
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


async def throwaways(port: int, code: str, sources: list[str], each: int, workdir: Path,
                     tally: Tally) -> list[Session]:
    """``each`` fresh keys from every address of ``sources``: each logs in, asks for three
    tables and enters the tournament. The sessions that got in (kept open: they are what
    such a guest holds)."""
    sessions: list[Session] = []

    async def one(source: str, n: int) -> None:
        try:
            s = await Session.connect("127.0.0.1", port, name=f"x{n}", code=code,
                                      config_dir=workdir, identity_file=None, accept_new=True,
                                      local_address=source, timeout=30)
        except ProtocolError as exc:
            tally[f"throwaway keys refused ({exc.code})"] += 1
            return
        except SessionError as exc:
            tally[f"throwaway keys refused ({str(exc)[:60]})"] += 1
            return
        tally["throwaway keys in"] += 1
        sessions.append(s)
        for _ in range(3):
            await s.send({"type": "create", "game": "hranice", "seats": 4, "options": {}})
        await s.send({"type": "enter"})
        tally["tables asked for"] += 3

    async def from_address(n: int, source: str) -> None:  # five at a time from each
        for first in range(0, each, 5):
            await asyncio.gather(*(one(source, n * each + i)
                                   for i in range(first, min(each, first + 5))))

    await asyncio.gather(*(from_address(n, source) for n, source in enumerate(sources)))
    return sessions


FLOOD_KINDS = ("start", "add_bot", "sit", "leave/sit", "watch/sit", "chat", "empty chat",
               "act", "watch_rules", "look")


def flood_messages(kind: str, table: int, seat: int, state_id: int) -> list[dict[str, Any]]:
    """What a seated player sends, alternating, to flood with ``kind``."""
    return {
        "start": [{"type": "start", "table": table}],
        "add_bot": [{"type": "add_bot", "table": table, "seat": None, "policy": "heuristic"}],
        "sit": [{"type": "sit", "table": table, "seat": seat}],
        "leave/sit": [{"type": "leave"}, {"type": "sit", "table": table, "seat": seat}],
        "watch/sit": [{"type": "watch", "table": table},
                      {"type": "sit", "table": table, "seat": None}],
        "chat": [{"type": "chat", "text": "spam " * 50, "channel": "table"}],
        "empty chat": [{"type": "chat", "text": " ", "channel": "table"}],
        "act": [{"type": "act", "table": table, "state_id": max(0, state_id - 1),
                 "action": {"type": "pass"}}],
        "watch_rules": [{"type": "watch_rules", "table": table, "allowed": False},
                        {"type": "watch_rules", "table": table, "allowed": True}],
        "look": [{"type": "look", "on": True}, {"type": "look", "on": False}],
    }[kind]


async def seated_flood(connect: Callable[[], Any], attacker: Session, table: int,
                       state_id: int, stop: asyncio.Event, tally: Tally,
                       rate: float = 100.0, reconnect_every: float = 6.0) -> None:
    """A seated player (seat 0 of ``table``) floods every kind of request in turn, a second
    each at ``rate`` messages a second (within the host's message budget), and reconnects
    every ``reconnect_every`` seconds (``connect()`` makes a new session of the same key)."""
    began = last_reconnect = time.monotonic()
    sent, tick = 0, 0.05
    while not stop.is_set():
        now = time.monotonic()
        if now - last_reconnect >= reconnect_every:
            await attacker.aclose()
            attacker = await connect()
            tally["flood reconnects"] += 1
            last_reconnect = time.monotonic()
        kind = FLOOD_KINDS[int(now - began) % len(FLOOD_KINDS)]
        messages = flood_messages(kind, table, 0, state_id)
        try:  # a tick's worth at once: the rate holds however late the loop runs
            for _ in range(round(rate * tick)):
                await attacker.send(messages[sent % len(messages)])
                sent += 1
                tally[f"flood {kind}"] += 1
        except SessionError:
            attacker = await connect()
            continue
        await asyncio.sleep(tick)
    await attacker.aclose()


PONG = b"\x82\xa4type\xa4pong"  # how a ``pong`` frame's payload begins (the answer to its ping)


class FrameCount:
    """The frames a session receives, per second since ``since`` — the answers to its own
    pings aside: its connection's reader is wrapped (each frame is a 4-byte length, then its
    payload)."""

    def __init__(self, session: Session) -> None:
        self.since = time.monotonic()
        self.per_second: Counter[int] = Counter()
        self.bytes = 0
        reader = session._reader  # noqa: SLF001 - a drill measures what the wire carries
        real = reader.readexactly

        async def readexactly(n: int) -> bytes:
            data = await real(n)
            if n != 4 and not data.startswith(PONG):  # a payload, not its head
                self.bytes += 4 + len(data)
                self.per_second[int(time.monotonic() - self.since)] += 1
            return data

        reader.readexactly = readexactly  # type: ignore[method-assign]

    def start(self) -> None:
        """Count from now on only."""
        self.since, self.per_second, self.bytes = time.monotonic(), Counter(), 0

    @property
    def frames(self) -> int:
        return sum(self.per_second.values())


async def read_on(session: Session, stop: asyncio.Event) -> None:
    """Read what comes to ``session`` until ``stop`` (so its counter sees it)."""
    with contextlib.suppress(SessionError):
        while not stop.is_set():
            await session.next_message(0.5)
