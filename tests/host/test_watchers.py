"""Watching a table in the sans-I/O core (host/watchers.py): the public view only, one frame per
change, the table's rules (forbid, delay), watchers listed, a watcher taking a free seat and a
player leaving to watch. Driven directly, no sockets."""

from __future__ import annotations

from typing import Any

import msgpack
import pytest

from hexnet.engine import public_form, visible
from hexnet.games import get_game
from host.core import LobbyError, Send, WatchRulesChanged, one_by_one
from host.lobby import Lobby
from host.watchers import WatchRules
from protocol import traffic
from protocol.messages import validate
from protocol.traffic import LobbyBook, ViewBook


class Wire:
    """The core's effects read as clients read them: watchers' frames into their own books."""

    def __init__(self) -> None:
        self.effects: list[Any] = []
        self.watch: dict[int, ViewBook] = {}
        self.lobbies: dict[int, LobbyBook] = {}
        self.read: list[tuple[int, dict]] = []
        self.raw: list[tuple[int, bytes]] = []  # (conn, frame bytes) of watch_view frames

    def __call__(self, effects: list[Any]) -> None:
        effects = one_by_one(effects)  # a tick's frames, one Send each
        self.effects.extend(effects)
        for e in effects:
            if not isinstance(e, Send):
                continue
            msg = validate(traffic.without_pad(dict(e.msg)), "h2c")
            if msg["type"] == "watch_view":
                self.raw.append((e.conn, e.data))
                msgs = self.watch.setdefault(e.conn, ViewBook()).absorb(
                    {**msg, "type": "view"})
            elif msg["type"] in ("lobby", "lobby_delta"):
                msgs = [self.lobbies.setdefault(e.conn, LobbyBook()).absorb(msg)]
            else:
                msgs = [msg]
            self.read += [(e.conn, m) for m in msgs]

    def sent(self, conn: int, kind: str | None = None) -> list[dict]:
        return [m for c, m in self.read if c == conn and (kind is None or m["type"] == kind)]

    def frames_to(self, conn: int) -> list[bytes]:
        return [d for c, d in self.raw if c == conn]

    def lobby_of(self, conn: int) -> dict:
        book = self.lobbies[conn]
        return {"tables": book.tables, "you": book.you}


def ident(n: int) -> bytes:
    return bytes([n]) * 32


@pytest.fixture
def host() -> tuple[Lobby, Wire]:
    wire = Wire()
    lb = Lobby(wire, seed_source=lambda: 11)
    for n in (1, 2, 3, 4, 5):
        lb.connect(n, ident(n), f"p{n}")
    return lb, wire


def toy_table(lb: Lobby, options: dict | None = None, start: bool = True) -> int:
    lb.handle(1, {"type": "create", "game": "toy", "seats": 2, "options": options or {}})
    tid = max(lb.tables)
    lb.handle(2, {"type": "sit", "table": tid, "seat": 1})
    if start:
        lb.handle(1, {"type": "start", "table": tid})
    return tid


def play_one(lb: Lobby, tid: int) -> None:
    table = lb.tables[tid]
    seat = table.waiting_for()[0]
    conn = {0: 1, 1: 2}[seat]
    view, legal = table.view(seat)
    lb.handle(conn, {"type": "act", "table": tid, "state_id": table.state_id,
                     "action": legal[0]})


def test_a_watcher_gets_exactly_the_public_view_and_the_public_events(host) -> None:
    lb, wire = host
    tid = toy_table(lb)
    lb.handle(3, {"type": "watch", "table": tid})
    for _ in range(4):
        play_one(lb, tid)
    table = lb.tables[tid]
    assert table.status == "playing"
    views = wire.sent(3, "view")
    assert views, "the watcher got no view"
    last = dict(views[-1]["view"])
    log = last.pop("log")
    presence = last.pop("presence")  # who is here: public, the same every seat gets
    assert presence == lb.presence_of(table)
    public = table.engine.view(table.state, None, log=False)
    public["state_id"] = table.state_id  # the seats' publication counter, not the engine's
    assert last == public
    # numbered by the watcher's own count: nobody's private events leave gaps (issue 22)
    assert log == [{**public_form(e), "n": i} for i, e in enumerate(
        e for e in table.state["log"] if visible(e, None))][-40:]
    assert wire.sent(3, "view")[-1]["legal"] == []


def test_a_watcher_gets_one_frame_per_change_like_every_seat(host) -> None:
    lb, wire = host
    tid = toy_table(lb)
    lb.handle(3, {"type": "watch", "table": tid})
    before = len(wire.frames_to(3))
    seat_before = sum(1 for e in wire.effects if isinstance(e, Send) and e.conn == 2
                      and e.data is not None and e.msg["type"] == "view")
    for _ in range(3):
        play_one(lb, tid)
    seat_after = sum(1 for e in wire.effects if isinstance(e, Send) and e.conn == 2
                     and e.data is not None and e.msg["type"] == "view")
    assert len(wire.frames_to(3)) - before == seat_after - seat_before == 3


def test_a_watchers_frame_is_padded_to_the_class_of_its_public_parts(host) -> None:
    lb, wire = host
    tid = toy_table(lb)
    lb.handle(3, {"type": "watch", "table": tid})
    play_one(lb, tid)
    for data in wire.frames_to(3):
        assert len(data) % traffic.DOWN_CLASS == 0
        msg = msgpack.unpackb(data[4:], raw=False)
        parts = [(k, traffic.packed(v)) for k, v in msg.items() if k != "pad"]
        assert len(data) == traffic.size_class(traffic.needed(parts))


def test_watchers_are_listed_at_the_table_in_the_lobby(host) -> None:
    lb, wire = host
    tid = toy_table(lb)
    lb.handle(3, {"type": "watch", "table": tid})
    lb.handle(4, {"type": "watch", "table": tid})
    entry = wire.lobby_of(5)["tables"][tid]
    assert entry["watchers"] == ["p3", "p4"]
    assert wire.lobby_of(3)["you"]["watching"] == tid
    lb.handle(4, {"type": "unwatch"})
    assert wire.lobby_of(5)["tables"][tid]["watchers"] == ["p3"]
    assert wire.lobby_of(4)["you"].get("watching") is None


def test_a_watcher_who_disconnects_is_no_longer_listed(host) -> None:
    lb, wire = host
    tid = toy_table(lb)
    lb.handle(3, {"type": "watch", "table": tid})
    lb.disconnect(3)
    assert wire.lobby_of(5)["tables"][tid]["watchers"] == []


def test_the_creator_may_forbid_watching_and_watchers_are_sent_away(host) -> None:
    lb, wire = host
    tid = toy_table(lb)
    lb.handle(3, {"type": "watch", "table": tid})
    lb.handle(4, {"type": "watch_rules", "table": tid, "allowed": False})  # not the creator
    assert wire.sent(4, "error")[-1]["code"] == "not_creator"
    assert lb.watching(lb.conns[3]) == tid
    lb.handle(1, {"type": "watch_rules", "table": tid, "allowed": False})
    assert wire.sent(3, "unwatched")[-1]["code"] == "no_watching"
    assert lb.watching(lb.conns[3]) is None
    n = len(wire.frames_to(3))
    play_one(lb, tid)
    assert len(wire.frames_to(3)) == n
    lb.handle(3, {"type": "watch", "table": tid})
    assert wire.sent(3, "error")[-1]["code"] == "no_watching"
    assert wire.lobby_of(5)["tables"][tid]["watch"] is False


def test_a_table_created_without_watching_refuses_watchers(host) -> None:
    lb, wire = host
    tid = toy_table(lb, {"watch": False})
    lb.handle(3, {"type": "watch", "table": tid})
    assert wire.sent(3, "error")[-1]["code"] == "no_watching"
    assert "watch" not in lb.tables[tid].options  # never reaches the game


def test_the_host_may_forbid_watching_any_table(host) -> None:
    lb, wire = host
    tid = toy_table(lb)
    lb.set_watch_rules(tid, False)
    with pytest.raises(LobbyError):
        lb.watch_table(lb.conns[3], tid)


def test_watching_options_out_of_bounds_are_refused(host) -> None:
    lb, wire = host
    lb.handle(1, {"type": "create", "game": "toy", "seats": 2,
                  "options": {"watch_delay": 51}})
    assert wire.sent(1, "error")[-1]["code"] == "bad_options"
    lb.handle(1, {"type": "create", "game": "toy", "seats": 2, "options": {"watch": "no"}})
    assert wire.sent(1, "error")[-1]["code"] == "bad_options"


def test_a_delayed_watcher_sees_the_public_view_n_actions_late(host) -> None:
    lb, wire = host
    tid = toy_table(lb, {"watch_delay": 2})
    table = lb.tables[tid]
    engine = get_game("toy")
    lb.handle(3, {"type": "watch", "table": tid})
    publics = [engine.view(table.state, None, log=False)]
    for _ in range(5):
        play_one(lb, tid)
        if table.status != "playing":
            break
        publics.append(engine.view(table.state, None, log=False))
    seen = dict(wire.sent(3, "view")[-1]["view"])
    seen.pop("log")
    assert seen.pop("state_id") == table.state_id  # the table's publications, undelayed
    for public in publics:
        public.pop("state_id")
    assert seen == publics[len(publics) - 1 - 2]
    assert seen != publics[-1]


def test_the_delay_is_set_before_the_start_only(host) -> None:
    lb, wire = host
    tid = toy_table(lb, start=False)
    lb.handle(1, {"type": "watch_rules", "table": tid, "allowed": True, "delay": 3})
    assert lb.rules_of(tid).delay == 3
    lb.handle(1, {"type": "start", "table": tid})
    lb.handle(1, {"type": "watch_rules", "table": tid, "allowed": True, "delay": 0})
    # (a seated player's refusal about its playing table rides in the table's frames)
    assert [m for m in read_frames(wire, 1) if m["type"] == "error"][-1]["code"] == "not_open"
    assert lb.rules_of(tid).delay == 3


def test_after_the_end_a_watcher_gets_every_event_and_the_reveal(host) -> None:
    lb, wire = host
    tid = toy_table(lb)
    lb.handle(3, {"type": "watch", "table": tid})
    table = lb.tables[tid]
    for _ in range(200):
        if table.status != "playing":
            break
        play_one(lb, tid)
    assert table.status == "over"
    last = wire.sent(3, "view")[-1]["view"]
    assert last["outcome"] == table.engine.outcome(table.state)
    assert [{k: v for k, v in e.items() if k != "n"} for e in last["log"]] == [
        {k: v for k, v in public_form(e).items() if k != "n"}
        for e in table.state["log"]][-40:]
    # numbered on from the watcher's own count: the public events it had keep their numbers,
    # the private ones now shown come after everything it had seen
    before = [e["n"] for e in wire.sent(3, "view")[-2]["view"]["log"]]
    news = [e["n"] for e, raw in zip(last["log"], table.state["log"][-40:], strict=True)
            if "to" in raw]
    assert news and min(news) > max(before) and news == sorted(news)
    reveals = wire.sent(3, "reveal")
    assert reveals and reveals[0]["seed"] == table.seed
    assert len(wire.sent(3, "reveal")) == len(reveals)
    # a late watcher of the finished table gets the same
    lb.handle(4, {"type": "watch", "table": tid})
    assert wire.sent(4, "view")[-1]["view"]["outcome"] == last["outcome"]
    assert len(wire.sent(4, "reveal")) == len(reveals)


def test_a_watcher_sits_in_an_empty_seat_and_stops_watching(host) -> None:
    lb, wire = host
    lb.handle(1, {"type": "create", "game": "toy", "seats": 2, "options": {}})
    tid = max(lb.tables)
    lb.handle(3, {"type": "watch", "table": tid})
    lb.handle(3, {"type": "sit", "table": tid, "seat": None})
    assert lb.tables[tid].seat_of(ident(3)) == 1
    assert lb.watching(lb.conns[3]) is None
    assert wire.lobby_of(5)["tables"][tid]["watchers"] == []


def test_a_player_leaves_to_watch_and_a_watcher_takes_the_free_seat(host) -> None:
    lb, wire = host
    tid = toy_table(lb)
    table = lb.tables[tid]
    lb.handle(3, {"type": "watch", "table": tid})
    lb.handle(2, {"type": "watch", "table": tid})  # the player at seat 1 leaves to watch
    assert table.seats[1].identity is None and table.seats[1].absent
    assert lb.watching(lb.conns[2]) == tid
    assert wire.lobby_of(5)["tables"][tid]["seats"][1]["free"] is True
    lb.handle(3, {"type": "sit", "table": tid, "seat": None})
    assert table.seat_of(ident(3)) == 1
    assert not table.seats[1].absent
    assert lb.watching(lb.conns[3]) is None
    assert wire.lobby_of(3)["you"]["table"] == tid
    # the new player gets their seat's whole view and legal actions
    view = [m for m in wire.read if m[0] == 3 and m[1]["type"] == "view"
            and m[1]["view"].get("seat") == 1]
    assert view, "the new player got no view of their seat"


def test_a_taken_seat_of_a_playing_table_is_not_free(host) -> None:
    lb, wire = host
    tid = toy_table(lb)
    lb.handle(3, {"type": "sit", "table": tid, "seat": 1})
    assert wire.sent(3, "error")[-1]["code"] == "not_open"


async def test_the_host_dashboard_w_forbids_and_allows_watching_a_table(tmp_path) -> None:
    from host.dashboard import Dashboard
    from host.server import Host

    host = Host("Dash", tmp_path / "cfg", tmp_path / "data", bot_delay=0, games=["hranice"])
    host.lobby.create_table("hranice", 3, {})
    app = Dashboard(host)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("w")
        await pilot.pause()
        assert host.lobby.rules_of(1).allowed is False
        assert host.lobby.tables_info()[0]["watch"] is False
        await pilot.press("w")
        await pilot.pause()
        assert host.lobby.rules_of(1).allowed is True
        await pilot.press("q")
        await pilot.pause()


def test_watching_another_table_frees_the_seat_at_ones_open_table_only(host) -> None:
    lb, wire = host
    tid = toy_table(lb)  # playing: p1 and p2
    lb.handle(3, {"type": "create", "game": "toy", "seats": 2, "options": {}})
    mine = max(lb.tables)
    assert lb.tables[mine].seat_of(ident(3)) == 0
    lb.handle(3, {"type": "watch", "table": tid})
    assert lb.tables[mine].seats[0].kind == "empty"
    assert [s.identity for s in lb.tables[tid].seats] == [ident(1), ident(2)]
    assert lb.watching(lb.conns[3]) == tid


def test_a_player_may_not_watch_elsewhere_while_playing(host) -> None:
    lb, wire = host
    tid = toy_table(lb)
    lb.handle(3, {"type": "create", "game": "toy", "seats": 2, "options": {}})
    other = max(lb.tables)
    lb.handle(1, {"type": "watch", "table": other})
    assert wire.sent(1, "error")[-1]["code"] == "playing"
    assert lb.tables[tid].seat_of(ident(1)) == 0


def test_the_seats_are_told_who_watches_in_one_frame_each(host) -> None:
    lb, wire = host
    tid = toy_table(lb)
    seat_frames = [e for e in wire.effects if isinstance(e, Send) and e.conn in (1, 2)
                   and e.data is not None and e.msg["type"] == "view"]
    lb.handle(3, {"type": "watch", "table": tid})
    lb.handle(4, {"type": "watch", "table": tid})
    told = [e for e in wire.effects if isinstance(e, Send) and e.conn in (1, 2)
            and e.data is not None and e.msg["type"] == "view"][len(seat_frames):]
    assert [(e.conn, e.msg["watchers"]) for e in told] == [
        (1, ["p3"]), (2, ["p3"]), (1, ["p3", "p4"]), (2, ["p3", "p4"])]
    assert len({len(e.data) for e in told[:2]}) == 1  # one length for every seat
    def views_to_1() -> list[Send]:
        return [e for e in wire.effects if isinstance(e, Send) and e.conn == 1
                and e.data is not None and e.msg["type"] == "view"]

    # a watcher whose connection went is told with the table's next change (not with a frame
    # of its own: a watcher reconnecting in a loop would make every seat receive one each time)
    before = len(views_to_1())
    lb.disconnect(4)
    assert len(views_to_1()) == before
    play_one(lb, tid)
    assert views_to_1()[-1].msg["watchers"] == ["p3"]
    # a player back after a drop finds them in the lobby it is sent as it connects: its whole
    # view alone is no burst (the other seat gets no frame for it)
    lb.disconnect(2)
    to_1 = len([e for e in wire.effects if isinstance(e, Send) and e.conn == 1])
    lb.connect(2, ident(2), "p2")
    entry = [t for t in wire.sent(2, "lobby")[-1]["tables"] if t["id"] == tid][0]
    assert entry["watchers"] == ["p3"]
    back = [e for e in wire.effects if isinstance(e, Send) and e.conn == 2
            and e.data is not None and e.msg["type"] == "view"][-1]
    assert "view" in back.msg and "watchers" not in back.msg
    assert len([e for e in wire.effects if isinstance(e, Send) and e.conn == 1]) == to_1


@pytest.mark.parametrize("record, rules", [
    (None, WatchRules()),
    ({"allowed": False, "delay": 7}, WatchRules(False, 7)),
    ({"allowed": "no", "delay": 7}, WatchRules()),  # a damaged file: the defaults
    ({"allowed": True, "delay": -1}, WatchRules()),
    (["allowed", False], WatchRules()),
])
def test_rules_kept_across_a_restart_are_checked_as_options(host, record, rules) -> None:
    lb, _wire = host
    tid = toy_table(lb, start=False)
    lb.restore_watch_rules(tid, record)
    assert lb.rules_of(tid) == rules


def test_a_switch_during_play_is_a_journal_effect_and_the_same_switch_again_is_not(host) -> None:
    lb, wire = host
    tid = toy_table(lb, {"watch_delay": 2})
    assert [e for e in wire.effects if isinstance(e, WatchRulesChanged)] == [
        WatchRulesChanged(tid, True, 2)]  # the start keeps rules that are not the defaults
    lb.set_watch_rules(tid, False)
    lb.set_watch_rules(tid, False)
    lb.handle(1, {"type": "watch_rules", "table": tid, "allowed": True})
    assert [e for e in wire.effects if isinstance(e, WatchRulesChanged)][1:] == [
        WatchRulesChanged(tid, False, 2), WatchRulesChanged(tid, True, 2)]


def test_a_table_with_the_default_rules_journals_none(host) -> None:
    lb, wire = host
    toy_table(lb)
    assert not [e for e in wire.effects if isinstance(e, WatchRulesChanged)]


def test_a_client_toggling_what_it_watches_cannot_flood_a_tables_seats() -> None:
    from host.budget import WATCH_BURST

    now = [0.0]
    wire = Wire()
    lb = Lobby(wire, seed_source=lambda: 11, clock=lambda: now[0])
    for n in (1, 2, 3):
        lb.connect(n, ident(n), f"p{n}")
    tid = toy_table(lb)

    def seat_frames() -> int:
        return sum(1 for e in wire.effects if isinstance(e, Send) and e.conn in (1, 2)
                   and e.data is not None and e.msg["type"] == "view")

    before = seat_frames()
    for i in range(100):  # at the message rate, within one second
        lb.handle(3, {"type": "watch", "table": tid} if i % 2 == 0 else {"type": "unwatch"})
    # each of the 2 seats got one frame per change the budget allowed, not one per message
    assert WATCH_BURST == 5 and seat_frames() - before == 2 * 5
    # the fifth change (a watch) stood; every unwatch since was refused (a watch of the table
    # it watches changes nothing)
    assert lb.watching(lb.conns[3]) == tid
    refusals = wire.sent(3, "error")
    assert len(refusals) == len(range(5, 100, 2))
    assert {r["code"] for r in refusals} == {"too_fast"}
    now[0] += 1.0  # a second later it may change again
    lb.handle(3, {"type": "unwatch"})
    assert lb.watching(lb.conns[3]) is None and len(wire.sent(3, "error")) == len(refusals)


def read_frames(wire: Wire, conn: int) -> list[dict]:
    """What ``conn``'s session makes of the table frames it was sent (replies, chat…)."""
    book, out = ViewBook(), []
    for e in wire.effects:
        if isinstance(e, Send) and e.conn == conn and e.msg["type"] == "view":
            out += book.absorb(validate(traffic.without_pad(dict(e.msg)), "h2c"))
    return out


def two_at_a_toy_table() -> tuple[Lobby, Wire, list[float], int]:
    """p1 and p2 playing the toy game, on a clock the test moves (``now[0]``)."""
    now = [0.0]
    wire = Wire()
    lb = Lobby(wire, seed_source=lambda: 11, clock=lambda: now[0])
    for n in (1, 2):
        lb.connect(n, ident(n), f"p{n}")
    return lb, wire, now, toy_table(lb)


def test_a_chat_flood_at_a_playing_table_reaches_its_seats_as_the_budget_allows() -> None:
    from host.budget import CHAT_BURST

    lb, wire, now, tid = two_at_a_toy_table()

    def frames_to(conn: int) -> int:
        return sum(1 for e in wire.effects if isinstance(e, Send) and e.conn == conn
                   and e.data is not None and e.msg["type"] == "view")

    def read(conn: int) -> list[dict]:
        return read_frames(wire, conn)

    before = frames_to(2)
    for i in range(100):  # at the message rate, within one second
        lb.handle(1, {"type": "chat", "text": f"spam {i}", "channel": "table"})
    # the burst's lines and one "too fast" answer (a frame to every seat each), not 100
    assert CHAT_BURST == 5 and frames_to(2) - before == 5 + 1
    assert [m["text"] for m in read(2) if m["type"] == "chat"] == [f"spam {i}" for i in range(5)]
    assert [m["code"] for m in read(1) if m["type"] == "error"] == ["chat_too_fast"]
    now[0] += 1.0  # a second later one more line goes through
    lb.handle(1, {"type": "chat", "text": "later", "channel": "table"})
    assert [m["text"] for m in read(2) if m["type"] == "chat"][-1] == "later"
    assert lb.tables[tid].status == "playing"


def test_a_lobby_chat_flood_is_refused_to_its_sender_only() -> None:
    wire = Wire()
    lb = Lobby(wire, seed_source=lambda: 11, clock=lambda: 0.0)
    for n in (1, 2, 3):
        lb.connect(n, ident(n), f"p{n}")
    for i in range(20):
        lb.handle(1, {"type": "chat", "text": f"spam {i}", "channel": "lobby"})
    assert [m["text"] for m in wire.sent(3, "chat")] == [f"spam {i}" for i in range(5)]
    assert [m["code"] for m in wire.sent(1, "error")] == ["chat_too_fast"] * 15
    assert wire.sent(3, "error") == []


def test_a_flood_of_refused_actions_reaches_the_other_seats_only_as_the_budget_allows() -> None:
    from host.budget import BURST as REFUSAL_BURST

    lb, wire, now, tid = two_at_a_toy_table()
    table = lb.tables[tid]

    def frames_to(conn: int) -> list[bytes]:
        return [e.data for e in wire.effects if isinstance(e, Send) and e.conn == conn
                and e.data is not None and e.msg["type"] == "view"]

    def rejected(conn: int) -> list[str]:
        return [m["code"] for m in read_frames(wire, conn) if m["type"] == "rejected"]

    before = (len(frames_to(1)), len(frames_to(2)))
    stale = table.state_id - 1
    for _ in range(100):  # stale actions at the message rate, within one second
        lb.handle(2, {"type": "act", "table": tid, "state_id": stale, "action": {"type": "x"}})
    # every refusal answered to the sender, but only the budget's in a frame to the other seat
    assert REFUSAL_BURST == 10
    assert len(frames_to(2)) - before[1] == 100 and rejected(2) == ["stale"] * 100
    assert len(frames_to(1)) - before[0] == REFUSAL_BURST and rejected(1) == []
    # the sender-only frames are of the length the table's frames have: nothing in their size
    assert len({len(f) for f in frames_to(2)[before[1]:]}) == 1
    now[0] += 1.0  # two a second again in a frame to every seat
    for _ in range(3):
        lb.handle(2, {"type": "act", "table": tid, "state_id": stale, "action": {"type": "x"}})
    assert len(frames_to(1)) - before[0] == REFUSAL_BURST + 2
    version = table.version
    play_one(lb, tid)  # the game goes on for both
    assert table.status in ("playing", "over") and table.version == version + 1
