"""Fang at a real lobby core: the witches' whisper channel, secret acts that look like any other
change on the wire, and the host's time-limits switch."""

from __future__ import annotations

import pytest

from hexnet.i18n import render
from host.core import Accepted, LobbyError, SetTimer
from host.lobby import Lobby
from tests.host.test_lobby import Recorder, ident


def fang_table(players: int = 6, roles: list[str] | None = None
               ) -> tuple[Lobby, Recorder, list[str]]:
    """A started Fang table of ``players`` connected humans; ``roles`` (the host's own code
    stacks them, as a test may) deals those roles seat by seat from the first morning."""
    rec = Recorder()
    lb = Lobby(rec, seed_source=lambda: 7)
    for n in range(1, players + 1):
        lb.connect(n, ident(n), f"p{n}")
    if roles is None:
        lb.handle(1, {"type": "create", "game": "fang", "seats": players, "options": {}})
    else:
        lb.create_table("fang", players, {"scenario": {"roles": roles}})
        lb.handle(1, {"type": "sit", "table": 1, "seat": 0})
    for n in range(2, players + 1):
        lb.handle(n, {"type": "sit", "table": 1, "seat": None})
    lb.handle(1, {"type": "start", "table": 1})
    rec.take()
    return lb, rec, lb.state_of(1)["roles"]


def test_a_witch_whispers_to_the_witches_and_nobody_else() -> None:
    lb, rec, roles = fang_table(6)
    witches = [s for s, r in enumerate(roles) if r == "hexe"]
    assert len(witches) == 2
    lb.handle(witches[0] + 1, {"type": "chat", "text": "Wald tonight", "channel": "witches"})
    heard = {c for c in range(1, 7) if rec.sent(c, "chat")}
    assert heard == {s + 1 for s in witches}
    assert rec.sent(witches[1] + 1, "chat")[0]["channel"] == "witches"
    frames = rec.frames()  # on the wire: one frame of one length to every seat
    assert sorted(frames) == list(range(1, 7))
    assert len({len(f) for fs in frames.values() for f in fs}) == 1


def test_a_cat_who_is_not_a_witch_cannot_use_the_witches_channel() -> None:
    lb, rec, roles = fang_table(6)
    cat = roles.index("dorfkatze")
    lb.handle(cat + 1, {"type": "chat", "text": "let me in", "channel": "witches"})
    assert [(m["type"], m["code"]) for m in rec.sent(cat + 1)] == [("error", "no_channel")]
    assert all(rec.sent(c) == [] for c in range(1, 7) if c != cat + 1)
    frames = rec.frames()  # the refusal rides in a frame like every seat's
    assert sorted(frames) == list(range(1, 7))
    assert len({len(f) for fs in frames.values() for f in fs}) == 1


def test_a_seers_secret_look_sends_every_seat_one_frame_of_one_length() -> None:
    # Only the seer's frame may differ in content; on the wire all look alike (and it goes
    # out at the evening's tick, as a frame does at every tick).
    # (Roles stacked: every seat takes its first legal action, so the witches attack seat 0;
    # a village cat sits there, the seer is still a cat at the first evening.)
    lb, rec, roles = fang_table(6, ["dorfkatze", "seherin", "hexe", "hexe", "dorfkatze",
                                    "beschuetzer"])
    table = lb.tables[1]
    seer = roles.index("seherin")
    for _ in range(400):
        waiting = table.waiting_for()
        legal = table.engine.legal_actions(table.state, seer) if seer in waiting else []
        look = [a for a in legal if a["type"] == "see"]
        if look:
            break
        if not waiting:  # a timed scene (the witches' window, the pause): its timer fires
            lb.timeout(1, table.timer_key)
        else:
            seat = waiting[0]
            lb.handle(seat + 1, {"type": "act", "table": 1, "state_id": table.state_id,
                                 "action": table.engine.legal_actions(table.state, seat)[0]})
        lb.cadence(1)  # at a secret step: applied at its tick
    else:
        raise AssertionError("the seer never got to look")
    rec.take()
    lb.handle(seer + 1, {"type": "act", "table": 1, "state_id": table.state_id,
                         "action": look[0]})
    assert rec.frames() == {}  # the evening is a secret step: nothing answers the look itself
    lb.cadence(1)  # its tick: a frame to every seat, as at every tick
    frames = rec.frames()
    assert sorted(frames) == list(range(1, 7)) and all(len(f) == 1 for f in frames.values())
    assert len({len(fs[0]) for fs in frames.values()}) == 1
    assert [c for c in range(1, 7) if rec.sent(c, "view")] == [seer + 1]


def test_the_host_switches_time_limits_on_mid_game_and_the_timer_starts() -> None:
    lb, rec, _ = fang_table(4)
    table = lb.tables[1]
    while table.state["scene"]["name"] == "ready":  # everyone turns their role card: day 1
        seat = table.waiting_for()[0]
        lb.handle(seat + 1, {"type": "act", "table": 1, "state_id": table.state_id,
                             "action": {"type": "ready"}})
    assert table.state["scene"]["name"] == "pick"
    rec.take()
    assert lb.time_limits(1) is False
    lb.set_time_limits(1, True)
    effects = rec.take()
    assert [(e.seat, e.action) for e in effects if isinstance(e, Accepted)] == [
        (None, {"type": "time_limits", "on": True})]
    assert any(isinstance(e, SetTimer) and e.table == 1 for e in effects)
    assert lb.time_limits(1) is True
    state = lb.state_of(1)
    assert "The host switches time limits on." in [render("fang", e, state["players"], "en")
                                                   for e in state["log"]]


def test_time_limits_set_before_the_start_become_the_tables_option() -> None:
    rec = Recorder()
    lb = Lobby(rec, seed_source=lambda: 7)
    lb.connect(1, ident(1), "p1")
    lb.handle(1, {"type": "create", "game": "fang", "seats": 4, "options": {}})
    lb.set_time_limits(1, True)
    assert lb.tables[1].options == {"time_limits": True}


def test_a_game_without_time_limits_refuses_the_switch() -> None:
    rec = Recorder()
    lb = Lobby(rec, seed_source=lambda: 7)
    lb.connect(1, ident(1), "p1")
    lb.handle(1, {"type": "create", "game": "hexenhammer", "seats": 4, "options": {}})
    assert lb.time_limits(1) is None
    with pytest.raises(LobbyError, match="no time limits"):
        lb.set_time_limits(1, True)
