"""``hexnet bench`` runs end to end on 127.0.0.1 (tiny figures: what is checked is that every
measurement ran and the JSON has the keys issue 10 names, not how fast anything is)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from host.breakdown import SPOTS, _resolve
from tests.pace import SECRET_EVERY

pytestmark = [pytest.mark.timeout(240), pytest.mark.slow]


def test_hexnet_bench_measures_everything_and_writes_the_json(tmp_path) -> None:
    out = tmp_path / "bench.json"
    run = subprocess.run(
        [sys.executable, "-m", "hexnet.cli", "bench", "--games", "hranice", "fang",
         "--repeats", "1", "--actions", "5", "--game-seconds", "3", "--echo-rounds", "20",
         "--tables", "2", "--seconds", "1", "--selfplay-seconds", "0.2",
         "--search-seconds", "0.2", "--secret-every", str(SECRET_EVERY), "--breakdown",
         "--json", str(out)],
        capture_output=True, text=True, timeout=220)
    assert run.returncode == 0, run.stderr[-2000:]
    r = json.loads(out.read_text())
    assert set(r["echo_ms"]) == {"p50", "p99"} and r["echo_ms"]["p50"] > 0
    # the bare server's CPU per fan-out, timed as a change is: the host's per change over it
    assert set(r["fanout_ms"]) == {"p50", "p99", "spaced_p50", "cpu_us", "floor_cpu_us"}
    assert r["fanout_ms"]["cpu_us"] > 0 and r["fanout_ms"]["spaced_p50"] > 0
    # … with a journal record group-committed first, to as many clients as a game's seats
    floor = r["fanout_ms"]["floor_cpu_us"]
    assert set(floor) == {"4", "8"} and min(floor.values()) > 0
    for game in ("hranice", "fang"):
        g = r["games"][game]
        assert g["latency_ms"]["p50"] > 0 and g["latency_ratio_p50"] > 0
        # the actions sent inside a secret step apart: answered at the step's tick, not before
        assert g["secret_step_actions"] > 0 and g["actions"] > 0
        assert g["secret_step_latency_ms"]["p50"] >= SECRET_EVERY * 1e3 * 0.5
        assert g["bytes_per_action"] >= 1024  # at least one padded frame per action
        assert 0 < g["bytes_per_action_unpadded"] < g["bytes_per_action"]  # padding costs
        # the host's CPU charged per action sent outside a step: all threads, its loop's share
        assert g["host_cpu_changes"] > 0
        assert 0 < g["host_loop_us_per_change"] <= g["host_cpu_us_per_change"]
        assert g["host_cpu_us_per_view"] > 0
        assert g["host_cpu_ratio"] > 0 and g["latency_ratio_spaced_p50"] > 0
        assert g["host_cpu_ratio_floor"] == pytest.approx(  # (one repeat)
            g["host_cpu_us_per_change"] / floor[str(g["seats"])])
    assert r["tables"] == 2 and r["scale"]["tables_seated"] == 2
    assert {"latency_ms", "rss_per_table_mb", "cpu_s_per_1000_actions"} <= set(r["scale"])
    assert set(r["selfplay"]) == {"hranice", "fang"} and min(r["selfplay"].values()) > 0
    assert "bare TLS echo" in run.stdout
    # --breakdown: the host's CPU by function, every spot counted where the games went
    spots = r["breakdown"]["spots"]
    assert set(spots) == set(SPOTS)
    for spot in ("host.links:FrameReader.data_received", "host.table:Table.act",
                 "host.render:frames", "host.links:Links._write", "host.journal:Syncer._round"):
        assert spots[spot]["calls"] > 0 and spots[spot]["cpu_ns"] > 0, spot
    assert "where the host's CPU went" in run.stdout


def test_hexnet_bench_refuses_a_bad_command_line_in_one_line() -> None:
    run = subprocess.run([sys.executable, "-m", "hexnet.cli", "bench", "--repeats", "0"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and run.stderr.count("\n") == 1
    assert run.stderr.startswith("hexnet bench: ")


def test_the_host_cpu_is_counted_per_thread_in_nanoseconds() -> None:
    """What a thread other than the main one spends is the host's "other" CPU, not its loop's
    (the journal's fsyncs and the log's writer run on such threads)."""
    import threading
    import time

    from host.bench import host_cpu_ns

    spun, done = threading.Event(), threading.Event()

    def spin() -> None:
        end = time.thread_time() + 0.05
        while time.thread_time() < end:
            pass
        spun.set()
        done.wait(10)  # alive while measured: a thread's count goes with it when it ends

    loop0, other0 = host_cpu_ns(os.getpid())
    worker = threading.Thread(target=spin)
    worker.start()
    assert spun.wait(10)
    loop1, other1 = host_cpu_ns(os.getpid())
    done.set()
    worker.join(10)
    assert other1 - other0 >= 40_000_000  # the spinning thread's 50 ms, in ns
    assert loop1 - loop0 < 40_000_000  # the main thread only waited


def test_every_breakdown_spot_names_a_function_and_a_stale_one_is_refused() -> None:
    for spot in SPOTS:
        assert callable(_resolve(spot)[2]), spot
    with pytest.raises(ValueError, match="no function nothing_here"):
        _resolve("host.render:nothing_here")
    with pytest.raises(ValueError, match="no Nobody in host.table"):
        _resolve("host.table:Nobody.act")


async def test_the_floors_journaled_fan_out_writes_one_record_each(tmp_path) -> None:
    """The bare server's journaled fan-out (a change's floor) writes one record per such
    fan-out, as the host writes an action's, and nothing for a plain one; the journal is whole
    once the server stops (its group-commit thread closed it)."""
    import asyncio
    import ssl

    import msgpack

    from host.bench import ECHO_READY, FLOOR_RECORD, frame, read_raw, start_proc
    from host.journal import read_records

    server = await start_proc([sys.executable, "-m", "host.bench", "--echo-server",
                               str(tmp_path)], ECHO_READY)
    try:
        ctx = ssl.create_default_context()
        ctx.check_hostname, ctx.verify_mode = False, ssl.CERT_NONE
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port, ssl=ctx)
        writer.write(frame({"type": "hello", "number": 0}))
        await asyncio.wait_for(read_raw(reader), 30)
        for kind in ("fanj", "fan", "fanj", "fanj", "fan"):
            writer.write(frame({"type": kind, "seats": 1}))
            _, payload = await asyncio.wait_for(read_raw(reader), 30)
            assert msgpack.unpackb(payload)["type"] == "fan"
        writer.close()
    finally:
        await server.stop()
    assert server.proc.returncode == 0
    (path,) = (tmp_path / "floor").iterdir()
    records, torn = read_records(path)
    assert not torn
    assert [r["kind"] for r in records] == ["header", "step", "step", "step"]
    assert records[1:] == [FLOOR_RECORD] * 3
