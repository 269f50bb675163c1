"""Caps per address, not only per key, and a tournament entrant's name bound to its key (issue
23, findings 4 and 6), over real TLS on loopback addresses of their own: throwaway keys from one
address get only so far (on 930923a 170 of them filled the host's 500 tables and eight entered
an event that starts at eight), and an impostor cannot take an absent entrant's name (on 930923a
it could, and the entrant came back as ``pi (2)``)."""

from __future__ import annotations

from typing import Any

import pytest

from client.session import ProtocolError, Session
from host.entrants import ENTRANTS_PER_ADDRESS
from host.event import Director
from host.newcomers import IDENTITIES_PER_ADDRESS
from host.registry import MAX_OPEN_TABLES_PER_ADDRESS
from host.server import Host
from tests.host.test_event_frames import next_of
from tests.waiting import answered

pytestmark = pytest.mark.timeout(120)


async def join(host: Host, name: str, source: str, cfg=None) -> Session:
    return await Session.connect("127.0.0.1", host.port, name=name, code=host.room_code,
                                 config_dir=cfg, identity_file=None if cfg is None else
                                 "identity.pem", accept_new=True, local_address=source,
                                 heartbeat=3600)


async def test_throwaway_keys_from_one_address_get_only_so_far(tmp_path) -> None:
    host = Host("Caps", tmp_path / "cfg", tmp_path / "data", games=["toy"])
    await host.start("127.0.0.1", 0)
    sessions: list[Session] = []
    refused: list[str] = []
    try:
        for n in range(IDENTITIES_PER_ADDRESS + 4):  # fresh keys, one address
            try:
                sessions.append(await join(host, f"x{n}", "127.0.0.41",
                                           cfg=tmp_path / f"x{n}"))
            except ProtocolError as exc:
                refused.append(exc.code)
        assert len(sessions) == IDENTITIES_PER_ADDRESS
        assert refused == ["too_many_identities"] * 4
        for s in sessions:  # each asks for three tables
            for _ in range(3):
                await s.send({"type": "create", "game": "toy", "seats": 2, "options": {}})
        for s in sessions:
            await answered(s, "every create handled")
        assert len(host.lobby.tables) == MAX_OPEN_TABLES_PER_ADDRESS
        # a key that came before comes again; a player from another address gets in and plays
        await sessions[0].aclose()
        sessions[0] = await join(host, "x0", "127.0.0.41", cfg=tmp_path / "x0")
        honest = await join(host, "ada", "127.0.0.42", cfg=tmp_path / "ada")
        sessions.append(honest)
        await honest.send({"type": "create", "game": "toy", "seats": 2, "options": {}})
        while honest.you.get("table") is None:
            await honest.next_message(5)
    finally:
        for s in sessions:
            await s.aclose()
        await host.stop()


async def tournament(tmp_path, **kw: Any) -> tuple[Host, Director]:
    host = Host("Event", tmp_path / "cfg", tmp_path / "data", bot_delay=0.0, games=["hranice"])
    director = Director(host, game="hranice", fmt="swiss", size=4, rounds=1, **kw)
    director.load()
    await host.start("127.0.0.1", 0)
    director.begin()
    return host, director


async def test_throwaway_keys_from_one_address_cannot_fill_a_tournament(tmp_path) -> None:
    host, director = await tournament(tmp_path, start_when=8)
    sessions: list[Session] = []
    try:
        answers = []
        for n in range(8):  # eight throwaway entrants from one address
            s = await join(host, f"x{n}", "127.0.0.51")
            sessions.append(s)
            await next_of(s, "tournament")
            await s.send({"type": "enter"})
            answers.append(await next_of(s, "tournament") if n < ENTRANTS_PER_ADDRESS
                           else await next_of(s, "error"))
        assert [a.get("code") for a in answers[ENTRANTS_PER_ADDRESS:]] == (
            ["too_many_entrants"] * (8 - ENTRANTS_PER_ADDRESS))
        assert len(director.entrants) == ENTRANTS_PER_ADDRESS
        assert director.status == "registering"
        ada = await join(host, "ada", "127.0.0.52")  # a real player still enters
        sessions.append(ada)
        await next_of(ada, "tournament")
        await ada.send({"type": "enter"})
        assert (await next_of(ada, "tournament"))["you"] == "ada"
    finally:
        for s in sessions:
            await s.aclose()
        director.close()
        await host.stop()


async def test_an_absent_entrants_name_is_its_keys(tmp_path) -> None:
    host, director = await tournament(tmp_path, start_when=99)
    sessions: list[Session] = []
    try:
        pi = await join(host, "pi", "127.0.0.61", cfg=tmp_path / "pi")
        await next_of(pi, "tournament")
        await pi.send({"type": "enter"})
        assert (await next_of(pi, "tournament"))["you"] == "pi"
        await pi.aclose()
        # while pi is away an impostor asks for its name, another for a look-alike of it
        for asked, given in (("pi", "pi (2)"), ("\u0440\u0456", "\u0440\u0456 (3)")):
            impostor = await join(host, asked, "127.0.0.62")  # (Latin, then Cyrillic "рі")
            sessions.append(impostor)
            assert impostor.you["name"] == given
            await impostor.send({"type": "chat", "text": "it is me", "channel": "lobby"})
            assert (await next_of(impostor, "chat"))["from"] == given
        # the entrant comes back under its name (even asking for another)
        pi = await join(host, "someone", "127.0.0.61", cfg=tmp_path / "pi")
        sessions.append(pi)
        assert pi.you["name"] == "pi"
        assert (await next_of(pi, "tournament"))["you"] == "pi"
    finally:
        for s in sessions:
            await s.aclose()
        director.close()
        await host.stop()
