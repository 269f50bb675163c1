"""Journals from disk are untrusted input (issue 23): a crafted journal whose checksums are valid
— an empty seat at a playing table, a seed that is the integer 2**40, an identity that is not a
key, a table number msgpack cannot carry, a bot policy no game has — neither stops the host at
its start nor keeps the healthy games beside it from being served: it is set aside (renamed with
the reason, logged). A bounded fuzz mutates a real journal's records and re-packs them with valid
checksums: recovery never raises, the healthy journal beside it always comes back, and the
mutated one is either resumed or set aside."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import tempfile
from pathlib import Path
from typing import Any

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from host.journal import MAGIC, read_journal
from host.lobby import Lobby
from host.recovery import Recorder
from protocol import frames
from protocol.journalfile import pack_record
from tests.e2e.crash import make_host
from tests.e2e.test_recovery_branches import crashed_toy_game

pytestmark = pytest.mark.timeout(120)


def write_records(path: Path, records: list[dict[str, Any]]) -> None:
    """A journal of ``records`` at ``path``, every checksum valid."""
    path.write_bytes(MAGIC + b"".join(pack_record(r) for r in records))


def records_of(path: Path) -> list[dict[str, Any]]:
    contents = read_journal(path)
    return [contents.header, *contents.steps]


def empty_seat(records: list[dict]) -> None:
    records[0]["seats"][1] = {**records[0]["seats"][1], "kind": "empty", "identity": None}


def huge_seed(records: list[dict]) -> None:
    records[0]["seed"] = 2**40


def identity_not_a_key(records: list[dict]) -> None:
    records[0]["seats"][0]["identity"] = 2**40


def table_number_past_msgpack(records: list[dict]) -> None:
    records[0]["table"] = 2**64 - 1


def unknown_bot_policy(records: list[dict]) -> None:
    records[0]["seats"][1] = {**records[0]["seats"][1], "kind": "bot", "identity": None,
                              "policy": "os:system"}


def option_no_game_has(records: list[dict]) -> None:
    records[0]["options"] = {**records[0]["options"], "turbo": True}


@pytest.mark.parametrize("spoil, slug", [
    (empty_seat, "refused"), (huge_seed, "refused"), (identity_not_a_key, "refused"),
    (table_number_past_msgpack, "refused"), (unknown_bot_policy, "refused"),
    (option_no_game_has, "refused")])
async def test_a_crafted_journal_is_set_aside_and_the_healthy_game_beside_it_is_served(
        dirs, spoil, slug) -> None:
    good, tid = await crashed_toy_game(dirs)
    records = records_of(good)
    spoil(records)
    crafted = good.with_name("20000101-000000-t77-cccccc.journal")
    write_records(crafted, records)
    logs: list[str] = []
    host = make_host(dirs, logs)
    await asyncio.wait_for(host.start("127.0.0.1", 0), 30)  # it starts at all
    try:
        assert list(host.lobby.tables) == [tid]
        assert host.lobby.tables[tid].status == "playing"
        assert any(line.startswith(f"journal {crafted.name}: not what a host writes: ")
                   and line.endswith(f"set aside as {crafted.name}.set-aside-{slug} (every "
                                     "other game is served)") for line in logs), logs
        frames.encode({"type": "lobby", "tables": host.lobby.tables_info()}, 1 << 20)
    finally:
        await host.stop()
    assert not crafted.exists()
    aside = crafted.with_name(f"{crafted.name}.set-aside-{slug}")
    assert aside.stat().st_mode & 0o777 == 0o600
    assert records_of(aside) == records  # kept as it was, for whoever wants to look


# -- fuzz ---------------------------------------------------------------------------------------

SPECIAL = st.sampled_from([None, 0, -1, 2**31, 2**40, 2**63, 2**64 - 1, "", "empty", "human",
                           "bot", "heuristic", "os:system", "scenario", "toy", "pass", b"",
                           b"\x00" * 33, [], {}, True, float("nan")])
HOSTILE = st.one_of(
    SPECIAL, SPECIAL, SPECIAL, st.integers(min_value=-2**63, max_value=2**64 - 1),
    st.binary(max_size=40), st.text(max_size=12), st.floats(),
    st.lists(st.integers(min_value=-3, max_value=300), max_size=4),
    st.dictionaries(st.text(max_size=6), st.integers(), max_size=3))


def places(node: Any, path: tuple = ()) -> list[tuple]:
    """Every path into ``node`` (a record): each value, and each container whole."""
    out = [path] if path else []
    if isinstance(node, dict):
        for key, child in node.items():
            out += places(child, (*path, key))
    elif isinstance(node, list):
        for i, child in enumerate(node):
            out += places(child, (*path, i))
    return out


@st.composite
def mutated(draw: st.DrawFn, records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``records`` with one to three values anywhere inside (the header more often than a
    step) replaced, removed, or added beside."""
    out = msgpack.unpackb(msgpack.packb(records, use_bin_type=True), raw=False,
                          strict_map_key=False)
    for _ in range(draw(st.integers(1, 3))):
        index = 0 if draw(st.integers(0, 3)) else draw(st.integers(0, len(out) - 1))
        path = draw(st.sampled_from(places(out[index])))
        parent = out[index]
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        how = draw(st.sampled_from(["replace", "replace", "replace", "remove", "add"]))
        if how == "remove" and isinstance(parent, dict) and key != "kind":
            del parent[key]
        elif how == "add" and isinstance(parent, dict):
            parent[draw(st.sampled_from(["policy", "scenario", "extra", "seat", "identity",
                                         "reserved"]))] = draw(HOSTILE)
        else:
            parent[key] = draw(HOSTILE)
    return out


_BASE: dict[str, list[dict[str, Any]]] = {}


@pytest.fixture
async def base_records(dirs) -> list[dict[str, Any]]:
    """The records of a real unfinished toy journal (made once per test session)."""
    if "toy" not in _BASE:
        good, _tid = await crashed_toy_game(dirs)
        _BASE["toy"] = records_of(good)
    return _BASE["toy"]


@pytest.mark.slow
async def test_recovery_survives_mutated_journals_with_valid_checksums(base_records) -> None:
    @settings(max_examples=300, deadline=None, database=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture,
                                     HealthCheck.too_slow])
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        records = data.draw(mutated(base_records))
        with contextlib.ExitStack() as stack:
            folder = Path(tempfile.mkdtemp(prefix="hexnet-fuzz-"))
            stack.callback(shutil.rmtree, folder, True)
            journals = folder / "journals"
            journals.mkdir()
            healthy = journals / "20000101-000000-t1-aaaaaa.journal"
            crafted = journals / "20000101-000000-t2-bbbbbb.journal"
            write_records(healthy, base_records)
            try:
                write_records(crafted, records)
            except (ValueError, TypeError, OverflowError):
                return  # not a journal anyone can write (msgpack refuses it)
            except Exception as exc:  # journalfile's own "record too large"
                assert type(exc).__name__ == "JournalError"
                return
            logs: list[str] = []
            lobby = Lobby(lambda effects: None, games=["toy"])
            recorder = Recorder(folder, logs.append)
            stack.callback(recorder.close)
            recorder.recover(lobby)  # never raises
            replayed = [[[s, a] for s, a in t.history[:len(base_records) - 1]]
                        for t in lobby.tables.values()]
            steps = [[r["seat"], r["action"]] for r in base_records[1:]]
            assert steps in replayed, logs  # the healthy game always comes back
            left = sorted(p.name for p in journals.iterdir())
            assert crafted.name in left or any(
                n.startswith(crafted.name + ".set-aside-") for n in left), left
            frames.encode({"type": "lobby", "tables": lobby.tables_info()}, 1 << 22)

    await asyncio.to_thread(run)
