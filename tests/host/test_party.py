"""The party (issue 26) at the sans-I/O core: a rematch of a finished table, emotes, and the host's
bots held or slowed by a table's owner — driven directly, no sockets."""

from __future__ import annotations

from typing import Any

import pytest

from host.core import BotTurn, CancelTimer, LobbyError, SetTimer, TableStarted
from host.emotes import EMOTE_BURST
from host.lobby import Lobby
from host.pause import RESUME_LEAST
from host.rematch import PATIENCE
from tests.host.test_fang_host import fang_table
from tests.host.test_lobby import Recorder, ident


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def party() -> tuple[Lobby, Recorder, Clock]:
    """Three connected players p1, p2, p3 (connections 1–3) and a clock the test turns."""
    rec, clock = Recorder(), Clock()
    lb = Lobby(rec, clock=clock)
    for n in (1, 2, 3):
        lb.connect(n, ident(n), f"p{n}")
    rec.take()
    return lb, rec, clock


def play_out(lb: Lobby, tid: int) -> None:
    """Play table ``tid`` to its end: each seat waited on takes its first legal action (a host
    bot through its turn)."""
    table = lb.tables[tid]
    for _ in range(500):
        if table.status != "playing":
            return
        seat = table.waiting_for()[0]
        if table.seats[seat].kind == "bot":
            lb.bot_turn(tid, seat, table.version)  # (the engine's step)
            continue
        conn = next(c.id for c in lb.conns.values() if c.identity == table.seats[seat].identity)
        lb.handle(conn, {"type": "act", "table": tid, "state_id": table.state_id,
                         "action": table.engine.legal_actions(table.state, seat)[0]})
    raise AssertionError("the game did not end")


def finished(lb: Lobby, humans: int = 2, seats: int = 3) -> int:
    """A toy table created by p1, with p2.. seated, bots in the other seats, played out."""
    lb.handle(1, {"type": "create", "game": "toy", "seats": seats, "options": {}})
    tid = max(lb.tables)
    for c in range(2, humans + 1):
        lb.handle(c, {"type": "sit", "table": tid, "seat": None})
    for _ in range(seats - humans):
        lb.add_bot(tid, None, "random")
    lb.handle(1, {"type": "start", "table": tid})
    play_out(lb, tid)
    return tid


def answers(rec: Recorder, conn: int) -> list[str]:
    """The answers the last ``rematch`` message to ``conn`` lists, seat by seat."""
    return [s["answer"] for s in rec.sent(conn, "rematch")[-1]["seats"]]


# -- rematch --------------------------------------------------------------------------------
def test_a_rematch_deals_the_same_table_again_once_everyone_agrees(party) -> None:
    lb, rec, _clock = party
    old = finished(lb)
    lb.rematches.shuffle = lambda seats: seats.reverse()  # the host's shuffle, made visible
    before = lb.tables[old]
    rec.take()
    lb.handle(1, {"type": "rematch", "table": old, "answer": "yes"})
    assert answers(rec, 1) == answers(rec, 2) == ["yes", "waiting", "bot"]
    assert rec.sent(3) == []  # p3 did not play there
    lb.handle(2, {"type": "rematch", "table": old, "answer": "yes"})
    new = max(lb.tables)
    table = lb.tables[new]
    assert new != old and table.status == "playing" and before.status == "over"
    assert [(s.kind, s.name) for s in table.seats] == [("bot", "bot 3"), ("human", "p2"),
                                                       ("human", "p1")]
    assert table.game_name == before.game_name and table.options == before.options
    assert table.seed != before.seed and table.commitment != before.commitment
    assert [e.table for e in rec.effects if isinstance(e, TableStarted)] == [new]
    said = rec.sent(1, "rematch")[-1]
    assert (said["status"], said["new_table"]) == ("started", new)
    assert rec.sent(1, "view")[-1]["table"] == new  # both follow its first frame
    assert rec.sent(2, "view")[-1]["table"] == new
    assert lb.where(ident(1)) == (table, 2)
    with pytest.raises(LobbyError, match="under way"):  # one rematch per finished table
        lb.rematches.answer(lb.conns[1], old, "yes")


def test_a_player_who_says_no_is_replaced_by_a_bot_at_the_rematch(party) -> None:
    lb, rec, _clock = party
    old = finished(lb, humans=3)
    lb.handle(1, {"type": "rematch", "table": old, "answer": "yes"})
    lb.handle(3, {"type": "rematch", "table": old, "answer": "no"})
    assert answers(rec, 2) == ["yes", "waiting", "bot"]
    lb.handle(2, {"type": "rematch", "table": old, "answer": "yes"})
    table = lb.tables[max(lb.tables)]
    assert sorted(s.kind for s in table.seats) == ["bot", "human", "human"]
    assert {s.name for s in table.seats if s.kind == "human"} == {"p1", "p2"}
    assert [s.policy for s in table.seats if s.kind == "bot"] == ["normal"]


def test_a_player_who_sits_down_elsewhere_leaves_the_rematch_to_a_bot(party) -> None:
    lb, rec, _clock = party
    old = finished(lb)
    lb.handle(1, {"type": "rematch", "table": old, "answer": "yes"})
    lb.handle(2, {"type": "create", "game": "toy", "seats": 2, "options": {}})
    new = max(lb.tables)
    assert lb.tables[new].status == "playing"  # p1 and a bot; p2's table is still seating
    assert [s.kind for s in lb.tables[new].seats].count("human") == 1


def test_a_goodbye_gives_the_seat_to_a_bot_and_the_rematch_starts_without_them(party) -> None:
    lb, rec, _clock = party
    old = finished(lb)
    lb.handle(1, {"type": "rematch", "table": old, "answer": "yes"})
    lb.handle(2, {"type": "bye"})
    lb.disconnect(2)
    assert answers(rec, 1) == ["yes", "bot", "bot"]
    table = lb.tables[max(lb.tables)]
    assert [s.name for s in table.seats if s.kind == "human"] == ["p1"]


def test_a_rematch_nobody_wants_any_more_is_withdrawn(party) -> None:
    lb, rec, _clock = party
    old = finished(lb)
    lb.handle(1, {"type": "rematch", "table": old, "answer": "yes"})
    lb.handle(1, {"type": "rematch", "table": old, "answer": "no"})
    lb.handle(2, {"type": "leave"})  # leaving the results: no
    assert rec.sent(2, "error") == []
    assert rec.sent(1, "rematch")[-1]["status"] == "withdrawn"
    assert max(lb.tables) == old  # nothing dealt


def test_the_owner_fills_silent_seats_with_bots_only_after_the_wait(party) -> None:
    lb, rec, clock = party
    old = finished(lb, humans=3)
    lb.handle(2, {"type": "rematch", "table": old, "answer": "yes"})  # p2 offers; p1 owns
    assert rec.sent(2, "rematch")[-1]["owner"] == 0
    lb.handle(2, {"type": "rematch", "table": old, "answer": "bots"})
    assert rec.sent(2, "error")[-1]["code"] == "not_owner"
    lb.handle(1, {"type": "rematch", "table": old, "answer": "bots"})
    assert rec.sent(1, "error")[-1]["code"] == "too_soon"
    assert max(lb.tables) == old
    clock.now += PATIENCE
    lb.handle(1, {"type": "rematch", "table": old, "answer": "bots"})
    table = lb.tables[max(lb.tables)]
    assert table.status == "playing"
    assert [s.name for s in table.seats if s.kind == "human"] == ["p2"]


def test_a_tournaments_table_is_not_played_again(party) -> None:
    lb, rec, _clock = party
    lb.hosts_event = True
    tid = lb.create_table("toy", 2, {})
    lb.place(tid, 0, "p1", ident(1))
    lb.place(tid, 1, "p2", ident(2))
    lb.start(tid)
    play_out(lb, tid)
    lb.handle(1, {"type": "rematch", "table": tid, "answer": "yes"})
    assert rec.sent(1, "error")[-1]["code"] == "tournament"
    with pytest.raises(LobbyError, match="tournament"):
        lb.set_bots(tid, True, None)


def test_rematch_answers_are_budgeted(party) -> None:
    lb, rec, _clock = party
    old = finished(lb, humans=3)
    for answer in ["yes", "no"] * 3:
        lb.handle(3, {"type": "rematch", "table": old, "answer": answer})
    assert rec.sent(3, "error")[-1]["code"] == "asks_too_fast"
    assert len(rec.sent(1, "rematch")) == 5


# -- emotes ---------------------------------------------------------------------------------
def test_an_emote_reaches_every_seat_in_one_frame_of_one_length(party) -> None:
    lb, rec, _clock = party
    lb.handle(1, {"type": "create", "game": "toy", "seats": 3, "options": {}})
    for c in (2, 3):
        lb.handle(c, {"type": "sit", "table": 1, "seat": None})
    lb.handle(1, {"type": "start", "table": 1})
    rec.take()
    lb.handle(2, {"type": "emote", "table": 1, "emote": "laugh"})
    frames = rec.frames()
    assert sorted(frames) == [1, 2, 3] and all(len(f) == 1 for f in frames.values())
    assert len({len(fs[0]) for fs in frames.values()}) == 1
    for conn in (1, 2, 3):
        assert rec.sent(conn, "emote") == [{"type": "emote", "table": 1, "seat": 1,
                                            "emote": "laugh"}]
        assert rec.sent(conn, "view") == []  # nothing else changed


def test_emotes_are_budgeted_like_chat(party) -> None:
    lb, rec, clock = party
    lb.handle(1, {"type": "create", "game": "toy", "seats": 2, "options": {}})
    lb.handle(2, {"type": "sit", "table": 1, "seat": None})
    lb.handle(1, {"type": "start", "table": 1})
    rec.take()
    for _ in range(EMOTE_BURST + 3):
        lb.handle(1, {"type": "emote", "table": 1, "emote": "thumbs"})
    assert len(rec.sent(2, "emote")) == EMOTE_BURST
    assert [m["code"] for m in rec.sent(1, "error")] == ["emote_too_fast"]  # one a second
    clock.now += 1.0
    lb.handle(1, {"type": "emote", "table": 1, "emote": "thumbs"})
    assert len(rec.sent(2, "emote")) == EMOTE_BURST + 1


def to_secret_step(lb: Lobby) -> Any:
    """Play Fang's table 1 to its first secret step (the protector's guard, the witches'
    window), published: the table ticks on the step's cadence."""
    table = lb.tables[1]
    for _ in range(400):
        if table.step_id is not None:
            return table
        waiting = table.waiting_for()
        if not waiting:
            lb.timeout(1, table.timer_key)
            continue
        seat = waiting[0]
        lb.handle(seat + 1, {"type": "act", "table": 1, "state_id": table.state_id,
                             "action": table.engine.legal_actions(table.state, seat)[0]})
    raise AssertionError("no secret step came")


def test_an_emote_is_refused_while_a_secret_step_is_open() -> None:
    lb, rec, _roles = fang_table(6)
    to_secret_step(lb)
    rec.take()
    lb.handle(3, {"type": "emote", "table": 1, "emote": "think"})
    lb.cadence(1)  # the step's tick: what it owes leaves
    assert [m["code"] for m in rec.sent(3, "error")] == ["secret_step"]
    assert all(rec.sent(c, "emote") == [] for c in range(1, 7))
    frames = rec.frames()  # the refusal rides in every seat's frame, all of one length
    assert sorted(frames) == list(range(1, 7))
    assert len({len(f) for fs in frames.values() for f in fs}) == 1


def test_an_emote_after_the_end_reaches_the_players_still_at_the_results(party) -> None:
    lb, rec, _clock = party
    old = finished(lb, humans=3)
    lb.handle(3, {"type": "create", "game": "toy", "seats": 2, "options": {}})  # p3 moved on
    rec.take()
    lb.handle(2, {"type": "emote", "table": old, "emote": "clap"})
    assert [c for c in (1, 2, 3) if rec.sent(c, "emote")] == [1, 2]
    lb.handle(2, {"type": "emote", "table": old, "emote": "fireworks"})
    assert rec.sent(2, "error")[-1]["code"] == "no_emote"


# -- the bots held or slowed ----------------------------------------------------------------
def bot_table(lb: Lobby, rec: Recorder) -> Any:
    """p1 created a toy table with two host bots; it plays; p1 is to move."""
    lb.handle(1, {"type": "create", "game": "toy", "seats": 3, "options": {}})
    lb.add_bot(1, None, "random")
    lb.add_bot(1, None, "random")
    lb.handle(1, {"type": "start", "table": 1})
    rec.take()
    return lb.tables[1]


def test_a_pause_asks_no_bot_and_holds_the_deadline_with_the_seconds_it_had(party) -> None:
    lb, rec, clock = party
    table = bot_table(lb, rec)
    clock.now += 10  # 20 s of p1's 30 s turn left
    lb.handle(1, {"type": "bots", "table": 1, "paused": True, "delay": None})
    effects = rec.take()
    assert [e for e in effects if isinstance(e, CancelTimer)] == [CancelTimer(1)]
    lb.handle(1, {"type": "act", "table": 1, "state_id": table.state_id,
                  "action": {"type": "play", "card": table.state["hands"][0][0]}})
    effects = rec.take()  # a player still plays while the bots wait: now both bots are asked
    assert table.waiting_for() == [1, 2]
    assert not [e for e in effects if isinstance(e, (BotTurn, SetTimer))]
    lb.bot_turn(1, 1, table.version)  # a turn asked before the pause: ignored
    assert rec.take() == [] and table.waiting_for() == [1, 2]
    clock.now += 100
    lb.handle(1, {"type": "bots", "table": 1, "paused": False, "delay": None})
    effects = rec.take()
    assert sorted(e.seat for e in effects if isinstance(e, BotTurn)) == [1, 2]


def test_a_held_deadline_runs_on_with_what_it_had_left(party) -> None:
    lb, rec, clock = party
    bot_table(lb, rec)
    clock.now += 10
    lb.set_bots(1, True, None)
    clock.now += 500  # however long the pause
    lb.set_bots(1, False, None)
    assert [(e.key, e.seconds) for e in rec.take() if isinstance(e, SetTimer)] == [
        ("turn0", 20.0)]


def test_only_the_tables_owner_pauses_its_bots_and_everyone_sees_it(party) -> None:
    lb, rec, _clock = party
    table = bot_table(lb, rec)
    lb.handle(2, {"type": "bots", "table": 1, "paused": True, "delay": None})
    assert rec.sent(2, "error")[-1]["code"] == "not_owner" and not table.bots_paused
    lb.handle(1, {"type": "bots", "table": 1, "paused": True, "delay": 2.0})
    assert rec.sent(1, "view")[-1]["view"]["bots"] == {"paused": True, "by": "p1",
                                                       "delay": 2.0}
    info = lb.tables_info()[0]  # the lobby's entry says it too, and whose it is
    assert (info["bots"]["paused"], info["owner"]) == (True, 0)
    lb.handle(1, {"type": "bots", "table": 1, "paused": True, "delay": 60.0})
    assert rec.sent(1, "error")[-1]["code"] == "bad_delay"
    assert table.bot_delay == 2.0  # out of bounds: nothing changed


def test_a_pause_at_a_secret_step_reaches_every_seat_at_the_steps_next_tick() -> None:
    # (a tick at which the engine's state did not change is one "same" frame for every seat:
    # a change of the bots is not nothing)
    lb, rec, _roles = fang_table(6)
    to_secret_step(lb)
    lb.cadence(1)
    rec.take()
    lb.handle(1, {"type": "bots", "table": 1, "paused": True, "delay": None})
    assert rec.frames() == {}  # paced: it waits for the tick
    lb.cadence(1)
    assert all(rec.sent(c, "view")[-1]["view"]["bots"]["paused"] for c in range(1, 7))
    frames = rec.frames()
    assert len({len(f) for fs in frames.values() for f in fs}) == 1


def test_a_timer_that_ran_out_just_before_a_pause_at_a_secret_step_waits_for_the_bots() -> None:
    # at a secret step an expiry waits for the step's tick; the owner pausing before that
    # tick holds the clock, so it is not applied then but runs again when the bots go on
    lb, rec, _roles = fang_table(6)
    table = to_secret_step(lb)
    while table.timer_key is None:  # to a timed secret step
        lb.handle(table.waiting_for()[0] + 1, {
            "type": "act", "table": 1, "state_id": table.state_id,
            "action": table.engine.legal_actions(table.state, table.waiting_for()[0])[0]})
        lb.cadence(1)
    key, version = table.timer_key, table.version
    lb.timeout(1, key)  # queued for the tick
    lb.handle(1, {"type": "bots", "table": 1, "paused": True, "delay": None})
    lb.cadence(1)
    assert (table.version, table.timer_key) == (version, key)
    rec.take()
    lb.handle(1, {"type": "bots", "table": 1, "paused": False, "delay": None})
    timers = [e for e in rec.take() if isinstance(e, SetTimer)]
    assert [t.key for t in timers] == [key] and timers[0].seconds >= RESUME_LEAST


def test_a_slowed_table_asks_its_bots_after_its_own_delay(party) -> None:
    lb, rec, _clock = party
    table = bot_table(lb, rec)
    lb.set_bots(1, False, 3.5)  # the host's own screen
    lb.handle(1, {"type": "act", "table": 1, "state_id": table.state_id,
                  "action": {"type": "play", "card": table.state["hands"][0][0]}})
    assert {(e.seat, e.delay) for e in rec.take() if isinstance(e, BotTurn)} == {
        (1, 3.5), (2, 3.5)}
