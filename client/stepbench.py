"""``python -m client.stepbench --port P``: what the traffic rule's secret steps cost (issue 22),
measured with real client sessions against a running host (``hexnet host --headless --open``).

For each game a table of bot sessions plays (the heuristic policy, each decision after a think
time drawn from ``--pace``), through a relay that counts every TLS record (:class:`Tap`). Per
action: the time from ``send()`` to every seat holding the view it produced — for actions sent
while a secret step was open (they wait for their slot, then for the host's tick) and for the
others; the added delay is the difference of the two. Per seat: the bytes on the wire each way
per second while a step is open. Prints one JSON map::

    {"fang": {"secret_step_latency_ms": {"p50", "p90", "outside_p50", "added_p50",
              "added_p90"}, "secret_step_bytes_per_s": {"up", "down"}, "actions": {...}}, …}

(``hexnet bench`` can run it against its own host as a subprocess: the client and host rooms
stay apart.)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import shutil
import statistics
import sys
import tempfile
import time
from typing import Any

from client.session import Session, SessionError
from hexnet.games import get_policy

UP, DOWN = "up", "down"
SEATS = {"fang": 8, "hexenhammer": 4, "hranice": 4}


class Tap:
    """A TCP relay in front of a host that keeps, per connection (by the client's port), every
    TLS record as (time, direction, length) — what a sniffer on the Wi-Fi sees — and, with
    ``keep``, every byte each way (``streams``: (up, down) per connection)."""

    def __init__(self, target: int, keep: bool = False) -> None:
        self.target = target
        self.records: dict[int, list[tuple[float, str, int]]] = {}
        self.streams: list[tuple[bytearray, bytearray]] = []
        self.keep = keep
        self.server: asyncio.Server | None = None
        self.writers: list[asyncio.StreamWriter] = []

    async def start(self) -> int:
        """Listen on 127.0.0.1; the port."""
        self.server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        return self.server.sockets[0].getsockname()[1]

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        kept = self.records.setdefault(writer.get_extra_info("peername")[1], [])
        up_r, up_w = await asyncio.open_connection("127.0.0.1", self.target)
        self.writers += [writer, up_w]
        loop = asyncio.get_running_loop()
        seen = (bytearray(), bytearray())
        self.streams.append(seen)

        async def pump(src: asyncio.StreamReader, dst: asyncio.StreamWriter, way: str) -> None:
            buf = bytearray()
            with contextlib.suppress(ConnectionError, OSError):
                while data := await src.read(65536):
                    now = loop.time()
                    if self.keep:
                        seen[way == DOWN].extend(data)
                    buf += data
                    while len(buf) >= 5 and len(buf) >= 5 + int.from_bytes(buf[3:5], "big"):
                        length = int.from_bytes(buf[3:5], "big")
                        kept.append((now, way, 5 + length))
                        del buf[:5 + length]
                    dst.write(data)
                    await dst.drain()
            with contextlib.suppress(Exception):
                dst.close()

        await asyncio.gather(pump(reader, up_w, UP), pump(up_r, writer, DOWN))

    async def stop(self) -> None:
        if self.server is not None:
            self.server.close()
            for w in self.writers:
                with contextlib.suppress(Exception):
                    w.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.server.wait_closed(), 5)


def quantile(data: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank); NaN for no data."""
    if not data:
        return float("nan")
    data = sorted(data)
    return data[min(len(data) - 1, max(0, round(q * len(data) + 0.5) - 1))]


async def measure(port: int, game: str, seats: int, seconds: float,
                  pace: tuple[float, float], seed: int) -> dict[str, Any]:
    """One table of ``game`` for ``seconds`` (or to its end) through a :class:`Tap`."""
    tap = Tap(port)
    relay = await tap.start()
    cfg = tempfile.mkdtemp(prefix="hexnet-stepbench-")  # its pins, not the user's
    sessions: list[Session] = []
    ports: list[int] = []  # each session's own port: its records at the tap
    steps: list[tuple[float, float | None]] = []  # (opened, closed) as seat 0 saw them
    try:
        for i in range(seats):
            sessions.append(await Session.connect("127.0.0.1", relay, name=f"step{i}",
                                                  accept_new=True, identity_file=None,
                                                  config_dir=cfg))
            ports.append(sessions[-1]._writer.get_extra_info("sockname")[1])
        first = sessions[0]
        await first.send({"type": "create", "game": game, "seats": seats, "options": {}})
        while first.you.get("table") is None:
            await first.next_message(5)
        tid = int(first.you["table"])
        for s in sessions[1:]:
            await s.send({"type": "sit", "table": tid, "seat": None})
            while s.you.get("table") != tid:
                await s.next_message(5)
        seen = first.slots.frame

        def note(table: int, secret: dict[str, Any] | None) -> list[dict[str, Any]]:
            now, open_ = asyncio.get_running_loop().time(), steps and steps[-1][1] is None
            if secret is not None and not open_:
                steps.append((now, None))
            elif secret is None and open_:
                steps[-1] = (steps[-1][0], now)
            return seen(table, secret)
        first.slots.frame = note  # type: ignore[method-assign]
        await first.send({"type": "start", "table": tid})
        sent: list[tuple[int, float, bool, int]] = []  # (seat, time, in a step, quoted id)
        produced: dict[tuple[int, int], int] = {}  # (seat, quoted id) → the id it made
        until = time.monotonic() + seconds
        await asyncio.gather(*(_play(i, s, game, tid, pace, random.Random(seed + i), until,
                                     sent, produced) for i, s in enumerate(sessions)))
    finally:
        for s in sessions:
            with contextlib.suppress(Exception):
                await s.aclose()
        await tap.stop()
        shutil.rmtree(cfg, ignore_errors=True)
    inside, outside = [], []
    for seat, t0, secret, quoted in sent:
        made = produced.get((seat, quoted))
        if made is None:
            continue
        held = [min((t for k, t in s.view_times.get(tid, {}).items() if k >= made),
                    default=None) for s in sessions]
        if None not in held:
            (inside if secret else outside).append(max(held) - t0)  # type: ignore[type-var]
    return {"secret_step_latency_ms": _latency(inside, outside),
            "secret_step_bytes_per_s": _bandwidth(tap, ports, steps),
            "actions": {"in_steps": len(inside), "outside": len(outside)}}


def _latency(inside: list[float], outside: list[float]) -> dict[str, float]:
    base = statistics.median(outside) if outside else float("nan")
    return {"p50": quantile(inside, 0.5) * 1e3, "p90": quantile(inside, 0.9) * 1e3,
            "outside_p50": base * 1e3, "added_p50": (quantile(inside, 0.5) - base) * 1e3,
            "added_p90": (quantile(inside, 0.9) - base) * 1e3}


def _bandwidth(tap: Tap, ports: list[int],
               steps: list[tuple[float, float | None]]) -> dict[str, float]:
    """Bytes on the wire per second per seat while a step was open (TLS records included)."""
    closed = [(a, b) for a, b in steps if b is not None and b - a > 1.0]
    span = sum(b - a for a, b in closed)
    ways = {UP: 0, DOWN: 0}
    for port in ports:
        for t, way, n in tap.records.get(port, []):
            if any(a <= t <= b for a, b in closed):
                ways[way] += n
    per = max(span, 1e-9) * len(ports)
    return {"up": ways[UP] / per, "down": ways[DOWN] / per, "seconds": span}


async def _play(i: int, s: Session, game: str, tid: int, pace: tuple[float, float],
                rng: random.Random, until: float, sent: list[tuple[int, float, bool, int]],
                produced: dict[tuple[int, int], int]) -> None:
    """Bot ``i``: answers each new choice after a think time; notes what it sent and what the
    host's acknowledgements say it produced."""
    choose = get_policy(game, "heuristic")
    answered: Any = None
    while time.monotonic() < until:
        try:
            msg = await s.next_message(max(0.05, min(1.0, until - time.monotonic())))
        except SessionError:
            return
        if msg is None or msg.get("table") != tid:
            continue
        if msg["type"] == "rejected":
            answered = None
            continue
        if msg["type"] != "view":
            continue
        view, legal = msg["view"], msg["legal"]
        if "answered" in msg:
            produced[(i, msg["answered"])] = view["state_id"]
        if view.get("outcome") is not None:
            return
        if game == "hexenhammer" and view.get("seat") not in (view.get("active") or []):
            legal = []
        choice = ((view.get("deadline") or {}).get("key"), repr(legal), view.get("scene"))
        if not legal or choice == answered:
            continue
        answered = choice
        await asyncio.sleep(rng.uniform(*pace))
        in_step = tid in s.slots.steps
        sent.append((i, time.perf_counter(), in_step, view["state_id"]))
        with contextlib.suppress(SessionError):
            await s.send({"type": "act", "table": tid, "state_id": view["state_id"],
                          "action": choose(view, legal, rng)})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m client.stepbench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True, help="an open host on 127.0.0.1")
    parser.add_argument("--games", default="fang,hexenhammer,hranice")
    parser.add_argument("--seconds", type=float, default=60.0, help="per game (default 60)")
    parser.add_argument("--pace", default="0.2-1.0", help="think time LO-HI seconds")
    parser.add_argument("--seed", type=int, default=22)
    args = parser.parse_args(argv)
    low, _, high = args.pace.partition("-")
    out = {}
    for game in args.games.split(","):
        out[game] = asyncio.run(measure(args.port, game, SEATS[game], args.seconds,
                                        (float(low), float(high)), args.seed))
        print(f"{game}: {json.dumps(out[game])}", file=sys.stderr)
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
