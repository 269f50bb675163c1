"""Abuse limits over the real network: message floods, unauthenticated caps, the auth deadline,
and names/chat cleaned on the host before they are stored or relayed."""

from __future__ import annotations

import asyncio
import contextlib
import secrets

import pytest

from client.session import ConnectionLost, Session
from host import limits
from host.server import Host
from protocol import PROTOCOL_VERSION, frames, sanitize, tls
from tests.e2e.test_refusals import connect, my_table, next_of, still_serving
from tests.waiting import DEADLINE, eventually

pytestmark = [pytest.mark.timeout(60), pytest.mark.both_loops]  # the transport's own


async def limited_host(dirs, **kw) -> Host:
    h = Host("Limits", dirs["host_cfg"], dirs["host_data"], games=["toy"], bot_delay=0, **kw)
    await h.start("127.0.0.1", 0)
    return h


async def closed(reader: asyncio.StreamReader, seconds: float) -> bool:
    """Whether the peer closes (EOF or reset) within ``seconds``, reading whatever comes."""
    try:
        async with asyncio.timeout(seconds):
            while await reader.read(65536):
                pass
    except TimeoutError:
        return False
    except (ConnectionError, OSError):
        pass
    return True


async def test_a_message_flood_is_answered_rate_limited_then_closed(dirs) -> None:
    h = await limited_host(dirs, message_rate=5, message_burst=10, message_excess_close=20)
    try:
        s = await connect(h, dirs["client"])
        for _ in range(40):
            s._writer.write(frames.encode({"type": "ping", "t": 1.0}))
        await s._writer.drain()
        errors = []
        # the host closes it: not our deadline, nor the session noticing a host gone silent
        with pytest.raises(ConnectionLost, match="The host closed the connection"):
            async with asyncio.timeout(DEADLINE):
                async for msg in s.messages():
                    if msg["type"] == "error":
                        errors.append(msg["code"])
        assert errors == ["rate_limited", "rate_limited"]  # the warning, then the close
        assert h.connections == {}
        await s.aclose()
        await still_serving(h, dirs["client2"])
    finally:
        await h.stop()


async def test_a_client_within_the_rate_is_never_limited(dirs) -> None:
    h = await limited_host(dirs, message_rate=50, message_burst=5, message_excess_close=5)
    try:
        s = await connect(h, dirs["client"])
        for i in range(30):  # not chat: chat has a budget of its own (host/playing.py)
            await s.send({"type": "sit", "table": 900 + i, "seat": None})
            assert (await next_of(s, "error"))["code"] == "no_table"
            await asyncio.sleep(0.03)  # pacing, not waiting: ≤ 33 a second, whatever the load
        await s.aclose()
    finally:
        await h.stop()


@pytest.mark.one_loop("on uvloop the listener does TLS itself: the gate counts from the end "
                      "of the TLS handshake (host/limits.py)")
async def test_unauthenticated_connections_are_capped_per_address_and_in_total(dirs) -> None:
    h = await limited_host(dirs, max_unauthenticated=3, max_unauthenticated_per_address=2)
    opened = []
    try:
        for _ in range(2):
            opened.append(await asyncio.open_connection("127.0.0.1", h.port,
                                                        local_addr=("127.0.0.2", 0)))
        await eventually(lambda: h.gate.by_address == {"127.0.0.2": 2}, "two waiting")
        # a third from the same address is admitted; that address's oldest idle one goes
        opened.append(await asyncio.open_connection("127.0.0.1", h.port,
                                                    local_addr=("127.0.0.2", 0)))
        assert await closed(opened.pop(0)[0], DEADLINE)
        opened.append(await asyncio.open_connection("127.0.0.1", h.port,
                                                    local_addr=("127.0.0.3", 0)))
        await eventually(lambda: h.gate.count == 3, "three waiting")
        # full: a real player evicts the busiest address's oldest
        s = await connect(h, dirs["client"])
        assert await closed(opened[0][0], DEADLINE)
        assert h.gate.evicted == 2 and len(h.connections) == 1
        assert h.gate.by_address == {"127.0.0.2": 1, "127.0.0.3": 1}
        await s.aclose()
    finally:
        for _, w in opened:
            w.close()
        await h.stop()
    assert h.gate.count == 0


async def test_idle_sockets_from_a_players_address_do_not_keep_the_player_out(dirs) -> None:
    h = await limited_host(dirs)  # the default caps: 16 unauthenticated per address
    idle = []
    try:
        for _ in range(limits.MAX_UNAUTHENTICATED_PER_ADDRESS):
            idle.append(await asyncio.open_connection("127.0.0.1", h.port))
        if not type(asyncio.get_running_loop()).__module__.startswith("uvloop"):
            # (on uvloop the gate counts from the end of the TLS handshake, which these never
            # begin: they wait outside it)
            await eventually(lambda: h.gate.count == limits.MAX_UNAUTHENTICATED_PER_ADDRESS,
                             "every idle socket waiting")
        s = await connect(h, dirs["client"])  # same address 127.0.0.1: gets in
        assert len(h.connections) == 1
        await s.aclose()
    finally:
        for _, w in idle:
            w.close()
        await h.stop()


async def test_a_client_that_never_sends_auth_is_dropped_at_the_auth_deadline(dirs) -> None:
    h = await limited_host(dirs, auth_timeout=0.5)
    try:
        reader, writer = await asyncio.open_connection(
            "127.0.0.1", h.port, ssl=tls.client_context(), server_hostname="x")
        writer.write(frames.encode({"type": "hello", "version": PROTOCOL_VERSION, "name": "x",
                                    "nonce": secrets.token_bytes(16),
                                    "identity": secrets.token_bytes(32)}, frames.PRE_AUTH_MAX))
        await writer.drain()
        welcome = await asyncio.wait_for(frames.read_frame(reader, frames.PRE_AUTH_MAX), 5)
        assert welcome["type"] == "welcome"
        assert await closed(reader, DEADLINE)  # (the host's 0.5 s, however loaded we are)
        writer.close()
        assert h.gate.count == 0
        # the witness is a real client: on a loaded machine its own auth may take longer
        # than 0.5 s, so it gets the default deadline (read per connection)
        h.reception.auth_timeout = limits.AUTH_TIMEOUT
        await still_serving(h, dirs["client"])
    finally:
        await h.stop()


async def test_names_and_chat_reach_the_lobby_and_others_cleaned(host, dirs) -> None:
    evil = "\x1b[31mEve\u202e\x07[b]x"
    a = await connect(host, dirs["client"], name=evil)
    b = await connect(host, dirs["client2"], name="Bob", identity_file="bob.pem")
    try:
        assert a.you["name"] == "Eve[b]x"
        assert {c.name for c in host.lobby.conns.values()} == {"Eve[b]x", "Bob"}
        await a.send({"type": "create", "game": "toy", "seats": 2, "options": {}})
        tid = await my_table(a)
        assert host.lobby.tables[tid].seats[0].name == "Eve[b]x"
        await b.send({"type": "sit", "table": tid, "seat": None})
        await my_table(b)
        text = "hi\x1b[2J\x1b]0;owned\x07 \u2066there\u2069\x9b6n [@click=app.quit]x[/]"
        await a.send({"type": "chat", "text": text, "channel": "table"})
        got = await next_of(b, "chat")
        assert got["text"] == "hi there [@click=app.quit]x[/]" and got["from"] == "Eve[b]x"
        assert sanitize.is_clean(got["text"])
        await a.send({"type": "chat", "text": "\x1b[0m\u202e", "channel": "table"})
        assert (await next_of(a, "error"))["code"] == "empty"
    finally:
        await a.aclose()
        await b.aclose()


async def test_session_connects_normally_through_the_gate(host, dirs) -> None:
    s = await Session.connect("127.0.0.1", host.port, name="ada", config_dir=dirs["client"],
                              accept_new=True, code=host.room_code)
    assert host.gate.count == 0 and len(host.connections) == 1
    await s.aclose()


async def test_a_client_shows_no_escape_sequences_a_host_sends(dirs) -> None:
    h = Host("\x1b[31mEvil\x1b]0;pwned\x07 Host\u202e", dirs["host_cfg"], dirs["host_data"],
             games=["toy"], open=True)
    await h.start("127.0.0.1", 0)
    try:
        s = await Session.connect("127.0.0.1", h.port, name="ada", config_dir=dirs["client"],
                                  accept_new=True)
        assert s.host_name == "Evil Host"
        await s.aclose()
    finally:
        await h.stop()


async def test_a_neighbour_with_the_code_gets_in_within_2_s_while_wrong_codes_flood(
        host, dirs) -> None:
    import secrets
    import time

    from client.session import BadRoomCode, RateLimited, Session

    async def wrong(n: int) -> None:
        cfg = dirs["client"].parent / f"flood{n}"
        cfg.mkdir()
        with contextlib.suppress(BadRoomCode, RateLimited, ConnectionLost,
                                 asyncio.TimeoutError):
            s = await asyncio.wait_for(Session.connect(
                "127.0.0.1", host.port, name="eve", code="AAAAA-" + secrets.choice(
                    ["BBBBB", "CCCCC", "DDDDD"]), config_dir=cfg, accept_new=True), 30)
            await s.aclose()

    flood = []
    began = time.monotonic()
    took = []
    try:
        n = 0
        while time.monotonic() - began < 16:
            flood.append(asyncio.ensure_future(wrong(n)))  # four a second, a fresh key each
            n += 1
            await asyncio.sleep(0.25)
            if time.monotonic() - began > 7.5 * (len(took) + 1):  # the neighbour at 7.5, 15 s
                t = time.monotonic()
                ada = await Session.connect("127.0.0.1", host.port, name="ada",
                                            code=host.room_code, config_dir=dirs["client2"],
                                            accept_new=True)
                took.append(time.monotonic() - t)
                await ada.aclose()
    finally:
        await asyncio.gather(*flood, return_exceptions=True)
    assert len(took) == 2 and max(took) < 2.0, took
    assert host.rate_limiter._keys[("address", "127.0.0.1")].failures >= 40  # it did flood
