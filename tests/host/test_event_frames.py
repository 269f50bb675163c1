"""The tournament's frames keep the traffic rule (:mod:`protocol.traffic`): every ``tournament``
message of one change has one length, a multiple of 1 KiB, whoever receives it (an entrant with
a long name or a watcher who entered nothing). A real host on 127.0.0.1, real TLS sessions."""

from __future__ import annotations

import time
from typing import Any

import pytest

from client.session import Session
from host.event import Director
from host.server import Host
from protocol import traffic

pytestmark = pytest.mark.timeout(60)


async def next_of(session: Session, kind: str, seconds: float = 10.0) -> dict[str, Any]:
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        msg = await session.next_message(left)
        if msg is not None and msg["type"] == kind:
            return msg
    raise AssertionError(f"no {kind} message within {seconds} s")


async def test_tournament_frames_of_one_change_are_one_padded_length(tmp_path) -> None:
    host = Host("Frames", tmp_path / "cfg", tmp_path / "data", open=True, bot_delay=0.0,
                games=["hranice"])
    director = Director(host, game="hranice", fmt="swiss", size=4, rounds=1, bots=1,
                        start_when=99)
    director.load()
    sent: list[tuple[int, int]] = []
    real = host.send_frame

    def spy(conn_id: int, data: bytes) -> None:
        sent.append((conn_id, len(data)))
        real(conn_id, data)

    host.send_frame = spy  # type: ignore[method-assign] - records, then sends for real
    await host.start("127.0.0.1", 0)
    director.begin()
    sessions = []
    try:
        for name in ("Ada", "Bartholomew-Maximilian"):
            s = await Session.connect("127.0.0.1", host.port, name=name, identity_file=None,
                                      config_dir=str(tmp_path / name), accept_new=True)
            sessions.append(s)
            await next_of(s, "tournament")
        sent.clear()
        await sessions[1].send({"type": "enter"})
        got = [await next_of(s, "tournament") for s in sessions]
    finally:
        for s in sessions:
            await s.aclose()
        director.close()
        await host.stop()
    assert [m["you"] for m in got] == [None, "Bartholomew-Maximilian"]
    assert got[0]["entrants"] == ["host bot 1", "Bartholomew-Maximilian"]
    lengths = {length for _, length in sent}
    assert len(sent) == 2 and len(lengths) == 1
    assert lengths.pop() % traffic.DOWN_CLASS == 0


@pytest.mark.parametrize("status", ["registering", "between"])
def test_the_largest_event_fits_one_frame(tmp_path, status) -> None:
    from host.event import Entrant
    from protocol import frames, messages

    host = Host("Frames", tmp_path / "cfg", tmp_path / "data", open=True, games=["hranice"])
    director = Director(host, game="hranice", fmt="swiss", size=4, start_when=999)
    # the most entrants, each with the longest name in 4-byte characters
    names = [f"{i:03d}" + "\U0001F525" * 21 for i in range(messages.MAX_ENTRANTS)]
    director.registration.entrants = [Entrant(n, bytes([i % 256]) * 32)
                                      for i, n in enumerate(names)]
    if status == "between":
        director.results.make_history(names, 3)  # the standings of a drawn event
        director.results.after = [{"round": 1, "standings": director.standings_rows()}]
    director.status, director.note = status, "n" * 300
    msg = messages.validate(director.message(names[0]), "h2c")
    _, out = traffic.pad_frames({1: [(k, traffic.packed(v)) for k, v in msg.items()]})
    assert len(out[1]) - 4 <= frames.POST_AUTH_MAX
    assert frames.decode(out[1][4:], frames.POST_AUTH_MAX)["you"] == names[0]
