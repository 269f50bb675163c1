"""The client's trust in a host: with a room code it insists on the host's proof, even from a
host that calls itself open, and it pins a new host key only after the host authenticated.

The impostor here is a real TLS server on 127.0.0.1 speaking the real handshake, with its own
key and without the room code.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import AsyncIterator

import pytest

from client.session import FingerprintMismatch, Session
from protocol import PROTOCOL_VERSION, frames, known_hosts, tls

pytestmark = [pytest.mark.timeout(60), pytest.mark.both_loops]  # the transport's own

CODE = "7K3QF-9XM2D"


@contextlib.asynccontextmanager
async def impostor(cfg, *, announce_open: bool, proof: bytes | None) -> AsyncIterator[int]:
    """A fake host: welcome (``open`` as given), then ``auth_ok`` with ``proof``, then a lobby.
    Yields its port."""
    cert, key = tls.ensure_host_cert(cfg)
    fingerprint = tls.fingerprint_of_pem(cert)

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(Exception):
            await frames.read_frame(reader, frames.PRE_AUTH_MAX)  # hello
            await frames.write_frame(writer, {
                "type": "welcome", "version": PROTOCOL_VERSION, "host_name": "Kitchen",
                "nonce": secrets.token_bytes(16), "fingerprint": fingerprint,
                "open": announce_open, "games": ["toy"]}, frames.PRE_AUTH_MAX)
            await frames.read_frame(reader, frames.PRE_AUTH_MAX)  # auth
            await frames.write_frame(writer, {"type": "auth_ok", "proof": proof},
                                     frames.PRE_AUTH_MAX)
            await frames.write_frame(writer, {"type": "lobby", "tables": [], "you": {
                "name": "ada", "table": None, "seat": None, "open": announce_open}},
                frames.POST_AUTH_MAX)
            await reader.read()
        writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0,
                                        ssl=tls.server_context(cert, key))
    try:
        yield server.sockets[0].getsockname()[1]
    finally:
        server.close()
        await server.wait_closed()


def pins(cfg) -> str:
    path = cfg / known_hosts.FILE
    return path.read_text() if path.exists() else ""


@pytest.mark.parametrize("proof", [None, b"\0" * 32], ids=["no proof", "wrong proof"])
async def test_a_host_announcing_itself_open_must_still_prove_the_code(dirs, proof) -> None:
    async with impostor(dirs["host_cfg"], announce_open=True, proof=proof) as port:
        with pytest.raises(FingerprintMismatch, match="could not prove it knows the room code"):
            s = await Session.connect("127.0.0.1", port, name="ada", code=CODE,
                                      config_dir=dirs["client"], accept_new=True, timeout=10)
            await s.aclose()
    assert pins(dirs["client"]) == ""


async def test_a_host_failing_the_proof_leaves_no_pin_behind(dirs) -> None:
    async with impostor(dirs["host_cfg"], announce_open=False, proof=b"\1" * 32) as port:
        with pytest.raises(FingerprintMismatch):
            await Session.connect("127.0.0.1", port, name="ada", code=CODE,
                                  config_dir=dirs["client"], accept_new=True, timeout=10)
    assert pins(dirs["client"]) == ""


async def test_a_confirmed_key_is_pinned_only_once_the_host_authenticated(host, dirs) -> None:
    asked: list[str] = []

    async def confirm(label: str, fingerprint: str) -> bool:
        asked.append(pins(dirs["client"]))  # nothing written while the user is asked
        return True

    s = await Session.connect("127.0.0.1", host.port, name="ada", code=host.room_code,
                              config_dir=dirs["client"], confirm_fingerprint=confirm)
    await s.aclose()
    assert asked == [""]
    assert pins(dirs["client"]) == f"127.0.0.1:{host.port} {host.fingerprint}\n"


async def test_an_open_host_proves_the_code_when_the_client_has_one(dirs) -> None:
    from host.server import Host

    h = Host("Open", dirs["host_cfg"], dirs["host_data"], open=True, games=["toy"],
             room_code=CODE)
    await h.start("127.0.0.1", 0)
    try:
        s = await Session.connect("127.0.0.1", h.port, name="ada", code=CODE,
                                  config_dir=dirs["client"], accept_new=True)
        assert s.host_open
        await s.aclose()
    finally:
        await h.stop()
