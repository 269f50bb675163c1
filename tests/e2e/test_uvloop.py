"""The host on uvloop (``pip install 'hexnet[fast]'``): a player connects over real TLS, sits at
a table with host bots and plays it to the end. (``host/limits.py`` used to assert an asyncio
``ReadTransport``, which refused every uvloop connection.)"""

from __future__ import annotations

import asyncio

import pytest

from client.session import Session
from host.server import Host, loop_factory

pytestmark = pytest.mark.timeout(60)


def test_a_player_plays_a_table_to_the_end_on_a_host_running_on_uvloop(dirs,
                                                                       monkeypatch) -> None:
    uvloop = pytest.importorskip("uvloop")
    monkeypatch.delenv("HEXNET_LOOP", raising=False)
    assert loop_factory() is uvloop.new_event_loop  # the host's default when installed

    async def play() -> dict:
        assert type(asyncio.get_running_loop()).__module__.startswith("uvloop")
        host = Host("Fast", dirs["host_cfg"], dirs["host_data"], open=True, bot_delay=0,
                    games=["toy"])
        await host.start("127.0.0.1", 0)
        try:
            ada = await Session.connect("127.0.0.1", host.port, name="ada",
                                        config_dir=dirs["client"], accept_new=True,
                                        identity_file=None)
            await ada.send({"type": "create", "game": "toy", "seats": 3, "options": {}})
            while ada.you.get("table") is None:
                await ada.next_message(5)
            tid = int(ada.you["table"])
            for seat in (1, 2):
                await ada.send({"type": "add_bot", "table": tid, "seat": seat,
                                "policy": "random"})
            await ada.send({"type": "start", "table": tid})
            acted = -1
            for _ in range(500):
                await ada.next_message(5)
                view, legal = ada.views.get(tid), ada.legal.get(tid)
                if view is None:
                    continue
                if view["outcome"] is not None:
                    await ada.aclose()
                    return view["outcome"]
                if legal and view["state_id"] != acted:
                    acted = view["state_id"]
                    await ada.send({"type": "act", "table": tid, "state_id": acted,
                                    "action": legal[0]})
            raise AssertionError("the game did not end")
        finally:
            await host.stop()

    with asyncio.Runner(loop_factory=loop_factory()) as runner:
        outcome = runner.run(play())
    assert len(outcome["scores"]) == 3
