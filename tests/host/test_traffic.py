"""The traffic rule (protocol/traffic.py) over random games of all three games: every change of
a table — and every tick of a secret step, whether or not anything changed — sends every
connected seat exactly one frame, and all frames of that change have one length (a multiple of
1 KiB) — whatever happened in secret (acts, refusals, whispers, covers). Upstream, every client
frame after auth is padded to a multiple of 256 bytes."""

from __future__ import annotations

import random

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from host.core import Send
from host.lobby import Lobby
from host.render import secret_of, step_of
from protocol import frames, messages, traffic
from tests.host.test_lobby import Recorder, ident

SEATS = {"hexenhammer": 4, "hranice": 4, "fang": 6}


def seated(game: str, seats: int, seed: int,
           clock: list[float] | None = None) -> tuple[Lobby, Recorder]:
    rec = Recorder()
    lb = (Lobby(rec, seed_source=lambda: seed) if clock is None
          else Lobby(rec, seed_source=lambda: seed, clock=lambda: clock[0]))
    for n in range(1, seats + 1):
        lb.connect(n, ident(n), f"p{n}")
    lb.handle(1, {"type": "create", "game": game, "seats": seats, "options": {}})
    for n in range(2, seats + 1):
        lb.handle(n, {"type": "sit", "table": 1, "seat": None})
    lb.handle(1, {"type": "start", "table": 1})
    return lb, rec


def one_change(lb: Lobby, rng: random.Random) -> str:
    """Make one random change at table 1 (as a player, a cheat or the clock would)."""
    table = lb.tables[1]
    n = len(table.seats)
    waiting = table.waiting_for()
    roll = rng.random()
    if roll < 0.08:  # a stale or illegal act from anyone
        seat = rng.randrange(n)
        sid = table.state_id + rng.choice([-5, 0, 3])
        lb.handle(seat + 1, {"type": "act", "table": 1, "state_id": max(0, sid),
                             "action": {"type": "nonsense"}})
        return "refused act"
    if roll < 0.14:  # a chat line, maybe on the witches' channel (refused for most)
        lb.handle(rng.randrange(n) + 1, {"type": "chat", "text": "x" * rng.randrange(1, 300),
                                         "channel": rng.choice(["table", "witches"])})
        return "chat"
    if roll < 0.24 and secret_of(table) is not None:
        lb.handle(rng.randrange(n) + 1, {"type": "cover", "table": 1,
                                         "key": secret_of(table)["key"]})
        return "cover"
    if not waiting or roll < 0.27:
        deadline = table.engine.deadline(table.state)
        if deadline is not None:
            lb.timeout(1, deadline.key)
            return "timeout"
        if not waiting:
            return "nothing"
    seat = rng.choice(waiting)
    legal = table.engine.legal_actions(table.state, seat)
    lb.handle(seat + 1, {"type": "act", "table": 1, "state_id": table.state_id,
                         "action": rng.choice(legal)})
    return "act"


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(SEATS))  # every game, not whichever Hypothesis draws
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_every_change_sends_every_seat_one_frame_of_one_length(game, seed) -> None:
    now = [0.0]  # a second per change: chat stays within its budget (host/playing.py)
    lb, rec = seated(game, SEATS[game], seed, now)
    rng = random.Random(seed)
    everyone = list(range(1, SEATS[game] + 1))
    start = rec.frames()
    assert sorted(start) == everyone and len({len(f[0]) for f in start.values()}) == 1
    for _ in range(300):
        if lb.tables[1].status != "playing":
            break
        now[0] += 1.0
        rec.take()
        paced = lb.changes.is_paced(lb.tables[1])
        what = one_change(lb, rng)
        if paced:  # at a secret step nothing answers what came: the step's tick does
            assert rec.frames() == {}, f"a {what} at a secret step sent frames at once"
            lb.cadence(1)
        got = rec.frames()
        if not got:  # (outside a secret step a cover is dropped, nothing else is silent)
            assert what in ("cover", "nothing") and not paced, f"a {what} sent no frame"
            continue
        assert sorted(got) == everyone, f"after a {what}: frames to {sorted(got)}"
        assert all(len(fs) == 1 for fs in got.values()), f"after a {what}: two frames to one"
        lengths = {len(fs[0]) for fs in got.values()}
        assert len(lengths) == 1, f"after a {what}: frame lengths {sorted(lengths)}"
        assert lengths.pop() % traffic.DOWN_CLASS == 0


def to_the_witches_window(lb: Lobby) -> None:
    """Random changes at table 1 (a Fang table), each step's tick after them, until the
    witches' window opens."""
    table = lb.tables[1]
    rng = random.Random(3)
    for _ in range(600):
        if step_of(table) is not None and table.state["scene"]["name"] == "witches":
            break
        one_change(lb, rng)
        lb.cadence(1)


def test_a_secret_steps_tick_sends_every_seat_one_frame_of_one_length_whatever_came() -> None:
    # Today's rule (issue 22) in place of "a cover is answered while its step is open, as
    # often as it counts": nothing that comes at a secret step is answered by itself — an
    # action, a cover or a flood of either waits; each tick of the step's cadence sends every
    # seat one frame, of one length, whether an action, a cover or nothing came.
    lb, rec = seated("fang", 6, 11)
    table = lb.tables[1]
    to_the_witches_window(lb)
    assert lb.changes.is_paced(table) and secret_of(table) is not None
    witch = table.waiting_for()[0]
    cat = next(i for i in range(6) if i not in table.waiting_for())  # not a witch
    key = secret_of(table)["key"]
    for came in ("nothing", "covers", "an action"):
        rec.take()
        if came == "covers":
            for _ in range(6):
                lb.handle(cat + 1, {"type": "cover", "table": 1, "key": key})
        elif came == "an action":
            legal = table.engine.legal_actions(table.state, witch)
            lb.handle(witch + 1, {"type": "act", "table": 1, "state_id": table.state_id,
                                  "action": legal[0]})
        assert rec.frames() == {}, f"{came} was answered at once"
        lb.cadence(1)
        got = rec.frames()
        assert sorted(got) == list(range(1, 7)) and all(len(f) == 1 for f in got.values())
        assert {len(f[0]) for f in got.values()} == {traffic.DOWN_CLASS}, came
    assert table.state["today"]["witches"][witch]["stage"] == "spell"  # the action was applied
    rec.take()
    lb.handle(cat + 1, {"type": "cover", "table": 1, "key": "s99999"})  # a stale key: dropped
    assert rec.frames() == {}


def test_a_player_not_seated_gets_a_plain_refusal_that_no_seat_sees() -> None:
    lb, rec = seated("hranice", 4, 5)
    lb.connect(9, ident(9), "outsider")
    rec.take()
    lb.handle(9, {"type": "act", "table": 1, "state_id": 0, "action": {"type": "pass"}})
    assert [e.conn for e in rec.take() if isinstance(e, Send)] == [9]


def test_a_reconnecting_seat_gets_its_whole_view_padded_like_any_seats_full_view() -> None:
    lb, rec = seated("fang", 6, 2)
    rec.take()
    lb.disconnect(3)
    rec.take()
    lb.connect(13, ident(3), "p3")
    (data,) = rec.frames()[13]
    msg = frames.decode(data[4:])
    assert msg["log_reset"] and "view" in msg and len(data) % traffic.DOWN_CLASS == 0
    full_sizes = set()
    for other in (1, 2, 4, 5, 6):  # every seat's own full frame fits the same size class
        lb.disconnect(other)
        lb.connect(20 + other, ident(other), f"p{other}")
        full_sizes.add(len(rec.frames()[20 + other][-1]))
    assert full_sizes == {len(data)}


def test_upstream_frames_after_auth_are_padded_to_one_size_class() -> None:
    small = [{"type": "act", "table": 3, "state_id": 12345, "action": {"type": "see",
                                                                      "target": 4}},
             {"type": "cover", "table": 3, "key": "d2:17:witches"},
             {"type": "ping", "t": 1712345678.25},
             {"type": "chat", "text": "ok", "channel": "witches"},
             {"type": "act", "table": 3, "state_id": 1, "action": {"type": "confirm"}}]
    sizes = {len(traffic.encode_up(m, frames.POST_AUTH_MAX)) for m in small}
    assert sizes == {traffic.UP_CLASS}
    long = traffic.encode_up({"type": "chat", "text": "é" * 300, "channel": "table"},
                             frames.POST_AUTH_MAX)
    assert len(long) % traffic.UP_CLASS == 0 and len(long) > traffic.UP_CLASS
    for m in small:  # and the host reads them as the plain messages
        data = traffic.encode_up(m, frames.POST_AUTH_MAX)
        got = messages.validate(frames.decode(data[4:]), "c2h")
        assert traffic.without_pad(got) == m


@given(st.lists(st.tuples(st.text(min_size=1, max_size=8), st.binary(max_size=3000)),
                max_size=6), st.integers(0, 70_000))
def test_assemble_makes_frames_of_exactly_the_size_asked(fields, extra) -> None:
    parts = [(k, traffic.packed(v)) for k, v in dict(fields).items()]
    size = traffic.needed(parts) + extra
    data = traffic.assemble(parts, size)
    assert len(data) == size
    decoded = msgpack.unpackb(data[4:], raw=False)
    assert {k: decoded[k] for k, _ in parts} == dict(fields)


@given(st.lists(st.tuples(st.text(min_size=1, max_size=8), st.binary(max_size=3000)),
                max_size=6), st.integers(0, 70_000))
def test_a_frame_less_its_pad_cost_is_the_frame_it_would_be_unpadded(fields, extra) -> None:
    plain = {k: v for k, v in dict(fields).items() if k != "pad"}
    parts = [(k, traffic.packed(v)) for k, v in plain.items()]
    data = traffic.assemble(parts, traffic.needed(parts) + extra)
    decoded = msgpack.unpackb(data[4:], raw=False)
    assert len(data) - traffic.pad_cost(decoded, data[4:]) == 4 + len(traffic.packed(plain))
    assert traffic.pad_cost(plain, traffic.packed(plain)) == 0


@pytest.mark.parametrize("pad", [255, 256, 65535, 65536])
def test_the_pad_cost_reads_a_longer_header_than_the_pad_needs(pad) -> None:
    # room for the pad between two header sizes: assemble writes the longer header
    parts = [("type", traffic.packed("view"))]
    for size in range(traffic.needed(parts) + pad - 4, traffic.needed(parts) + pad + 4):
        data = traffic.assemble(parts, size)
        decoded = msgpack.unpackb(data[4:], raw=False)
        assert len(data) - traffic.pad_cost(decoded, data[4:]) == 4 + len(
            traffic.packed({"type": "view"}))


def test_at_a_secret_step_a_refused_action_past_the_budget_still_reaches_every_seat() -> None:
    # Past its budget a refusal goes to its sender alone; at a secret step that would tell a
    # witch's refused action from a cover (always answered to every seat), so there it never does.
    from host.budget import BURST as REFUSAL_BURST

    # (Now the refusal rides in the step's next tick, which every seat gets anyway.)
    lb, rec = seated("fang", 6, 11, clock=[0.0])
    table = lb.tables[1]
    to_the_witches_window(lb)
    assert secret_of(table) is not None
    witch = table.waiting_for()[0]
    version = table.version
    for _ in range(3 * REFUSAL_BURST):
        rec.take()
        lb.handle(witch + 1, {"type": "act", "table": 1, "state_id": table.state_id,
                              "action": {"type": "nonsense"}})
        lb.cadence(1)
        got = rec.frames()
        assert sorted(got) == list(range(1, 7)) and len({len(f[0]) for f in got.values()}) == 1
        assert [m["code"] for m in rec.sent(witch + 1, "rejected")] == ["illegal"]
    assert table.version == version


def test_an_unchanged_ticks_frame_is_byte_for_byte_what_each_seat_would_be_sent() -> None:
    # A tick at which nothing changed skips building the views (four ticks a second per table
    # in a step): its one frame must be exactly what every seat's own rendering makes.
    from host.changes import Change
    from host.render import frames

    lb, rec = seated("fang", 6, 11)
    table = lb.tables[1]
    to_the_witches_window(lb)
    lb.cadence(1)
    conns = lb.people.seat_conns(table)
    fast = frames(table, Change(changed=True), conns)
    table.presence_rendered = None  # (the long way: every seat's view built and compared)
    slow = frames(table, Change(changed=True), conns)
    assert fast == slow and len({data for _, data in fast}) == 1


@pytest.mark.parametrize("seed", range(6))
def test_every_action_a_secret_step_waited_on_is_answered_even_after_the_game_ended(
        seed: int) -> None:
    # At every Hranice reaction window each asked seat answers, and then a seat that is not
    # asked sends a pass at the same state id (a client late with its frame, as the bench's
    # are). The step's tick applies them in the order they came; the last answer may end the
    # game. Each action sent gets its one answer in that tick's frames — ``answered`` or a
    # refusal — never nothing (the host dropped the ones after the end without a word).
    lb, rec = seated("hranice", 4, seed)
    table = lb.tables[1]
    rng = random.Random(seed)
    ended_in_a_step = False
    for _ in range(2000):
        if table.status != "playing":
            break
        if not lb.changes.is_paced(table):
            one_change(lb, rng)
            continue
        rec.take()
        senders = table.waiting_for()
        for seat in senders:
            legal = table.engine.legal_actions(table.state, seat)
            lb.handle(seat + 1, {"type": "act", "table": 1, "state_id": table.state_id,
                                 "action": rng.choice(legal)})
        late = next(s for s in range(4) if s not in senders)
        lb.handle(late + 1, {"type": "act", "table": 1, "state_id": table.state_id,
                             "action": {"type": "pass"}})
        lb.cadence(1)
        ended_in_a_step = table.status == "over"
        for seat in [*senders, late]:
            replies = [m.get("answered", m.get("code")) for m in rec.sent(seat + 1)
                       if "answered" in m or m["type"] == "rejected"]
            assert len(replies) == 1, f"seat {seat}: {replies} (game {table.status})"
        if ended_in_a_step:  # the late pass came after the end: refused as come too late
            assert [m["code"] for m in rec.sent(late + 1, "rejected")] == ["stale"]
    assert table.status == "over"
