"""Fang die Hexe over real TLS: bot clients play whole games; every frame each seat received is
decoded and checked against the host's state at the moment it was sent for any secret that seat
is not entitled to (roles, other hands, private log events such as picks' day summaries, laid
ritual cards, seer results and thefts, spoiled marks, cat counts, others' votes before all have
voted). Issue 4's table: 12 seats, short timers, one client gone after the start, to the end."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from client.session import Session
from hexnet.engine import public_form, visible
from hexnet.games import get_policy
from hexnet.games.fang import GAME, data
from host.core import Send, one_by_one
from host.server import Host
from protocol.traffic import news_in
from tests.hexnet.fang.test_properties import _entitled_roles

CARD_ID = re.compile(r'"(i\d+)"')
VOTE_SCENES = ("proposal_vote", "vote")
SHORT_TIMERS = {"time_limits": True, "pick_seconds": 1.0, "witches_seconds": 0.8,
                "talk_seconds": 1.0, "proposal_seconds": 1.0, "proposal_vote_seconds": 1.0,
                "vote_seconds": 1.0, "pause_seconds": 0.2}


def _blank_others_votes(state: dict[str, Any], seat: int) -> dict[str, Any]:
    """A copy of ``state`` in which every other seat's pending vote is unknown."""
    other = copy.deepcopy(state)
    choice = other["scene"].get("choice")
    if isinstance(choice, list):
        for s in range(len(choice)):
            if s != seat:
                choice[s] = None
    return other





class FangWatch:
    """Per publication (the ``state_id`` the seats see), what each seat may see — recorded from
    the host's state as the views go out: its facts, and the events it may see in order (the
    ``n`` of an event a seat receives is its index there: the seat's own numbering)."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.table: int | None = None
        self.facts: dict[int, list[dict[str, Any]]] = {}
        self.views_sent = 0
        host.add_listener(self._on_effects)

    def _on_effects(self, effects: list[Any]) -> None:
        for e in one_by_one(effects):
            if not (isinstance(e, Send) and e.msg["type"] == "view" and news_in(e.msg)):
                continue
            self.views_sent += 1
            self.table = e.msg["table"]
            table = self.host.lobby.tables[e.msg["table"]]
            state = table.state
            assert table.rendered_version == state["version"], "a view of an older state"
            sid = e.msg["state_id"]
            if sid not in self.facts:
                self.facts[sid] = [self._facts(state, s) for s in range(state["n"])]

    @staticmethod
    def _facts(state: dict[str, Any], seat: int) -> dict[str, Any]:
        scene = state["scene"].get("name")
        over = state["outcome"] is not None
        facts = {"roles": _entitled_roles(state, seat), "role": state["roles"][seat],
                 "hand": {c["id"] for c in state["hands"][seat]}, "scene": scene,
                 "over": over, "blind_view": None,
                 "events": [public_form(e) for e in state["log"] if visible(e, seat)]}
        if scene in VOTE_SCENES and not over:
            facts["blind_view"] = _plain(GAME.view(_blank_others_votes(state, seat), seat))
        return facts

    def leaks(self, frames: list[dict[str, Any]], seat: int) -> list[str]:
        """Everything in ``frames`` (one seat's, in order) that seat should not have seen."""
        found: list[str] = []
        sid = None
        for msg in frames:
            if msg["type"] == "view" and msg["table"] == self.table:
                sid = msg["view"]["state_id"]
            if sid is None:
                continue
            f = self.facts[sid][seat]
            bad = self._check(msg, f, seat)
            found += [f"seat {seat} at state {sid} ({msg['type']}): {b}" for b in bad]
        return found

    def _check(self, msg: dict[str, Any], f: dict[str, Any], seat: int) -> list[str]:
        text = json.dumps(msg, default=repr)
        bad = []
        if "spoiled" in text:
            bad.append("a spoiled mark")
        if others := set(CARD_ID.findall(text)) - f["hand"]:
            bad.append(f"cards {sorted(others)} not in its hand")
        if msg["type"] != "view":
            return bad
        v = msg["view"]
        if v["roles"] != f["roles"]:
            bad.append(f"roles {v['roles']} (entitled: {f['roles']})")
        for event in v["log"]:  # the seat's n-th event of those it may see, numbered so
            mine = f["events"]
            if not (0 <= event["n"] < len(mine) and _unnumbered(mine[event["n"]])
                    == _unnumbered(event)):
                bad.append(f"an event it may not see ({event.get('kind')}, n {event['n']})")
        role, scene = f["role"], f["scene"]
        if v["cat_counts"] is not None and not (
                (scene == "witches" and role == data.WITCH)
                or (scene == "guard" and role == data.PROTECTOR)):
            bad.append("cat counts")
        if ("seen" in v) != (role == data.SEER):
            bad.append("seer results")
        if "witch" in v and role != data.WITCH:
            bad.append("a witch's choices")
        if scene in ("pick", "guard", "witches") and not f["over"] and (
                set(v["active"]) - {seat} or v["submitted"]):
            bad.append("who is still picking")
        # (the table's presence rides along, the same for every seat: not the engine's view)
        if f["blind_view"] is not None and _plain(v) != f["blind_view"]:
            bad.append("others' votes before all voted")
        return bad


def _plain(view: dict[str, Any]) -> dict[str, Any]:
    """A view without what the host numbers (state id, log) or adds (presence)."""
    return {k: x for k, x in view.items() if k not in ("presence", "state_id", "log")}


def _unnumbered(event: dict[str, Any]) -> dict[str, Any]:
    return {k: x for k, x in event.items() if k != "n"}


async def play_fang(sessions: list[Session], tid: int, policy: str, seed: int,
                    on_message: Callable[[int, dict[str, Any]], None],
                    dawdle: dict[int, float] | None = None,
                    gone: set[int] = frozenset(), seconds: float = 150.0) -> list[Any]:
    """Let every session but those in ``gone`` (closed at once) play table ``tid`` to the end:
    each answers a new choice with ``policy``, except that a session ``i`` in ``dawdle`` lets a
    choice pass with that probability (the table's timers answer). The outcomes seen."""
    choose = get_policy("fang", policy)
    dawdle = dawdle or {}

    async def play(i: int, s: Session) -> Any:
        rng = random.Random(seed * 100 + i)
        answered: Any = None
        latest: dict[str, Any] | None = None
        for _ in range(100_000):
            msg = await s.next_message(2.0)
            if msg is None:  # nothing new for a while: answer the latest choice again
                msg, answered = latest, None
            else:
                on_message(i, msg)
            if msg is not None and msg["type"] == "rejected":
                msg, answered = latest, None
            if msg is None or msg["type"] != "view" or msg["table"] != tid:
                continue
            latest = msg
            view, legal = msg["view"], msg["legal"]
            if view.get("outcome") is not None:
                return view["outcome"]
            choice = ((view.get("deadline") or {}).get("key"), legal, view["scene"])
            if not legal or choice == answered:
                continue
            answered = choice
            if rng.random() < dawdle.get(i, 0.0):
                continue  # let the timer answer for us
            action = choose(view, legal, rng)
            await s.send({"type": "act", "table": tid, "state_id": view["state_id"],
                          "action": action})
        return None

    for i in gone:
        await sessions[i].aclose()
    return await asyncio.wait_for(asyncio.gather(
        *(play(i, s) for i, s in enumerate(sessions) if i not in gone)), seconds)


async def seat_table(host: Host, dirs: dict[str, Any], seats: int, options: dict[str, Any],
                     seed: int) -> tuple[list[Session], int]:
    """``seats`` clients, all seated at a new Fang table (seat i = client i), not started."""
    sessions = []
    for i in range(seats):
        sessions.append(await Session.connect(
            "127.0.0.1", host.port, name=f"cat{i}", code=host.room_code,
            config_dir=dirs["client"], accept_new=True, identity_file=None))
    tid = host.lobby.create_table("fang", seats, options, seed=seed)
    for s in sessions:
        await s.send({"type": "sit", "table": tid, "seat": None})
    for _ in range(200):
        if all(seat.kind == "human" for seat in host.lobby.tables[tid].seats):
            break
        await asyncio.sleep(0.02)
    idents = [s.identity for s in sessions]
    assert [host.lobby.tables[tid].seats[i].identity for i in range(seats)] == idents
    return sessions, tid


def check_game(host: Host, watch: FangWatch, tid: int, frames: dict[int, list[dict]],
               outcomes: list[Any], unread: int = 0) -> dict[str, Any]:
    """The game ended for every client alike, every view was checked (but ``unread`` ones sent
    to a client that went away), nothing leaked, everyone holds the final state."""
    table = host.lobby.tables[tid]
    state = table.state
    assert table.status == "over" and all(o == state["outcome"] for o in outcomes)
    out = state["outcome"]
    assert out["result"] in ("village", "witches", "fool")
    assert out["day"] <= state["cfg"]["knights_day"]
    views = sum(1 for msgs in frames.values() for m in msgs if m["type"] == "view")
    assert 0 <= watch.views_sent - views <= unread and views > 100
    for seat, msgs in frames.items():
        assert watch.leaks(msgs, seat) == []
        assert [m for m in msgs if m["type"] == "view"][-1]["view"]["state_id"] == \
            table.state_id
    return out


@pytest.mark.timeout(120)
async def test_five_fang_clients_play_to_the_end_and_no_frame_leaks_a_secret(host, dirs) -> None:
    watch = FangWatch(host)
    sessions, tid = await seat_table(host, dirs, 5, {"pause_seconds": 0.2}, seed=3)
    frames: dict[int, list[dict]] = {i: [] for i in range(5)}
    try:
        host.lobby.start(tid)
        outcomes = await play_fang(sessions, tid, "heuristic", 3,
                                   lambda i, m: frames[i].append(m))
    finally:
        for s in sessions:
            with contextlib.suppress(Exception):
                await s.aclose()
    check_game(host, watch, tid, frames, outcomes)
    kinds = {e.get("kind") for e in host.lobby.state_of(tid)["log"]}
    assert {"day_summary", "proposal_result"} <= kinds  # private and vote events were sent
    assert any(f["blind_view"] for facts in watch.facts.values() for f in facts)


@pytest.mark.slow
@pytest.mark.timeout(150)
async def test_twelve_seat_fang_with_short_timers_and_a_client_gone_plays_to_the_end(
        dirs) -> None:
    h = Host("Fang night", dirs["host_cfg"], dirs["host_data"], games=["fang"], bot_delay=0,
             absent_after=0.3)
    await h.start("127.0.0.1", 0)
    watch = FangWatch(h)
    frames: dict[int, list[dict]] = {i: [] for i in range(12)}
    sessions: list[Session] = []
    try:
        sessions, tid = await seat_table(h, dirs, 12, SHORT_TIMERS, seed=12)
        h.lobby.start(tid)
        outcomes = await play_fang(sessions, tid, "heuristic", 12,
                                   lambda i, m: frames[i].append(m),
                                   dawdle={10: 0.25}, gone={11})
        del frames[11]
        out = check_game(h, watch, tid, frames, outcomes, unread=2)
        table = h.lobby.tables[tid]
        assert table.seats[11].absent and not table.seats[10].absent
        host_acts = [a for s, a in table.history if s is None]
        assert any(a["type"] == "absent" and a["seat"] == 11 for a in host_acts)
        assert not any(s == 11 for s, _ in table.history)  # seat 11 never acted itself
        assert sum(a["type"] == "timeout" for a in host_acts) >= 3  # the timers answered
        assert len(out["scores"]) == 12
    finally:
        for s in sessions:
            with contextlib.suppress(Exception):
                await s.aclose()
        await h.stop()


def test_the_fang_leak_check_finds_another_seats_view() -> None:
    class FakeHost:
        def add_listener(self, cb: Any) -> None:
            pass

    state = GAME.setup([f"p{i}" for i in range(6)], 4, {})
    watch = FangWatch(FakeHost())  # type: ignore[arg-type]
    watch.table = 1
    watch.facts = {state["version"]: [FangWatch._facts(state, s) for s in range(6)]}
    mine = {"type": "view", "table": 1, "view": GAME.view(state, 0), "legal": []}
    for i, event in enumerate(mine["view"]["log"]):  # as the host numbers them for seat 0
        mine["view"]["log"][i] = {**event, "n": i}
    assert watch.leaks([mine], 0) == []
    other = {"type": "view", "table": 1, "view": GAME.view(state, 1), "legal": []}
    found = " ".join(watch.leaks([other], 0))
    assert "roles" in found and "an event it may not see (role" in found
