"""Refusals over the real network: each gets the expected error, the host serves others."""

from __future__ import annotations

import asyncio
import struct

import msgpack
import pytest

from client.session import (
    BadRoomCode,
    ConnectionLost,
    FingerprintMismatch,
    HostNotTrusted,
    RateLimited,
    Session,
)
from protocol import frames
from tests.waiting import eventually

pytestmark = [pytest.mark.timeout(60), pytest.mark.both_loops]  # the transport's own


async def connect(host, cfg, name="ada", **kw) -> Session:
    kw.setdefault("code", host.room_code)
    kw.setdefault("accept_new", True)
    return await Session.connect("127.0.0.1", host.port, name=name, config_dir=cfg, **kw)


async def next_of(session: Session, kind: str, seconds: float = 5.0) -> dict:
    async def go() -> dict:
        async for msg in session.messages():
            if msg["type"] == kind:
                return msg
        raise AssertionError("closed")
    return await asyncio.wait_for(go(), seconds)


async def my_table(session: Session) -> int:
    """Wait for a lobby that seats ``session`` at a table; its id."""
    for _ in range(20):
        msg = await next_of(session, "lobby")
        if msg["you"]["table"] is not None:
            return msg["you"]["table"]
    raise AssertionError("never seated")


async def still_serving(host, cfg) -> None:
    """A fresh client connects, and its chat comes back to it."""
    s = await connect(host, cfg, name="witness", identity_file="witness.pem")
    try:
        await s.send({"type": "chat", "text": "still here?", "channel": "lobby"})
        msg = await next_of(s, "chat")
        assert msg["text"] == "still here?"
    finally:
        await s.aclose()


async def test_valid_code_enters_the_lobby_and_host_proves_the_code_back(host, dirs) -> None:
    s = await connect(host, dirs["client"])
    assert s.lobby["you"]["name"] == "ada" and s.host_fingerprint == host.fingerprint
    assert s.host_name == "Test host"
    await s.aclose()


async def test_plaintext_connection_is_refused(host, dirs) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", host.port)
    writer.write(frames.encode({"type": "hello", "version": 1, "name": "x",
                                "nonce": b"n" * 16, "identity": b"i" * 32}))
    await writer.drain()
    data = await asyncio.wait_for(reader.read(4096), 10)
    assert b"welcome" not in data and b"hexnet" not in data  # at most a TLS alert, then EOF
    writer.close()
    await still_serving(host, dirs["client"])


async def test_client_pinned_to_another_fingerprint_is_refused(host, dirs) -> None:
    with pytest.raises(FingerprintMismatch, match="not the fingerprint you gave"):
        await connect(host, dirs["client"], pinned_fingerprint="00" * 32)
    assert not (dirs["client"] / "known_hosts").exists()
    await still_serving(host, dirs["client2"])


async def test_changed_host_key_is_refused_loudly_and_not_repinned(host, dirs) -> None:
    kh = dirs["client"] / "known_hosts"
    kh.write_text(f"127.0.0.1:{host.port} {'11' * 32}\n")
    with pytest.raises(FingerprintMismatch, match="HAS CHANGED"):
        await connect(host, dirs["client"])
    assert kh.read_text() == f"127.0.0.1:{host.port} {'11' * 32}\n"


async def test_first_contact_asks_and_a_no_is_respected(host, dirs) -> None:
    seen = []

    async def confirm(label: str, human: str) -> bool:
        seen.append((label, human))
        return False

    with pytest.raises(HostNotTrusted):
        await connect(host, dirs["client"], accept_new=False, confirm_fingerprint=confirm)
    assert seen == [(f"127.0.0.1:{host.port}", host.fingerprint_human)]

    async def yes(label: str, human: str) -> bool:
        return True

    s = await connect(host, dirs["client"], accept_new=False, confirm_fingerprint=yes)
    await s.aclose()
    assert host.fingerprint in (dirs["client"] / "known_hosts").read_text()


async def test_wrong_codes_are_refused_and_the_right_one_from_that_address_still_gets_in(
        host, dirs) -> None:
    wrong = "00000-00000" if host.room_code != "00000-00000" else "11111-11111"
    for _ in range(6):
        with pytest.raises(BadRoomCode) as info:
            await connect(host, dirs["client"], code=wrong)
        assert not isinstance(info.value, RateLimited)
    # a neighbour behind the same address, and then the mistyper themself, with the right code
    s = await connect(host, dirs["client2"], name="neighbour")
    await s.aclose()
    s = await connect(host, dirs["client"], code=host.room_code)
    await s.aclose()
    await still_serving(host, dirs["client2"])


async def test_an_identity_that_keeps_guessing_is_told_when_to_come_back(host, dirs) -> None:
    wrong = "00000-00000" if host.room_code != "00000-00000" else "11111-11111"
    refusals = []
    for _ in range(12):
        try:
            await connect(host, dirs["client"], code=wrong, timeout=30)
        except BadRoomCode as exc:
            refusals.append(exc)
            if isinstance(exc, RateLimited):
                break
    # three free tries, then waits of 0.25, 0.5, 1, 2, 4 s; the ninth would wait 8 s
    assert len(refusals) == 9 and isinstance(refusals[-1], RateLimited)
    assert str(refusals[-1]).startswith("Too many wrong room codes from you; try again in")


async def test_missing_code_is_refused_unless_the_identity_holds_a_seat(host, dirs) -> None:
    with pytest.raises(BadRoomCode, match="needs its room code"):
        await connect(host, dirs["client"], code=None)
    s = await connect(host, dirs["client"])
    await s.send({"type": "create", "game": "toy", "seats": 2, "options": {}})
    await my_table(s)
    await s.aclose()
    again = await connect(host, dirs["client"], code=None)
    assert again.you["seat"] == 0
    await again.aclose()


async def test_stale_action_is_rejected_and_others_play_on(host, dirs) -> None:
    a = await connect(host, dirs["client"], name="a")
    b = await connect(host, dirs["client2"], name="b")
    await a.send({"type": "create", "game": "toy", "seats": 2, "options": {}})
    tid = await my_table(a)
    await b.send({"type": "sit", "table": tid, "seat": None})
    assert await my_table(b) == tid
    await a.send({"type": "start", "table": tid})
    view = await next_of(a, "view")
    sid, version = view["view"]["state_id"], host.lobby.tables[tid].version
    await a.send({"type": "act", "table": tid, "state_id": sid + 5,
                  "action": {"type": "pass"}})
    rej = await next_of(a, "rejected")
    assert rej["code"] == "stale" and host.lobby.tables[tid].version == version
    # (the refusal rode in a burst to both seats: one publication, the state id the seats see)
    await a.send({"type": "act", "table": tid, "state_id": sid, "action": {"type": "pass"}})
    for _ in range(5):
        got = (await next_of(b, "view"))["view"]["state_id"]
        if got > sid:
            break
    assert got == sid + 2 and host.lobby.tables[tid].version == version + 1
    await a.aclose()
    await b.aclose()


async def test_oversized_frame_closes_that_connection_only(host, dirs) -> None:
    s = await connect(host, dirs["client"])
    s._writer.write(struct.pack(">I", frames.POST_AUTH_MAX + 1) + b"x" * 100)
    await s._writer.drain()
    err = await next_of(s, "error")
    assert err["code"] == "too_large"
    with pytest.raises(ConnectionLost):
        await next_of(s, "lobby")
    await still_serving(host, dirs["client2"])


@pytest.mark.parametrize("payload, code", [
    (msgpack.packb({"type": "sit", "table": "one", "seat": None}), "bad_message"),
    (msgpack.packb({"type": "teleport"}), "unknown_type"),
    (msgpack.packb({"type": "x", "e": msgpack.ExtType(3, b"zz")}), "bad_frame"),
    (b"\xc1\xc1", "bad_frame"),
    (msgpack.packb({"type": "hello", "version": 1, "name": "x", "nonce": b"n" * 16,
                    "identity": b"i" * 32}), "unexpected"),
])
async def test_invalid_message_gets_an_error_and_changes_nothing(host, dirs, payload,
                                                                 code) -> None:
    s = await connect(host, dirs["client"])
    before = dict(host.lobby.tables)
    s._writer.write(struct.pack(">I", len(payload)) + payload)
    await s._writer.drain()
    err = await next_of(s, "error")
    assert err["code"] == code and err["message"]
    assert host.lobby.tables == before
    await s.send({"type": "ping", "t": 1.0})  # the same connection still works
    await s.send({"type": "chat", "text": "ok", "channel": "lobby"})
    assert (await next_of(s, "chat"))["text"] == "ok"
    await s.aclose()
    await still_serving(host, dirs["client2"])


async def test_version_mismatch_is_refused(host, dirs, monkeypatch) -> None:
    import client.session as cs

    monkeypatch.setattr(cs, "PROTOCOL_VERSION", 99)
    with pytest.raises(cs.ProtocolError) as info:
        await connect(host, dirs["client"])
    assert info.value.code == "version"


async def test_open_host_lets_a_client_in_without_a_code(dirs) -> None:
    from host.server import Host

    h = Host("Open", dirs["host_cfg"], dirs["host_data"], open=True, games=["toy"])
    await h.start("127.0.0.1", 0)
    try:
        s = await Session.connect("127.0.0.1", h.port, name="ada", config_dir=dirs["client"],
                                  accept_new=True)
        assert s.host_open and s.you["open"] is True
        await s.aclose()
    finally:
        await h.stop()


async def test_a_silent_connection_is_dropped_after_the_handshake_timeout(dirs) -> None:
    from host.server import Host
    from protocol import tls

    h = Host("Slow", dirs["host_cfg"], dirs["host_data"], games=["toy"], handshake_timeout=0.5)
    await h.start("127.0.0.1", 0)
    try:
        reader, writer = await asyncio.open_connection(
            "127.0.0.1", h.port, ssl=tls.client_context(), server_hostname="x")
        data = await asyncio.wait_for(reader.read(100), 5)  # never said hello
        assert data == b""
        writer.close()
        s = await Session.connect("127.0.0.1", h.port, name="ada", config_dir=dirs["client"],
                                  accept_new=True, code=h.room_code)
        await s.aclose()
    finally:
        await h.stop()


async def test_a_tls_1_2_client_is_refused(host, dirs) -> None:
    import ssl

    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname, ctx.verify_mode = False, ssl.CERT_NONE
    ctx.maximum_version = ssl.TLSVersion.TLSv1_2
    with pytest.raises((ssl.SSLError, ConnectionError)):
        await asyncio.wait_for(asyncio.open_connection("127.0.0.1", host.port, ssl=ctx,
                                                      server_hostname="x"), 10)
    await still_serving(host, dirs["client"])


async def test_an_oversized_frame_before_authentication_is_refused(host, dirs) -> None:
    from protocol import tls

    reader, writer = await asyncio.open_connection(
        "127.0.0.1", host.port, ssl=tls.client_context(), server_hostname="x")
    writer.write(struct.pack(">I", frames.PRE_AUTH_MAX + 1) + b"\x80" * 64)
    await writer.drain()
    err = await asyncio.wait_for(frames.read_frame(reader, frames.PRE_AUTH_MAX), 5)
    assert err["type"] == "error" and err["code"] == "too_large"
    assert await asyncio.wait_for(reader.read(10), 5) == b""
    writer.close()
    await still_serving(host, dirs["client2"])


async def test_a_player_told_the_line_of_codes_is_busy_gets_in_by_trying_again(host, dirs) -> None:
    # four attempts of other players hold the line of 127.0.0.1's room codes (the most that
    # wait at once); the player is told "busy" — not "too many wrong codes" — and their
    # client tries again by itself once the line has moved
    refused: list[str] = []
    say = host.reception.log
    host.reception.log = lambda line: (refused.append(line), say(line))
    guesser = b"g" * 32
    for _ in range(20):  # a guesser whose next check waits 30 s heads the line
        host.rate_limiter.fail(guesser, "10.0.0.9")
    held = True
    line = [asyncio.ensure_future(host.rate_limiter.check(
        guesser, "127.0.0.1", lambda: False, gone=lambda: not held)) for _ in range(4)]
    await eventually(lambda: host.rate_limiter.waiting("127.0.0.1") == 4, "the line full")

    async def let_go() -> None:
        await eventually(lambda: "refused 127.0.0.1: busy" in refused, "a busy refusal")
        nonlocal held
        held = False
    going = asyncio.ensure_future(let_go())
    asked: list[str] = []

    async def trust(label: str, fingerprint: str) -> bool:
        asked.append(fingerprint)
        return True
    s = await connect(host, dirs["client"], accept_new=False, confirm_fingerprint=trust)
    await s.aclose()
    await going
    assert [verdict for verdict, _ in await asyncio.gather(*line)] == ["gone"] * 4
    assert refused.count("refused 127.0.0.1: busy") >= 1
    assert len(asked) == 1  # the new host's key was trusted once, not again at each try
