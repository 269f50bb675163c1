"""Caps per address, not only per key (issue 23, finding 4), in the sans-I/O core and its small
parts: throwaway keys from one address cannot fill the host with tables (on 930923a 170 keys
made 510 tables and an honest ``create`` got ``too_many_tables``), a table only its creator sits
at expires like an empty one, and an address brings only so many new identities an hour."""

from __future__ import annotations

from host.core import LobbyError
from host.lobby import Lobby
from host.newcomers import IDENTITIES_PER_ADDRESS, WINDOW, Newcomers
from host.registry import (
    MAX_OPEN_TABLES_PER_ADDRESS,
    MAX_TABLES,
    MAX_TABLES_CREATED_PER_ADDRESS,
    TABLE_EXPIRY,
)
from tests.host.test_watchers import Wire


def key(n: int) -> bytes:
    return n.to_bytes(4, "big") * 8


def test_throwaway_keys_from_one_address_cannot_fill_the_host() -> None:
    wire = Wire()
    lb = Lobby(wire, seed_source=lambda: 11)
    for n in range(1, 171):  # 170 fresh keys from one address, three creates each
        lb.connect(n, key(n), f"x{n}", "10.0.0.66")
        for _ in range(3):
            lb.handle(n, {"type": "create", "game": "toy", "seats": 2, "options": {}})
    assert len(lb.tables) == MAX_OPEN_TABLES_PER_ADDRESS < MAX_TABLES
    refused = {m["code"] for n in range(1, 171) for m in wire.sent(n, "error")}
    assert refused == {"too_many_tables"}
    lb.connect(999, key(999), "honest", "10.0.0.7")  # a player from elsewhere still can
    lb.handle(999, {"type": "create", "game": "toy", "seats": 2, "options": {}})
    assert wire.sent(999, "error") == [] and lb.where(key(999)) is not None


def test_an_address_creates_only_so_many_tables_an_hour() -> None:
    now = [0.0]
    wire = Wire()
    lb = Lobby(wire, seed_source=lambda: 11, clock=lambda: now[0])
    made = 0
    for n in range(1, MAX_TABLES_CREATED_PER_ADDRESS + 6):
        lb.connect(n, key(n), f"x{n}", "10.0.0.66")
        lb.handle(n, {"type": "create", "game": "toy", "seats": 2, "options": {}})
        here = lb.where(key(n))
        if here is None:
            continue
        made += 1  # each started with a bot: no longer open, still counted for the hour
        lb.handle(n, {"type": "add_bot", "table": here[0].id, "seat": 1,
                      "policy": "heuristic"})
        lb.handle(n, {"type": "start", "table": here[0].id})
        now[0] += 1.0
    assert made == MAX_TABLES_CREATED_PER_ADDRESS
    last = MAX_TABLES_CREATED_PER_ADDRESS + 5
    assert wire.sent(last, "error")[-1]["message"].startswith(
        f"Your address created {MAX_TABLES_CREATED_PER_ADDRESS} tables within an hour")
    now[0] = 3600.0  # an hour after the first, one more
    lb.handle(last, {"type": "create", "game": "toy", "seats": 2, "options": {}})
    assert lb.where(key(last)) is not None


def test_a_table_only_its_creator_sits_at_expires_like_an_empty_one() -> None:
    now = [0.0]
    wire = Wire()
    lb = Lobby(wire, seed_source=lambda: 11, clock=lambda: now[0])
    for n in (1, 2, 3):
        lb.connect(n, key(n), f"p{n}", "10.0.0.66")
    lb.handle(1, {"type": "create", "game": "toy", "seats": 3, "options": {}})
    lb.handle(1, {"type": "add_bot", "table": 1, "seat": 1, "policy": "heuristic"})
    lb.handle(2, {"type": "create", "game": "toy", "seats": 3, "options": {}})
    lb.handle(3, {"type": "sit", "table": 2, "seat": None})  # someone joined p2's table
    now[0] = TABLE_EXPIRY - 1
    assert lb.expire_tables() == []
    now[0] = TABLE_EXPIRY
    assert lb.expire_tables() == [1] and sorted(lb.tables) == [2]
    told = wire.sent(1, "error")[-1]
    assert told["code"] == "table_expired" and "Table 1 was closed" in told["message"]
    assert lb.where(key(1)) is None and wire.lobby_of(1)["you"]["table"] is None
    lb.handle(3, {"type": "leave"})  # p2 alone again: its wait starts now
    now[0] = 2 * TABLE_EXPIRY - 1
    assert lb.expire_tables() == []
    now[0] = 2 * TABLE_EXPIRY
    assert lb.expire_tables() == [2]


def test_an_address_brings_only_so_many_new_identities_an_hour() -> None:
    now = [0.0]
    newcomers = Newcomers(clock=lambda: now[0])
    for n in range(IDENTITIES_PER_ADDRESS):
        assert newcomers.wait("10.0.0.66", key(n)) == 0
        newcomers.arrived("10.0.0.66", key(n))
        now[0] += 1.0
    assert newcomers.wait("10.0.0.66", key(999)) == WINDOW - IDENTITIES_PER_ADDRESS
    assert newcomers.wait("10.0.0.66", key(3)) == 0  # one that came before comes again
    assert newcomers.wait("10.0.0.7", key(999)) == 0  # another address is not this one
    now[0] = WINDOW  # the first came an hour ago: one more may come
    assert newcomers.wait("10.0.0.66", key(999)) == 0


def test_the_per_address_caps_are_the_hosts_to_raise() -> None:
    lb = Lobby(seed_source=lambda: 11, max_open_tables_per_address=100,
               max_tables_created_per_address=100)
    for n in range(1, 11):
        lb.connect(n, key(n), f"x{n}", "127.0.0.1")
        lb.handle(n, {"type": "create", "game": "toy", "seats": 2, "options": {}})
    assert len(lb.tables) == 10
    try:
        lb.registry.check_caps(key(11), "127.0.0.1")
    except LobbyError as exc:  # pragma: no cover - a failure to report
        raise AssertionError(exc.message) from exc
