"""Each change rendered once (issue 25): the public view built and packed once per change and
shared by every seat's frame, each seat's private overlay on top, deltas found by comparing
packed parts; and nothing a host bot's policy is handed can change what anyone else receives."""

from __future__ import annotations

import random
from typing import Any

import pytest

from hexnet.engine import Game
from host.lobby import Lobby
from host.render import Public, view_delta
from protocol import frames
from tests.host.shell import Shell
from tests.host.test_lobby import Recorder, ident
from tests.host.test_traffic import seated


def _effective(public: dict[str, bytes], mine: dict[str, bytes]) -> dict[str, bytes]:
    return {**public, **mine}


def test_a_seats_delta_is_what_its_view_changed_part_by_part() -> None:
    """Against the plain definition — the seat's view before and now, compared part by part —
    over random public parts and overlays (keys moving in and out of either)."""
    rnd = random.Random(1)
    keys = [f"k{i}" for i in range(8)]

    def parts() -> dict[str, bytes]:
        return {k: bytes([rnd.randrange(3)]) for k in keys if rnd.random() < 0.7}

    for _ in range(5000):
        base, now, old_mine, mine = parts(), parts(), parts(), parts()
        if rnd.random() < 0.2:
            mine = old_mine  # an overlay unchanged: the very parts sent before
        old_public = base if rnd.random() < 0.7 else parts()  # the seat missed a change
        public = Public(now, b"", b"", base, {k: v for k, v in now.items() if base.get(k) != v},
                        [k for k in base if k not in now])
        changed, gone = view_delta(public, mine, (old_public, old_mine, b"", b""))
        before, after = _effective(old_public, old_mine), _effective(now, mine)
        assert changed == {k: v for k, v in after.items() if before.get(k) != v}
        assert sorted(gone) == sorted(k for k in before if k not in after)
        assert len(gone) == len(set(gone))


def _play_table(lb: Lobby, rec: Recorder, tid: int, steps: int) -> list[bytes]:
    """Let the table's bots, its secret steps' ticks and its timers play ``steps`` turns (as the
    host's shell would); the human at conn 1 plays its first legal action whenever the game
    waits on it. The frames conn 1 received."""
    seen: list[bytes] = []

    def take() -> list[Any]:
        seen.extend(rec.frames().get(1, []))
        return rec.take()

    shell = Shell(lb, take)
    for _ in range(steps):
        table = lb.tables[tid]
        if table.status != "playing":
            break
        if 0 in table.waiting_for() and table.legal(0):
            lb.handle(1, {"type": "act", "table": tid, "state_id": table.state_id,
                          "action": table.legal(0)[0]})
        if not shell.step():
            shell.tick(tid)
    seen += rec.frames().get(1, [])
    return seen


@pytest.mark.parametrize(("game", "seats"), [("hexenhammer", 4), ("fang", 8), ("hranice", 4)])
def test_each_change_builds_the_public_view_once_and_each_seats_overlay_once(
        game: str, seats: int, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = {"public": 0, "private": 0}
    public_view, private_view = Game.public_view, Game.private_view

    def counted_public(self: Game, state: dict[str, Any]) -> dict[str, Any]:
        calls["public"] += 1
        return public_view(self, state)

    def counted_private(self: Game, state: dict[str, Any], seat: int | None,
                        log: bool = True) -> dict[str, Any]:
        calls["private"] += 1
        return private_view(self, state, seat, log)

    lb, rec = seated(game, seats, 3)
    rec.take()
    table = lb.tables[1]
    monkeypatch.setattr(Game, "public_view", counted_public)
    monkeypatch.setattr(Game, "private_view", counted_private)
    changes, published = 0, table.published
    for _ in range(12):
        seat = table.waiting_for()[0]
        lb.handle(seat + 1, {"type": "act", "table": 1, "state_id": table.state_id,
                             "action": table.legal(seat)[0]})
        changes += 1
    assert len(rec.frames()) == seats  # every seat got its frames
    published = table.published - published  # a secret step publishes on its ticks, not per act
    assert 0 < published <= changes
    assert calls == {"public": published, "private": published * seats}


def _scribble(value: Any) -> None:
    """Change every container inside ``value``."""
    if isinstance(value, dict):
        for v in value.values():
            _scribble(v)
        for k in list(value):
            value[k] = "scribbled"
        value["scribbled"] = True
    elif isinstance(value, list):
        for v in value:
            _scribble(v)
        value[:] = ["scribbled"]


def _first(view: dict[str, Any], legal: list[dict[str, Any]], rng: Any) -> dict[str, Any]:
    return dict(legal[0])


def _vandal(view: dict[str, Any], legal: list[dict[str, Any]], rng: Any) -> dict[str, Any]:
    """The first legal action — after scribbling over everything it was handed."""
    choice = dict(legal[0])
    _scribble(view)
    _scribble(legal)
    return choice


@pytest.mark.parametrize(("game", "seats"), [("hexenhammer", 4), ("fang", 6), ("hranice", 4)])
def test_a_host_bot_scribbling_on_its_view_changes_nothing_anyone_else_receives(
        game: str, seats: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two tables dealt alike, one human and bots; at one the bots' policy scribbles over every
    list and map of the view and legal actions it is handed before answering as the other's
    bots do: the human receives the same frames (but for each table's own commitment), and the
    states stay equal."""
    import importlib

    from hexnet import games

    policies = importlib.import_module(games._MODULES[game]).POLICIES
    monkeypatch.setitem(policies, "first", _first)
    monkeypatch.setitem(policies, "vandal", _vandal)
    runs = []
    for policy in ("first", "vandal"):
        rec = Recorder()
        lb = Lobby(rec, seed_source=lambda: 9)
        lb.connect(1, ident(1), "p1")
        lb.handle(1, {"type": "create", "game": game, "seats": seats, "options": {}})
        for _ in range(seats - 1):
            lb.add_bot(1, None, policy)
        lb.start(1)
        seen = _play_table(lb, rec, 1, 400)
        table = lb.tables[1]
        runs.append((seen, table.engine.dump(table.state)))
    (first_frames, first_state), (vandal_frames, vandal_state) = runs
    assert len(first_frames) > 20
    assert [_without_commitment(f) for f in vandal_frames] == [
        _without_commitment(f) for f in first_frames]
    assert vandal_state == first_state


def _without_commitment(frame: bytes) -> dict[str, Any]:
    """A frame's map without the commitment (each table draws its own salt)."""
    msg = frames.decode(frame[4:])
    msg.pop("commitment", None)
    return msg
