"""The abuse limits (host/limits.py) and the string sanitiser (protocol/sanitize.py)."""

from __future__ import annotations

import pytest

from host import limits
from protocol import sanitize


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_at_the_per_address_cap_the_newcomer_is_admitted_and_an_idle_socket_evicted() -> None:
    closed: list[int] = []
    gate = limits.Gate(total=10, per_address=2)
    for key in (1, 2):
        assert gate.admit("10.0.0.1", key, lambda k=key: closed.append(k)) is None
    assert gate.admit("10.0.0.1", 3, lambda: closed.append(3)) is None
    assert closed == [1] and gate.by_address == {"10.0.0.1": 2}
    assert gate.admit("10.0.0.2", 4) is None
    gate.release("10.0.0.1", 2)
    gate.release("10.0.0.1", 2)  # twice is harmless
    assert gate.by_address == {"10.0.0.1": 1, "10.0.0.2": 1}


def test_idle_sockets_from_a_players_address_never_evict_the_players_login() -> None:
    # A player's login reached hello; sixteen idle sockets from the same (NAT) address then
    # push each other out, and the login stays.
    closed: list[int] = []
    gate = limits.Gate(total=64, per_address=16)
    gate.admit("nat", 0, lambda: closed.append(0))
    gate.progress("nat", 0, limits.HELLO)
    for key in range(1, 41):
        assert gate.admit("nat", key, lambda k=key: closed.append(k)) is None
    assert 0 not in closed and 0 in gate.waiting["nat"]
    assert closed == list(range(1, 26)) and gate.by_address == {"nat": 16}


def test_of_one_address_a_socket_past_tls_outlives_an_older_idle_one() -> None:
    closed: list[int] = []
    gate = limits.Gate(total=64, per_address=2)
    gate.admit("a", 1, lambda: closed.append(1))
    gate.admit("a", 2, lambda: closed.append(2))
    gate.progress("a", 1, limits.TLS)
    gate.admit("a", 3, lambda: closed.append(3))
    assert closed == [2]


def test_a_full_gate_evicts_the_oldest_of_the_busiest_address() -> None:
    closed: list[int] = []
    gate = limits.Gate(total=4, per_address=3)
    for key, address in [(1, "a"), (2, "a"), (3, "b"), (4, "a")]:
        assert gate.admit(address, key, lambda k=key: closed.append(k)) is None
    assert gate.admit("player", 5, lambda: closed.append(5)) is None
    assert closed == [1] and gate.count == 4 and gate.evicted == 1
    assert gate.by_address == {"a": 2, "b": 1, "player": 1}
    for key, address in [(2, "a"), (3, "b"), (4, "a"), (5, "player")]:
        gate.release(address, key)
    assert gate.count == 0 and gate.by_address == {}


def test_of_equally_busy_addresses_the_one_waiting_longest_is_evicted() -> None:
    closed: list[int] = []
    gate = limits.Gate(total=3, per_address=3)
    for key, address in [(1, "player"), (2, "x"), (3, "y")]:
        gate.admit(address, key, lambda k=key: closed.append(k))
    gate.release("player", 1)  # the player authenticated
    gate.admit("player2", 4, lambda: closed.append(4))
    gate.admit("z", 5, lambda: closed.append(5))  # evicts x's, the oldest waiting
    assert closed == [2] and gate.by_address == {"y": 1, "player2": 1, "z": 1}
    gate.admit("w", 6, lambda: closed.append(6))
    assert closed == [2, 3]  # then y's — player2's younger handshake survives longer


def test_token_bucket_allows_a_burst_then_the_rate() -> None:
    clock = Clock()
    bucket = limits.TokenBucket(rate=10, burst=5, clock=clock)
    assert [bucket.take() for _ in range(6)] == [True] * 5 + [False]
    clock.now = 0.25  # 2.5 tokens
    assert [bucket.take() for _ in range(3)] == [True, True, False]
    clock.now = 100.0
    assert sum(bucket.take() for _ in range(10)) == 5  # never more than the burst


def test_message_limiter_warns_once_drops_then_closes_a_flood() -> None:
    clock = Clock()
    lim = limits.MessageLimiter(rate=1, burst=2, close_after=3, clock=clock)
    verdicts = [lim.check() for _ in range(7)]
    assert verdicts == ["ok", "ok", "warn", "drop", "drop", "close", "close"]


def test_message_limiter_forgives_a_client_that_slows_down() -> None:
    clock = Clock()
    lim = limits.MessageLimiter(rate=1, burst=1, close_after=2, clock=clock)
    assert [lim.check(), lim.check(), lim.check()] == ["ok", "warn", "drop"]
    clock.now = 1.0
    assert lim.check() == "ok"
    assert lim.check() == "warn"  # a new run starts with a warning again


@pytest.mark.parametrize("raw, clean", [
    ("\x1b[31mEve\x1b[0m", "Eve"),
    ("A\u202eB\u2066C\u2069D\u200eE\u200fF\u061cG\u202aH", "ABCDEFGH"),
    ("bell\x07 del\x7f c1\x85 x\x9b2Jy", "bell del c1 xy"),
    ("\x1b]0;pwned\x07Ada", "Ada"),
    ("   \n\t  ", "player"),
    ("[bold red]Mallory[/]", "[bold red]Mallory[/]"),  # markup is text: the client shows it
    ("x" * 40, "x" * 24),
    ("👩\u200d👩\u200d👧", "👩\u200d👩\u200d👧"),
])
def test_names_lose_controls_escapes_and_bidi_but_keep_text(raw: str, clean: str) -> None:
    assert sanitize.clean_name(raw) == clean
    assert sanitize.is_clean(clean)


def test_chat_text_is_one_clean_line_of_at_most_300_characters() -> None:
    assert sanitize.clean_text("hi\nthere\x1b[2J\x1b[H  \u202eevil") == "hi there evil"
    assert sanitize.clean_text("\x00\x1b[0m") == ""
    assert len(sanitize.clean_text("é" * 400)) == 300
    assert not sanitize.is_clean("a\u2067b")


def test_terminal_safe_cleans_every_string_in_a_message_and_keeps_clean_ones() -> None:
    msg = {"type": "view", "view": {"players": ["\x1b[2JAda", "Bo\u202eb"],
                                    "log": [{"text": "line one\nline two\x07\x9b6n"}]},
           "legal": [{"type": "pass"}], "n": 3}
    safe = sanitize.terminal_safe(msg)
    assert safe == {"type": "view", "view": {"players": ["Ada", "Bob"],
                                             "log": [{"text": "line one\nline two"}]},
                    "legal": [{"type": "pass"}], "n": 3}
    clean = {"a": ["x", 1, None, {"b": "ü\n\t"}]}
    assert sanitize.terminal_safe(clean) == clean


def test_a_login_holding_a_room_code_turn_is_never_evicted() -> None:
    closed: list[int] = []
    gate = limits.Gate(total=8, per_address=3, descriptors=None)
    for key in (1, 2, 3):
        gate.admit("nat", key, lambda k=key: closed.append(k))
        gate.progress("nat", key, limits.HELLO)
    gate.progress("nat", 1, limits.TURN)  # the oldest: the neighbour, waiting for its turn
    for key in range(4, 10):
        assert gate.admit("nat", key, lambda k=key: closed.append(k)) is None
    assert 1 not in closed and 1 in gate.waiting["nat"]
    for key in list(gate.waiting["nat"]):
        gate.progress("nat", key, limits.TURN)
    assert gate.admit("nat", 99) == "every login from nat is waiting for its room-code turn"
    assert 99 not in gate.waiting["nat"]
