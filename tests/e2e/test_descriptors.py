"""File descriptors (issue 23): the host raises its soft limit as far as the hard limit allows and
keeps a reserve for journals and the players already in; new unauthenticated connections are
refused first. A real ``hexnet host`` at 256 descriptors, its web door under slowloris and its
game port under idle sockets, stays under its limit, and a player with the code gets in within
2 s, creates a table and starts it (its journal is written)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import resource
import signal
import ssl
import subprocess
import sys
import time
from pathlib import Path

import pytest

from client.session import Session
from host import descriptors, limits
from protocol import tls
from tests.waiting import eventually

pytestmark = pytest.mark.timeout(120)
LIMIT = 256


def test_the_reserve_refuses_unauthenticated_connections_first() -> None:
    open_now = [100]
    budget = descriptors.Descriptors(limit=256, count=lambda: open_now[0])
    assert budget.reserve == 32 and budget.share() == (256 - 32 - 32) // 3
    assert budget.may_accept()
    open_now[0] = 256 - 32  # exactly the reserve left
    budget._at = -1.0  # (count again now)
    assert not budget.may_accept() and budget.refused == 1
    gate = limits.Gate(64, 16, descriptors=budget)
    assert gate.total == budget.share()
    assert gate.admit("10.0.0.1", 1) == "the host is short of file descriptors; new logins wait"
    assert gate.count == 0


def test_a_refusal_is_decided_on_a_fresh_count_not_on_connections_since_closed() -> None:
    """Connections kept since the last count are added to it until the next one; a flood of
    reconnects (each kept, each closed again) must not make the host refuse a player while
    most descriptors are free (seen: refused at ~110 of 256 open)."""
    now = [0.0]
    open_now = [110]
    budget = descriptors.Descriptors(limit=256, count=lambda: open_now[0],
                                     clock=lambda: now[0])
    kept = 0
    while budget.free() > budget.reserve:  # a burst within one count's trust
        assert budget.may_accept()
        kept += 1
    assert kept == 256 - 32 - 110  # the estimate is at the reserve...
    now[0] += descriptors.RECOUNT_EVERY  # ...while they have all gone again
    assert budget.may_accept() and budget.refused == 0  # a fresh count lets the next one in
    open_now[0] = 256 - 32  # truly at the reserve: refused
    now[0] += descriptors.COUNT_EVERY
    assert not budget.may_accept() and budget.refused == 1


def test_at_the_start_the_soft_limit_is_raised_as_far_as_the_hard_limit_allows() -> None:
    code = ("import resource; resource.setrlimit(resource.RLIMIT_NOFILE, (128, 300)); "
            "from host.descriptors import prepare; print(prepare(), "
            "resource.getrlimit(resource.RLIMIT_NOFILE))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=30, check=True)
    assert out.stdout.strip() == "(300, 300) (300, 300)"


def limited_host(tmp_path: Path, *flags: str) -> tuple[subprocess.Popen, Path]:
    """``hexnet host --headless`` in a child whose descriptor limit is LIMIT, soft and hard."""
    code = (f"import resource, sys; resource.setrlimit(resource.RLIMIT_NOFILE, ({LIMIT}, "
            f"{LIMIT})); from hexnet.cli import main; sys.exit(main(sys.argv[1:]))")
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "cfg"),
               XDG_DATA_HOME=str(tmp_path / "data"))
    log_path = tmp_path / "host.log"
    log = open(log_path, "w")  # noqa: SIM115 - the child holds it; closed with the test dir
    proc = subprocess.Popen([sys.executable, "-c", code, "host", "--headless", "--port", "0",
                             "--bind", "127.0.0.1", "--no-mdns", *flags],
                            stdout=log, stderr=subprocess.STDOUT, env=env)
    log.close()
    return proc, log_path


def stop(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


def open_fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


class Flood:
    """What the attackers share: which of them have tried to connect once, and whether the
    flood is over (each stops at its next step: a cancellation alone can be lost in
    ``asyncio.wait_for`` before Python 3.12)."""

    def __init__(self) -> None:
        self.tried: set[int] = set()
        self.over = False


async def slowloris(port: int, source: str, flood: Flood, n: int) -> None:
    """One TLS connection sending a request head a byte a second, again when closed, until
    the flood is over."""
    while not flood.over:
        writer = None
        try:
            try:
                reader, writer = await asyncio.wait_for(asyncio.open_connection(
                    "127.0.0.1", port, ssl=tls.client_context(), local_addr=(source, 0)), 5)
            finally:
                flood.tried.add(n)
            for byte in b"GET / HTTP/1.1\r\nHost: x\r\nX-a: " + b"a" * 200:
                writer.write(bytes([byte]))
                await writer.drain()
                with contextlib.suppress(TimeoutError):
                    if await asyncio.wait_for(reader.read(1), 1.0) == b"":
                        break
                if flood.over:
                    break
        except (OSError, ConnectionError, TimeoutError, ssl.SSLError):
            await asyncio.sleep(0.2)
        finally:
            if writer is not None:
                writer.close()


async def idle_socket(port: int, source: str, flood: Flood, n: int) -> None:
    """A TCP connection to the game port that never says anything, again when closed, until
    the flood is over."""
    while not flood.over:
        writer = None
        try:
            try:
                reader, writer = await asyncio.wait_for(asyncio.open_connection(
                    "127.0.0.1", port, local_addr=(source, 0)), 5)
            finally:
                flood.tried.add(n)
            while not flood.over:
                with contextlib.suppress(TimeoutError):
                    if await asyncio.wait_for(reader.read(1), 1.0) == b"":
                        break
        except (OSError, ConnectionError, TimeoutError):
            await asyncio.sleep(0.2)
        finally:
            if writer is not None:
                writer.close()


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="counts descriptors in /proc")
async def test_a_host_at_256_descriptors_under_attack_stays_under_its_limit_and_lets_players_in(
        tmp_path) -> None:
    if resource.getrlimit(resource.RLIMIT_NOFILE)[0] < 2048:
        pytest.skip("the attacking test process needs 2048 descriptors")
    proc, log_path = limited_host(tmp_path, "--web", "0")
    try:
        text = ""
        for _ in range(300):
            text = log_path.read_text()
            if "ready on" in text:
                break
            assert proc.poll() is None, text
            await asyncio.sleep(0.1)
        game_port = int(re.search(r"ready on 127\.0\.0\.1:(\d+)", text).group(1))
        web_port = int(re.search(r"web: open https://127\.0\.0\.1:(\d+)", text).group(1))
        code = re.search(r"room code (\S+)", text).group(1)
        flood = Flood()  # it lasts until the players are through, however long they take
        attack = [asyncio.ensure_future(slowloris(web_port, f"127.0.9.{i % 25 + 1}", flood, i))
                  for i in range(300)]
        attack += [asyncio.ensure_future(idle_socket(game_port, f"127.0.10.{i % 10 + 1}",
                                                     flood, 300 + i)) for i in range(150)]
        most, took = 0, []
        try:
            # the flood at its height: every attacker has connected (or been turned away) once
            await eventually(lambda: len(flood.tried) == len(attack), "every attacker's try")
            most = max(most, open_fds(proc.pid))
            for n in range(3):
                began = time.monotonic()
                player = await Session.connect("127.0.0.1", game_port, name=f"ada{n}", code=code,
                                               config_dir=tmp_path / f"ada{n}", accept_new=True)
                took.append(time.monotonic() - began)
                try:
                    await player.send({"type": "create", "game": "hranice", "seats": 2,
                                       "options": {}})
                    while player.you.get("table") is None:
                        await player.next_message(5)
                    table = int(player.you["table"])
                    await player.send({"type": "add_bot", "table": table, "seat": 1,
                                       "policy": "random"})
                    await player.send({"type": "start", "table": table})
                    for _ in range(50):
                        if player.views.get(table) is not None:
                            break
                        await player.next_message(1)
                    assert player.views.get(table) is not None
                finally:
                    await player.aclose()
                most = max(most, open_fds(proc.pid))
                await asyncio.sleep(1)
        finally:
            flood.over = True
            for task in attack:
                task.cancel()
            await asyncio.gather(*attack, return_exceptions=True)
        journals = list((tmp_path / "data" / "hexnet" / "journals").glob("*.journal"))
        assert len(journals) == 3
        assert most < LIMIT and max(took) < 5.0, (most, took)
        text = log_path.read_text()
        assert "Too many open files" not in text and "internal error" not in text, text[-3000:]
    finally:
        stop(proc)
