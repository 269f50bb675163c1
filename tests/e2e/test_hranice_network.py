"""A whole 6-seat Hranice game over real TLS: six bot clients play to the end, and no frame any
seat received names a card in another seat's hand or in the draw pile (at the state it was sent
in) — unless the game had named that card to the seat before: publicly (a card played, cut,
burned, or a citizen sent back to a hand by Přímluva; reshuffled discards) or to it alone (its
draws, a card taken from or by it, Výslech's look). Cards never shown stay checked."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from client.bot import run_bots
from tests.e2e.test_bot_game import SecretWatch, own_seat

CARD_ID = re.compile(r"\b[a-z]+-\d+\b")
SHOWN = ("drawn", "stolen", "peek")  # the private events: the cards they name were shown


def ids_of(event: dict[str, Any]) -> set[str]:
    """The card ids an event names (in ``card``, ``cards``, ``target``, ``discarded``)."""
    fields = ("card", "cards", "target", "discarded")
    return set(CARD_ID.findall(",".join(str(event.get(f) or "") for f in fields)))


class Shown:
    """Cards named to all (played, cut, burned, returned by Přímluva — their whereabouts were
    public once, and the log's older events still name them) or shown to one seat by a private
    event (its draws, a card taken from or by it, Výslech's look); read from the log as it
    grows, for one game."""

    def __init__(self) -> None:
        self.upto = 0
        self.public: set[str] = set()
        self.private: dict[int, set[str]] = {}

    def __call__(self, state: dict[str, Any], seat: int) -> set[str]:
        """The cards named to ``seat`` so far."""
        log = state["log"]
        for event in log[self.upto:]:
            to = event.get("to")
            if to is None:
                self.public |= ids_of(event)
            elif event.get("kind") in SHOWN:
                for s in to:
                    self.private.setdefault(s, set()).update(ids_of(event))
        self.upto = len(log)
        return self.public | self.private.get(seat, set())


def secrets_of_one_game() -> Callable[[dict[str, Any], int], set[str]]:
    """The secrets of a seat at a state: the draw pile and every other hand, less the cards
    ever named to that seat (states must come in order, all from one game)."""
    shown = Shown()

    def secrets(state: dict[str, Any], seat: int) -> set[str]:
        hidden = set(state["pile"]) | {c for s, h in enumerate(state["hands"]) if s != seat
                                       for c in h}
        return hidden - shown(state, seat)

    return secrets


def card_ids_in(obj: Any) -> set[str]:
    """Every physical card id anywhere in a message, also inside longer strings."""
    if isinstance(obj, dict):
        return set().union(*(card_ids_in(k) | card_ids_in(v) for k, v in obj.items()))
    if isinstance(obj, list):
        return set().union(*(card_ids_in(v) for v in obj))
    return set(CARD_ID.findall(obj)) if isinstance(obj, str) else set()


def id_leaks(watch: SecretWatch, frames: dict[int, list[dict]],
             seat_of_bot: dict[int, int]) -> list[str]:
    """As ``SecretWatch.leaks``, but finding card ids inside texts and joined lists too."""
    found = []
    for bot, msgs in frames.items():
        seat, sid = seat_of_bot[bot], None
        for msg in msgs:
            if msg["type"] == "view":
                sid = msg["view"]["state_id"]
            if sid is not None and (bad := card_ids_in(msg) & watch.by_state[sid][seat]):
                found.append(f"seat {seat} saw {sorted(bad)} in a {msg['type']} at {sid}")
    return found


@pytest.mark.timeout(300)  # a bound for a hang, not a speed limit (a loaded machine is slow)
async def test_six_bot_clients_play_hranice_to_the_end_without_seeing_hands_or_pile(
        host) -> None:
    watch = SecretWatch(host, secrets_of_one_game())
    frames: dict[int, list[dict]] = {i: [] for i in range(6)}
    report = await run_bots("127.0.0.1", host.port, game="hranice", count=6,
                            policy="heuristic", code=host.room_code,
                            config_dir=str(host.config_dir.parent / "client"),
                            on_message=lambda i, m: frames[i].append(m), seed=7, timeout=280)
    table = host.lobby.tables[report.table]
    assert table.status == "over" and report.outcome == table.state["outcome"]
    assert report.outcome["result"] in ("win", "turn_cap") and report.outcome["winners"]
    assert len(report.outcome["scores"]) == 6
    seat_of_bot = {i: own_seat(frames[i]) for i in range(6)}
    assert sorted(seat_of_bot.values()) == list(range(6))
    views = [m for msgs in frames.values() for m in msgs if m["type"] == "view"]
    assert len(views) == watch.views_sent > 100
    assert all(any(watch.by_state[sid][s] for sid in watch.by_state) for s in range(6))
    assert watch.leaks(frames, seat_of_bot) == []
    assert id_leaks(watch, frames, seat_of_bot) == []
    # every seat holds the final state; a roll's reaction window is public, so either every
    # seat saw one or (a short game with no roll anyone could answer) none did
    saw_a_roll_window = []
    for msgs in frames.values():
        seen = [m["view"] for m in msgs if m["type"] == "view"]
        assert seen[-1]["state_id"] == table.state_id and seen[-1]["outcome"]
        saw_a_roll_window.append(
            any(v["window"] and v["window"]["event"] == "roll" for v in seen))
    assert len(set(saw_a_roll_window)) == 1


def test_the_id_leak_check_finds_ids_inside_texts() -> None:
    class FakeHost:
        def add_listener(self, cb: Any) -> None:
            pass

    watch = SecretWatch(FakeHost(), secrets_of_one_game())
    watch.by_state = {4: [{"kovar-2"}, set()]}
    frames = {0: [{"type": "view", "table": 1, "view": {"state_id": 4, "log": [
        {"text": "cut", "cards": "rolnik-1,kovar-2"}]}, "legal": []}]}
    assert watch.leaks(frames, {0: 0}) == []  # the shared check misses a joined list …
    assert id_leaks(watch, frames, {0: 0}) == ["seat 0 saw ['kovar-2'] in a view at 4"]


def test_cards_shown_by_the_rules_are_not_secret_to_that_seat() -> None:
    state = {"pile": ["zebrak-1", "milost-1"], "hands": [["alibi-1"], ["kovar-2", "rolnik-1"]],
             "log": [{"kind": "peek", "to": [0], "cards": "kovar-2,rolnik-1"},
                     {"kind": "drawn", "to": [1], "card": "kovar-2"},
                     {"kind": "returned", "to": None, "card": "rolnik-1"},
                     {"kind": "react", "to": None, "card": "milost-1"}]}
    secrets = secrets_of_one_game()
    assert secrets(state, 0) == {"zebrak-1"}
    assert secrets(state, 1) == {"zebrak-1", "alibi-1"}
    assert secrets(state, 2) == {"zebrak-1", "alibi-1", "kovar-2"}
