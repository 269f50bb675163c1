"""The Fang stall of the reliability pass: a bot whose answer was lost with its connection is
shown the same choice again after reconnecting and must answer it again — even while other
messages (lobby chat here, lobby updates in the soak) keep arriving. Its retry timer used to
start over with every message, so under traffic it never fired; the 5 s blind resend hid it."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import pytest

from client.bot import run_bots
from client.session import Session

pytestmark = pytest.mark.timeout(90)


async def test_a_bot_whose_answer_was_lost_answers_again_while_chat_keeps_coming(
        host, dirs) -> None:
    lost: list[int] = []
    handle = host.lobby.handle

    def lose_the_first_act(conn_id: int, msg: dict[str, Any]) -> None:
        if msg["type"] == "act" and not lost:
            lost.append(conn_id)  # the act is lost with its connection, as a cut would
            host.links.live[conn_id].writer.transport.abort()
            return
        handle(conn_id, msg)

    host.lobby.handle = lose_the_first_act
    chatter = await Session.connect("127.0.0.1", host.port, name="chatter",
                                    code=host.room_code, config_dir=dirs["client2"],
                                    accept_new=True, identity_file=None)

    async def chat() -> None:
        for _ in range(2000):  # bounded: ~400 s at most, cancelled when the game ends
            await chatter.send({"type": "chat", "text": "still here", "channel": "lobby"})
            await asyncio.sleep(0.2)

    talking = asyncio.create_task(chat())
    try:
        report = await run_bots("127.0.0.1", host.port, game="hexenhammer", count=4,
                                code=host.room_code, config_dir=str(dirs["client"]), seed=2,
                                timeout=60, resend=None)
    finally:
        talking.cancel()
        with contextlib.suppress(BaseException):
            await talking
        await chatter.aclose()
    assert lost and report.reconnects == 1
    assert report.outcome is not None and len(report.outcome["scores"]) == 4
