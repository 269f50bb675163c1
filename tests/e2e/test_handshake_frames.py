"""Nothing meant for after the handshake goes on a connection still shaking hands: a client that
gives up on a host (a key that differs from its pin) leaves without a word — its goodbye would
reach the host where a hello belongs, and the host's log would say "refused …: unexpected"
instead of nothing — and a secret step's slots do not run into the handshake of a reconnect
(real hosts and real TLS on 127.0.0.1)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from client.session import FingerprintMismatch, Session
from host.server import Host
from protocol import frames, known_hosts, tls
from tests.waiting import eventually

pytestmark = pytest.mark.timeout(60)


async def test_a_client_refusing_the_hosts_key_sends_it_nothing(dirs) -> None:
    """A port used before by another host (its key pinned, as a reused port leaves it): the
    client refuses this host's key and closes; the host sees a connection end, no message."""
    said: list[str] = []
    host = Host("Kitchen", dirs["host_cfg"], dirs["host_data"], games=["toy"], mdns=False,
                log=said.append)
    await host.start("127.0.0.1", 0)
    try:
        known_hosts.KnownHosts(dirs["client"] / known_hosts.FILE).add(
            known_hosts.label("127.0.0.1", host.port), "ab" * 32)  # the earlier host's key
        with pytest.raises(FingerprintMismatch):
            await Session.connect("127.0.0.1", host.port, name="Ada", code=host.room_code,
                                  config_dir=dirs["client"], accept_new=True, timeout=10)
        await eventually(lambda: not host.reception.handlers, "the host done with the login")
        assert [line for line in said if "refused" in line] == []
    finally:
        await host.stop()


@contextlib.asynccontextmanager
async def silent_host(cfg: Path, port: int) -> AsyncIterator[list[dict[str, Any]]]:
    """The host's door after a restart, slow to answer: its key on ``port``, every frame a
    client sends recorded (never a welcome: the client stays in its handshake)."""
    cert, key = tls.ensure_host_cert(cfg)
    got: list[dict[str, Any]] = []

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(Exception):
            while True:
                got.append(await frames.read_frame(reader, frames.PRE_AUTH_MAX))
        writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", port,
                                        ssl=tls.server_context(cert, key))
    try:
        yield got
    finally:
        server.close()
        await server.wait_closed()


async def test_a_secret_steps_slot_never_goes_into_the_handshake_of_a_reconnect(dirs) -> None:
    """Ada's table is in a secret step when her connection goes; while she logs in again (the
    hello sent, the welcome not yet come) the step's clock comes to a slot: it must not be
    written on that connection — the host would read a cover where the auth belongs and refuse
    her. The slot waits for the session to be back (the first frame then restarts the clock)."""
    host = Host("Kitchen", dirs["host_cfg"], dirs["host_data"], games=["toy"], mdns=False)
    await host.start("127.0.0.1", 0)
    port = host.port
    ada = await Session.connect("127.0.0.1", port, name="Ada", code=host.room_code,
                                config_dir=dirs["client"], accept_new=True, reconnect=True)
    try:
        await host.stop()  # the connection goes; Ada dials again
        async with silent_host(dirs["host_cfg"], port) as got:
            await eventually(lambda: [f["type"] for f in got] == ["hello"],
                             "Ada's hello to the host again")
            assert ada.slots.frame(7, {"key": "s1", "every": 0.05}) == []  # a step's clock
            step = ada.slots.steps[7]
            await eventually(lambda: (step.task is not None and step.task.done())
                             or len(got) > 1, "the slot's turn")
            assert [f["type"] for f in got] == ["hello"]
            assert ada.slots.sent == 0
    finally:
        ada.close()
