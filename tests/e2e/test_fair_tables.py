"""Fair tables over the real network (issue 9): a stacked deal cannot be created from a client,
the options a table has reach every client's lobby before anyone sits, names are unique."""

from __future__ import annotations

import pytest

from tests.e2e.test_refusals import connect, next_of

pytestmark = pytest.mark.timeout(60)


async def test_a_client_cannot_stack_the_deal_and_sees_the_options_of_every_table(host,
                                                                                  dirs) -> None:
    ada = await connect(host, dirs["client"], name="ada")
    bea = await connect(host, dirs["client2"], name="bea")
    try:
        await ada.send({"type": "create", "game": "hexenhammer", "seats": 3,
                        "options": {"scenario": {"hands": [["verleumdung"], [], []]}}})
        error = await next_of(ada, "error")
        assert error["code"] == "local_only" and not host.lobby.tables
        await ada.send({"type": "create", "game": "hexenhammer", "seats": 3,
                        "options": {"reaction_seconds": float("nan")}})
        assert (await next_of(ada, "error"))["code"] == "bad_options"
        await ada.send({"type": "create", "game": "hexenhammer", "seats": 3,
                        "options": {"reaction_seconds": 20, "panic_seconds": 60}})
        for _ in range(20):
            lobby = await next_of(bea, "lobby")
            if lobby["tables"]:
                break
        [table] = lobby["tables"]
        assert table["options"] == {"reaction_seconds": 20, "panic_seconds": 60}
        assert table["stacked"] is False
    finally:
        await ada.aclose()
        await bea.aclose()


async def test_two_players_called_pi_are_pi_and_pi_2_in_chat(host, dirs) -> None:
    first = await connect(host, dirs["client"], name="pi")
    second = await connect(host, dirs["client2"], name="pi")
    try:
        assert (first.you["name"], second.you["name"]) == ("pi", "pi (2)")
        await second.send({"type": "chat", "text": "I am the other pi", "channel": "lobby"})
        chat = await next_of(first, "chat")
        assert (chat["from"], chat["text"]) == ("pi (2)", "I am the other pi")
    finally:
        await first.aclose()
        await second.aclose()
