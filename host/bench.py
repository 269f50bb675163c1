"""``hexnet bench``: how fast one host is, against the bare wire, measured in one run.

Everything runs on 127.0.0.1. The host under test is a ``hexnet host --headless`` subprocess
(journal on, as in real use), so its CPU time and memory are its own; the bench's clients are
raw TLS + msgpack clients in this process that time each frame the moment its last byte is
read, before decoding. One run measures, side by side:

* **echo** — a bare asyncio TLS 1.3 echo server (a subprocess with the host's TLS settings)
  answering a 256-byte msgpack frame: the floor every figure is compared to (``× echo``);
* **fan-out** — the same server writing one 1 KiB frame to 4 connections at once, back to back
  and spaced as the games' changes are (each sent :data:`SETTLE` after the last came:
  ``fanout_ms.spaced_p50``), with its CPU per spaced fan-out timed as the host's per change is
  (``fanout_ms.cpu_us``) — the floor of the host's figures on this machine: on a virtual
  machine a wake from idle can cost ten times a round trip back to back, and the host pays it
  at every change (``latency_ratio_spaced_p50``, ``host_cpu_ratio`` compare it);
* **journaled fan-out** — the same spaced fan-out after the server has written a journal record
  of an action's size and marked it for the host's own group-commit thread
  (:class:`host.journal.Syncer`, the same fsync as the host's at ``--slow-disk``): a change's
  floor with the durability the host keeps, to as many clients as the game has seats
  (``fanout_ms.floor_cpu_us``, by seats; ``host_cpu_ratio_floor`` is the host's CPU per change
  over its game's) — what is left above it is the rules, the views and the protocol;
* **games** — for each game a table of raw clients (4 seats; Fang 8) playing one action per
  change: once every seat holds the last change, a seat drawn among those with legal actions
  sends a random one of them: action sent → every seat that was sent the view of the change
  holds it (measured at frame arrival), p50/p99 — the actions sent while no secret step was
  open; those sent inside one, which the host applies and answers at the step's tick (issue
  22), apart (``secret_step_latency_ms``) —; the host's CPU time per change: each action sent
  while no secret step was open is charged what every thread of the host spent from its send
  until :data:`SETTLE` after every seat holds its change (the scheduler's nanosecond count;
  ``host_cpu_us_per_change``, and its event loop's share ``host_loop_us_per_change``), and
  the host's CPU over whole games per view a seat received, secret steps' ticks included
  (``host_cpu_us_per_view``); and bytes of frames per accepted action, as sent and without
  their padding (what the traffic rule costs) (Fang's always-timed witches' window and pause
  before a vote made shortest: 5 s and 0 s);
* **scale** (``--tables N``) — N tables of 4 raw clients choosing after a human-plus think time
  (0.3–1 s): every table is seated, then the window opens with every table's ``start`` at once
  (the start burst: each journal created, each first view sent) and runs ``--seconds``: latency
  of the actions sent inside the window, start → every seat holds its first view, host CPU
  seconds per 1,000 actions, host RSS per table and peak RSS, connections dropped;
* **selfplay** — random bots in one process, games per CPU second per game;
* **search** — search playouts per second per game, in process
  (:func:`hexnet.tools.searchbench.playout_rate`).

``--slow-disk MS`` makes the host's every ``fsync`` that much slower (the host runs under
``python -m host.bench --slow-disk MS``, which wraps ``os.fsync``: a bench-only switch, the host
itself has none), as on a real disk.

``--repeats R`` repeats the echo and game measurements and reports medians, with the load
average at each repeat. ``--json FILE`` writes the figures (keys ``echo_ms``, ``fanout_ms``,
``games`` — per game ``latency_ms``, ``host_cpu_us_per_change``, ``host_cpu_ratio``, … —,
``tables``, ``scale``, ``selfplay``, ``search``, ``load``). The bench speaks only the parts
of the protocol every hexnet version has (handshake, create/sit/start/act, ``view`` frames with
or without log deltas), so the same file measures an older host for before/after figures.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import re
import runpy
import secrets
import signal
import ssl
import statistics
import struct
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgpack

from host.flags import UNCAPPED
from protocol import traffic

GAMES = {"hexenhammer": 4, "hranice": 4, "fang": 8}
# Fang's waits that run even when every seat has answered (the witches' window is always timed,
# the pause before a vote always held) made shortest: they lengthen a game, not an action
OPTIONS: dict[str, dict[str, Any]] = {"fang": {"witches_seconds": 5, "pause_seconds": 0}}
_LEN = struct.Struct(">I")
READY = re.compile(r"ready on [^:]+:(\d+)")
ECHO_READY = re.compile(r"echo ready on (\d+)")


def arun(coro: Any) -> Any:
    """Run ``coro`` on uvloop when it is installed (the bench's clients and the echo server
    alike, so before/after runs of the same file compare only the host)."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coro)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(coro)


def quantile(data: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``data`` by nearest rank (nan if empty)."""
    if not data:
        return float("nan")
    s = sorted(data)
    return s[min(len(s) - 1, max(0, round(q * len(s) + 0.5) - 1))]


@contextlib.contextmanager
def clients_without_gc() -> Any:
    """The bench's own cyclic garbage collection held off while it times frames (a full
    collection over hundreds of clients' records pauses this process for tens to hundreds of
    ms, which would be charged to the host as latency); collected right after."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
        gc.collect()


def frame(msg: dict[str, Any]) -> bytes:
    payload = msgpack.packb(msg, use_bin_type=True)
    return _LEN.pack(len(payload)) + payload


async def read_raw(reader: asyncio.StreamReader) -> tuple[float, bytes]:
    """One frame's payload and the time its last byte was read (before decoding)."""
    head = await reader.readexactly(4)
    payload = await reader.readexactly(_LEN.unpack(head)[0])
    return time.perf_counter(), payload


# -- the bare TLS echo / fan-out server (a subprocess) ------------------------------------------

# what the journaled fan-out writes per change: a record of an accepted action's size
FLOOR_RECORD = {"kind": "step", "seat": 2, "action": {"type": "play", "card": "c17"},
                "state_id": 118, "events": "0123456789abcdef"}


async def _echo_server(config_dir: str) -> None:
    from host.journal import Journal, Syncer
    from protocol import tls
    from protocol.journalfile import pack_record

    Path(config_dir).mkdir(parents=True, exist_ok=True)
    cert, key = tls.ensure_host_cert(Path(config_dir))
    ctx = tls.server_context(cert, key)
    writers: dict[int, asyncio.StreamWriter] = {}  # by the number each client said it is
    fan = frame({"type": "fan", "pad": bytes(1000)})
    journal = Journal.create(Path(config_dir) / "floor" / f"{os.getpid()}.journal",
                             {"game": "floor"})
    syncer = Syncer()
    record = pack_record(FLOOR_RECORD)

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        number = None
        with contextlib.suppress(Exception):
            while True:
                _, payload = await read_raw(reader)
                msg = msgpack.unpackb(payload)
                kind = msg["type"]
                if kind == "fanj":  # as the host: the record written, then the frames
                    journal.write(record)
                    syncer.dirty(journal)
                if kind in ("fan", "fanj"):  # to clients 0 … seats - 1
                    for i in range(msg["seats"]):
                        writers[i].write(fan)
                else:  # an echo (a client's first, "hello", says its number)
                    if kind == "hello":
                        number = msg["number"]
                        writers[number] = writer
                    writer.write(_LEN.pack(len(payload)) + payload)
        if number is not None:
            writers.pop(number, None)
        writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0, ssl=ctx)
    print(f"echo ready on {server.sockets[0].getsockname()[1]}", flush=True)
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)  # (uvloop too)
    await stop.wait()
    server.close()
    syncer.close_after(journal)
    syncer.stop()


# -- subprocesses, stopped by pid -------------------------------------------------------------

@dataclass
class Proc:
    proc: asyncio.subprocess.Process
    port: int
    lines: list[str] = field(default_factory=list)

    @property
    def pid(self) -> int:
        return self.proc.pid

    async def stop(self) -> None:
        if self.proc.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.proc.pid, signal.SIGTERM)
        try:
            await asyncio.wait_for(self.proc.wait(), 10)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.proc.pid, signal.SIGKILL)
            await self.proc.wait()


async def start_proc(cmd: list[str], ready: re.Pattern[str]) -> Proc:
    proc = await asyncio.create_subprocess_exec(*cmd, stdout=asyncio.subprocess.PIPE,
                                                stderr=asyncio.subprocess.STDOUT)
    assert proc.stdout is not None
    lines: list[str] = []
    try:
        async def wait_ready() -> int:
            assert proc.stdout is not None
            while line := (await proc.stdout.readline()).decode(errors="replace"):
                lines.append(line.rstrip())
                if m := ready.search(line):
                    return int(m.group(1))
            raise RuntimeError("exited before it was ready:\n" + "\n".join(lines[-10:]))
        port = await asyncio.wait_for(wait_ready(), 60)
    except BaseException:
        with contextlib.suppress(ProcessLookupError):
            os.kill(proc.pid, signal.SIGKILL)
        await proc.wait()
        raise
    p = Proc(proc, port, lines)

    async def drain() -> None:
        assert proc.stdout is not None
        with contextlib.suppress(Exception):
            while line := await proc.stdout.readline():
                lines.append(line.decode(errors="replace").rstrip())
                del lines[:-200]
    asyncio.ensure_future(drain())
    return p


SETTLE = 0.025  # s after every seat holds a change before its CPU is read (the fsync group)
# the bench's seats count absent this long after it leaves a table (the host's default is 60
# s): a table left unfinished is then deserted — nobody connected, no bot — and waits for its
# players (host/playing.py); the bench waits for the host to go quiet before it measures the
# next, so no presence step of a table it left lands in a measurement
ABSENT_AFTER = 1.0
QUIET = 0.003  # s of host CPU in a 0.1 s window: the host is idle


async def host_quiet(pid: int, most: float = 30.0) -> None:
    """Wait until the tables the bench left have counted their seats absent (and wait):
    :data:`ABSENT_AFTER` and a little, then until a 0.1 s window costs the host less than
    :data:`QUIET` of CPU (at most ``most`` seconds in all)."""
    await asyncio.sleep(ABSENT_AFTER + 0.3)
    deadline = time.monotonic() + most
    before = sum(host_cpu_ns(pid))
    while time.monotonic() < deadline:
        await asyncio.sleep(0.1)
        now = sum(host_cpu_ns(pid))
        if now - before < QUIET * 1e9:
            return
        before = now


def host_cpu_ns(pid: int) -> tuple[int, int]:
    """The CPU time of ``pid`` so far in nanoseconds: its event loop's thread (the main one)
    and its other threads (the journal's fsyncs, the log's writer, …) — the scheduler's own
    count, ``/proc/PID/task/*/schedstat``: exact, where ``/proc/PID/stat`` counts 10 ms ticks."""
    loop = other = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError, ValueError, IndexError):
            ns = int((task / "schedstat").read_text().split()[0])
            if task.name == str(pid):
                loop += ns
            else:
                other += ns
    return loop, other


def proc_stat(pid: int) -> tuple[float, int, int]:
    """(CPU seconds user+system, RSS KiB, peak RSS KiB) of ``pid``."""
    ticks = os.sysconf("SC_CLK_TCK")
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / ticks
    rss = hwm = 0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            rss = int(line.split()[1])
        elif line.startswith("VmHWM:"):
            hwm = int(line.split()[1])
    return cpu, rss, hwm


# -- a raw client: handshake, then frames timed at arrival ------------------------------------

class Seat:
    """One raw TLS client playing one seat by choosing random legal actions."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 rng: random.Random) -> None:
        self.reader, self.writer, self.rng = reader, writer, rng
        self.you: dict[str, Any] = {}
        self.table: int | None = None
        self.sid = -1
        self.legal: list[dict[str, Any]] = []
        self.over = False
        self.acted: int | None = None  # the state id our pending action quoted
        self.sent_at: dict[int, float] = {}  # state id quoted → send time (inside the window)
        self.secret_sent: set[int] = set()  # state ids quoted while a secret step was open
        self.in_secret_step = False  # the seat's last frame named a secret step (``cover``)
        self.arrivals: dict[int, float] = {}  # state id → arrival of its frame
        self.accepted: list[tuple[float, int]] = []  # (send time, state id produced)
        self.accepted_secret: list[tuple[float, int]] = []  # the same, at a secret step
        self.bytes = 0
        self.unpadded = 0  # the same frames without their pad field
        self.views = 0  # view frames received while counting (one per change of the table)
        self.think: tuple[float, float] | None = None
        self.counting = False
        self.turns: Turns | None = None  # one action per change (the games measurement)
        self.started_at: float | None = None  # when the table's start was sent
        self.first_view: float | None = None  # arrival of the first view after it
        self._next_act: asyncio.TimerHandle | None = None
        self.changed = asyncio.Event()

    @classmethod
    async def connect(cls, port: int, name: str, rng: random.Random) -> Seat:
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        from protocol import PROTOCOL_VERSION, auth, identity, tls

        reader, writer = await asyncio.open_connection(
            "127.0.0.1", port, ssl=tls.client_context(), server_hostname="127.0.0.1",
            limit=1 << 17)
        key = Ed25519PrivateKey.generate()
        nonce = secrets.token_bytes(16)
        writer.write(frame({"type": "hello", "version": PROTOCOL_VERSION, "name": name,
                            "nonce": nonce, "identity": identity.public_bytes(key)}))
        welcome = msgpack.unpackb((await read_raw(reader))[1])
        if welcome.get("type") != "welcome":
            raise RuntimeError(f"handshake refused: {welcome}")
        fp = welcome["fingerprint"]
        writer.write(frame({"type": "auth", "proof": None,
                            "signature": auth.sign_auth(key, fp, nonce, welcome["nonce"])}))
        ok = msgpack.unpackb((await read_raw(reader))[1])
        if ok.get("type") != "auth_ok":
            raise RuntimeError(f"auth refused: {ok}")
        seat = cls(reader, writer, rng)
        seat.task = asyncio.ensure_future(seat.read_loop())
        seat.pinger = asyncio.ensure_future(seat.ping_loop())
        return seat

    async def ping_loop(self) -> None:
        """A heartbeat every 5 s, as real clients send (the host drops silent ones)."""
        with contextlib.suppress(Exception, asyncio.CancelledError):
            while True:
                await asyncio.sleep(5.0)
                self.send({"type": "ping", "t": time.time()})

    def send(self, msg: dict[str, Any]) -> None:
        self.writer.write(frame(msg))

    async def read_loop(self) -> None:
        with contextlib.suppress(asyncio.IncompleteReadError, ConnectionError, ssl.SSLError,
                                 OSError, asyncio.CancelledError):
            while True:
                at, payload = await read_raw(self.reader)
                msg = msgpack.unpackb(payload, raw=False, strict_map_key=False)
                kind = msg.get("type")
                if "you" in msg:
                    self.you = msg["you"]
                if kind == "view":
                    if self.counting:
                        self.views += 1
                        self.bytes += 4 + len(payload)
                        self.unpadded += 4 + len(payload) - traffic.pad_cost(msg, payload)
                    if self.first_view is None and self.started_at is not None:
                        self.first_view = at
                    self.on_view(at, msg)
                elif kind == "rejected":
                    self.on_rejected()
                self.changed.set()

    def on_view(self, at: float, msg: dict[str, Any]) -> None:
        view = msg.get("view")
        self.in_secret_step = msg.get("secret") is not None  # the frame names an open step
        sid = msg["state_id"] if "state_id" in msg else view["state_id"]
        self.arrivals.setdefault(sid, at)
        if "legal" in msg:
            self.legal = msg["legal"]
        for part in (view, msg.get("view_delta")):  # a whole view, or the parts that changed
            if isinstance(part, dict) and "outcome" in part:
                self.over = part["outcome"] is not None
        self.sid = max(self.sid, sid)
        if "answered" in msg:
            # only actions sent inside the window count (one sent before it but answered
            # inside would charge the window with what came before)
            t0 = self.sent_at.pop(msg["answered"], None)
            if t0 is not None and self.counting:
                secret = msg["answered"] in self.secret_sent
                (self.accepted_secret if secret else self.accepted).append((t0, sid))
            self.secret_sent.discard(msg["answered"])
            self.acted = None
            if self.turns is not None:
                self.turns.answered(self)
        if "rejected" in msg:
            self.on_rejected()
        self.maybe_act()

    def on_rejected(self) -> None:
        if self.acted is not None:
            self.sent_at.pop(self.acted, None)
        self.acted = None
        if self.turns is not None:
            self.turns.answered(self)
        self.maybe_act()

    def ready(self) -> bool:
        """Whether this seat may act now (it holds legal actions it has not acted on)."""
        return not (self.over or not self.legal or self.acted == self.sid or self.table is None)

    def maybe_act(self) -> None:
        if self.turns is not None:
            self.turns.poke()
            return
        if not self.ready():
            return
        if self.think is None:
            self.act()
        elif self._next_act is None:
            delay = self.rng.uniform(*self.think)
            self._next_act = asyncio.get_running_loop().call_later(delay, self.act)

    def act(self) -> None:
        self._next_act = None
        if self.over or not self.legal or self.acted == self.sid:
            return
        self.acted = self.sid
        if self.counting:
            self.sent_at[self.sid] = time.perf_counter()
            if self.in_secret_step:
                self.secret_sent.add(self.sid)
        self.send({"type": "act", "table": self.table, "state_id": self.sid,
                   "action": self.rng.choice(self.legal)})

    async def until(self, pred: Any, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while not pred():
            self.changed.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no answer from the host in time")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)

    def close(self) -> None:
        if self._next_act is not None:
            self._next_act.cancel()
        self.task.cancel()
        self.pinger.cancel()
        with contextlib.suppress(Exception):
            self.writer.close()


class Turns:
    """One action in flight at a table: once every seat holds the table's last change, a seat
    drawn among those that may act sends one (so each change is one action, and the host's CPU
    per change is its CPU per action).

    With ``host_pid``, each action sent while no secret step is open is charged the host's CPU
    (every thread's, in nanoseconds: :func:`host_cpu_ns`) from its send until :data:`SETTLE`
    after every seat holds its change — the journal's grouped fsync and the log's writer
    included — and the next action waits for that reading."""

    def __init__(self, clients: list[Seat], rng: random.Random,
                 host_pid: int | None = None) -> None:
        self.clients = clients
        self.rng = rng
        self.pending: Seat | None = None
        self.host_pid = host_pid
        self.loop_ns = 0  # the host's CPU over the measured actions: its loop's thread
        self.other_ns = 0  # … and its other threads
        self.measured = 0  # actions sent outside a secret step and charged
        self._cpu0: tuple[int, int] | None = None
        self._settle: asyncio.TimerHandle | None = None

    def answered(self, seat: Seat) -> None:
        if self.pending is seat:
            self.pending = None

    def poke(self) -> None:
        if self.pending is not None or self._settle is not None:
            return
        latest = max(c.sid for c in self.clients)
        if any(c.sid != latest for c in self.clients):
            return  # a seat does not hold the last change yet
        if self._cpu0 is not None:
            self._settle = asyncio.get_running_loop().call_later(SETTLE, self._charge)
            return
        ready = [c for c in self.clients if c.ready()]
        if ready:
            self.pending = self.rng.choice(ready)
            if self.host_pid is not None and self.pending.counting \
                    and not self.pending.in_secret_step:
                self._cpu0 = host_cpu_ns(self.host_pid)
            self.pending.act()

    def _charge(self) -> None:
        self._settle = None
        if self._cpu0 is not None and self.host_pid is not None:
            loop, other = host_cpu_ns(self.host_pid)
            self.loop_ns += loop - self._cpu0[0]
            self.other_ns += other - self._cpu0[1]
            self.measured += 1
        self._cpu0 = None
        self.poke()

    def close(self) -> None:
        if self._settle is not None:
            self._settle.cancel()


async def seat_table(port: int, game: str, seats: int, rng: random.Random,
                     think: tuple[float, float] | None, name: str) -> list[Seat]:
    """Connect ``seats`` raw clients and sit them at a new table of ``game`` (not started)."""
    clients = [await Seat.connect(port, f"{name}{i}"[:24], rng) for i in range(seats)]
    first = clients[0]
    await first.until(lambda: "name" in first.you, 30)
    first.send({"type": "create", "game": game, "seats": seats,
                "options": dict(OPTIONS.get(game, {}))})
    await first.until(lambda: first.you.get("table") is not None, 60)
    tid = int(first.you["table"])
    for c in clients[1:]:
        c.send({"type": "sit", "table": tid, "seat": None})
    for c in clients[1:]:
        await c.until(lambda c=c: c.you.get("table") == tid, 60)
    for c in clients:
        c.table, c.think = tid, think
    return clients


def latencies(clients: list[Seat], secret: bool = False) -> list[float]:
    """Per accepted action: send → the last seat that got a frame of that state holds it.
    Actions sent while a secret step was open (whose publication follows the step's own
    cadence: issue 22's ``secret_step_latency_ms``) apart: ``secret`` gives those."""
    out = []
    for c in clients:
        for t0, sid in c.accepted_secret if secret else c.accepted:
            arrivals = [o.arrivals[sid] for o in clients if sid in o.arrivals]
            if arrivals:
                out.append(max(arrivals) - t0)
    return out


# -- the measurements ---------------------------------------------------------------------------

@dataclass
class Bare:
    """The bare server's figures of one repeat (:func:`measure_echo`)."""

    echo: list[float]  # round trips back to back, s
    fan: list[float]  # fan-outs back to back, s
    spaced: list[float]  # fan-outs spaced as the changes are, s
    cpu_us: float  # its CPU per spaced fan-out
    floor_cpu_us: dict[int, float]  # … with a journal record first (a change's floor), by seats


async def measure_echo(port: int, rounds: int, pid: int) -> Bare:
    """The bare TLS server's (process ``pid``) echo and fan-out round trips back to back
    (seconds), and fan-outs spaced as the games' changes are: each sent :data:`SETTLE` after
    the last came, the server idle between — their round trips, and the server's CPU per such
    fan-out (one frame in, four of 1 KiB out), timed as the host's CPU per change is
    (:class:`Turns`), in µs; and with a journal record written and group-committed first, to as
    many clients as each game has seats (a change's floor). A wake from idle costs far more on
    some virtual machines than a round trip back to back: the spaced fan-out pays it as the
    host does at every change."""
    ctx = ssl.create_default_context()
    ctx.check_hostname, ctx.verify_mode = False, ssl.CERT_NONE
    ctx.minimum_version = ssl.TLSVersion.TLSv1_3
    seat_counts = sorted(set(GAMES.values()))
    conns = []
    for number in range(max(seat_counts)):
        reader, writer = await asyncio.open_connection("127.0.0.1", port, ssl=ctx)
        writer.write(frame({"type": "hello", "number": number}))
        await read_raw(reader)  # (the server knows its number)
        conns.append((reader, writer))
    echo, fan, spaced, cpu = [], [], [], []
    journaled: dict[int, list[float]] = {n: [] for n in seat_counts}
    msg = frame({"type": "echo", "pad": bytes(230)})
    r0, w0 = conns[0]

    asks = {(kind, n): frame({"type": kind, "seats": n})  # (packed before any is timed)
            for kind in ("fan", "fanj") for n in seat_counts}

    async def fan_out(kind: str = "fan", seats: int = 4) -> float:
        t0 = time.perf_counter()
        w0.write(asks[kind, seats])
        arrivals = await asyncio.gather(*(read_raw(r) for r, _ in conns[:seats]))
        return max(a for a, _ in arrivals) - t0

    for _ in range(rounds):
        t0 = time.perf_counter()
        w0.write(msg)
        at, _ = await read_raw(r0)
        echo.append(at - t0)
    for _ in range(max(1, rounds // 4)):
        fan.append(await fan_out())
    for _ in range(max(10, rounds // 50)):
        await asyncio.sleep(SETTLE)
        cpu0 = sum(host_cpu_ns(pid))
        spaced.append(await fan_out())
        await asyncio.sleep(SETTLE)
        cpu.append((sum(host_cpu_ns(pid)) - cpu0) / 1e3)
        for seats, cpus in journaled.items():
            await asyncio.sleep(SETTLE)
            cpu0 = sum(host_cpu_ns(pid))
            await fan_out("fanj", seats)
            await asyncio.sleep(SETTLE)
            cpus.append((sum(host_cpu_ns(pid)) - cpu0) / 1e3)
    for _, w in conns:
        w.close()
    return Bare(echo, fan, spaced, statistics.mean(cpu),
                {n: statistics.mean(x) for n, x in journaled.items()})


@dataclass
class GameRun:
    """One game's figures of one repeat."""

    latencies: list[float]  # actions sent while no secret step was open
    secret_latencies: list[float]  # actions sent inside one (applied at the step's tick)
    bytes_per_action: float
    unpadded_per_action: float
    cpu_s: float  # the host's CPU time while its tables played, secret steps' ticks included
    changes: int  # changes every seat received (one action each, or a secret step's tick)
    loop_ns: int  # the host's CPU charged to the actions sent outside a secret step: loop
    other_ns: int  # … other threads
    charged: int  # those actions

    @property
    def cpu_us_per_change(self) -> float:
        """Host CPU per action sent while no secret step was open (one change each)."""
        return (self.loop_ns + self.other_ns) / max(1, self.charged) / 1e3

    @property
    def loop_us_per_change(self) -> float:
        """The same, on the event loop's thread alone."""
        return self.loop_ns / max(1, self.charged) / 1e3

    @property
    def cpu_us_per_view(self) -> float:
        """Host CPU over whole games per view seat 0 received (secret steps' ticks too)."""
        return self.cpu_s / max(1, self.changes) * 1e6


async def measure_game(port: int, host_pid: int, game: str, seats: int, actions: int,
                       seconds: float, rng: random.Random) -> GameRun:
    """Tables of ``game`` played one action per change until ``actions`` were measured (or
    ``seconds`` passed): latencies, the host's CPU per change (measured from each table's
    start to its end, so logins and seating are not charged), and frame bytes per accepted
    action as sent and as they would have been without padding (what the traffic rule's
    padding costs)."""
    lat: list[float] = []
    lat_secret: list[float] = []
    total_bytes = unpadded = accepted = changes = loop_ns = other_ns = charged = 0
    cpu = 0.0
    deadline = time.monotonic() + seconds
    n = 0
    while len(lat) + len(lat_secret) < actions and time.monotonic() < deadline:
        n += 1
        clients = await seat_table(port, game, seats, rng, None, f"{game[:3]}{n}-")
        turns = Turns(clients, rng, host_pid)
        for c in clients:
            c.counting = True
            c.turns = turns
        cpu0 = proc_stat(host_pid)[0]
        clients[0].send({"type": "start", "table": clients[0].table})
        with clients_without_gc(), contextlib.suppress(TimeoutError):
            await clients[0].until(
                lambda cl=clients: all(c.over for c in cl) or time.monotonic() > deadline,
                max(1.0, deadline - time.monotonic()))
        cpu += proc_stat(host_pid)[0] - cpu0
        changes += clients[0].views
        lat += latencies(clients)
        lat_secret += latencies(clients, secret=True)
        total_bytes += sum(c.bytes for c in clients)
        unpadded += sum(c.unpadded for c in clients)
        accepted += sum(len(c.accepted) + len(c.accepted_secret) for c in clients)
        loop_ns += turns.loop_ns
        other_ns += turns.other_ns
        charged += turns.measured
        turns.close()
        for c in clients:
            c.close()
        await host_quiet(host_pid)  # a table left unfinished goes quiet before the next one
    return GameRun(lat, lat_secret, total_bytes / max(1, accepted),
                   unpadded / max(1, accepted), cpu, changes, loop_ns, other_ns,
                   charged)


async def measure_scale(port: int, host_pid: int, tables: int, seconds: float,
                        rng: random.Random) -> dict[str, Any]:
    _, rss0, _ = proc_stat(host_pid)
    games = list(GAMES)
    clients: list[list[Seat]] = []
    setup_started = time.perf_counter()
    refused = ""
    for t in range(tables):
        try:
            clients.append(await seat_table(port, games[t % 3], 4, rng, (0.3, 1.0), f"s{t}-"))
        except (TimeoutError, RuntimeError, OSError) as exc:
            refused = f"table {t + 1}: {exc}"
            break
        if (t + 1) % 50 == 0:
            print(f"  scale: {t + 1}/{tables} tables seated "
                  f"({time.perf_counter() - setup_started:.1f} s)", flush=True)
    setup_s = time.perf_counter() - setup_started
    # the window opens with the start burst: every table's start at once (each journal
    # created, each first view rendered), then play at a human-plus pace
    cpu0, _, _ = proc_stat(host_pid)
    mine0, wall0 = time.process_time(), time.perf_counter()
    for table in clients:
        for c in table:
            c.counting = True
    with clients_without_gc():
        started = time.perf_counter()
        for table in clients:
            for c in table:
                c.started_at = started
            table[0].send({"type": "start", "table": table[0].table})
        await asyncio.sleep(seconds)
        cpu1, rss1, hwm = proc_stat(host_pid)
        mine = (time.process_time() - mine0) / (time.perf_counter() - wall0)
        for table in clients:
            for c in table:
                c.counting = False  # what is sent from now on is not measured
        await asyncio.sleep(min(2.0, seconds))  # the answers still on their way
    lat = [x for table in clients for x in latencies(table)]
    unanswered = sum(len(c.sent_at) for table in clients for c in table)
    starts = [max(c.first_view for c in table) - table[0].started_at for table in clients
              if all(c.first_view is not None for c in table)]
    acts = sum(len(c.accepted) + len(c.accepted_secret) for table in clients for c in table)
    dropped = sum(1 for table in clients for c in table if c.task.done())
    for table in clients:
        for c in table:
            c.close()
    return {"tables_seated": len(clients), "setup_s": setup_s, "refused": refused,
            "latency_ms": {"p50": quantile(lat, 0.5) * 1e3, "p99": quantile(lat, 0.99) * 1e3,
                           "max": max(lat, default=float("nan")) * 1e3},
            "start_ms": {"p50": quantile(starts, 0.5) * 1e3,
                         "p99": quantile(starts, 0.99) * 1e3,
                         "max": max(starts, default=float("nan")) * 1e3},
            "tables_started": len(starts),
            "actions": acts, "unanswered": unanswered, "dropped": dropped,
            "cpu_s_per_1000_actions": (cpu1 - cpu0) / max(1, acts) * 1000,
            "rss_per_table_mb": (rss1 - rss0) / 1024 / max(1, len(clients)),
            "peak_rss_mb": hwm / 1024,
            # the share of a core the host and the bench's own clients used in the window: a
            # client side near 1.0 means the figures measure the clients, not the host
            "host_cpu_share": (cpu1 - cpu0) / seconds, "clients_cpu_share": mine}


def measure_selfplay(game: str, seconds: float) -> float:
    """Random bots' games of ``game`` per CPU second of this process (CPU, not wall time: the
    machine may be shared)."""
    from hexnet.games import get_game, get_policy
    from hexnet.tools.selfplay import play_game

    engine = get_game(game)
    policy = get_policy(game, "random")
    seats = 4 if game != "fang" else 8
    played, started, seed = 0, time.process_time(), 0
    while time.process_time() - started < seconds:
        play_game(engine, [policy] * seats, seed)
        played += 1
        seed += 1
    return played / (time.process_time() - started)


def measure_search(game: str, seconds: float) -> float:
    """Search playouts per second of ``game`` in this process."""
    from hexnet.tools.searchbench import DEFAULT_PLAYERS, playout_rate

    return playout_rate(game, DEFAULT_PLAYERS[game], seconds)


def host_command(work: Path, slow_disk: float, secret_every: float | None = None,
                 breakdown: Path | None = None) -> list[str]:
    """The host under test: ``hexnet host --headless`` (under ``--slow-disk``'s and
    ``--breakdown``'s wrappers)."""
    args = ["host", "--headless", "--open", "--bind", "127.0.0.1", "--port", "0", "--no-mdns",
            "--name", "bench", "--config-dir", str(work / "cfg"), "--data-dir",
            str(work / "data"),
            # thousands of client keys and tables from 127.0.0.1: the bench is one trusted
            # address
            "--identities-per-address", str(UNCAPPED),
            "--max-open-tables-per-address", str(UNCAPPED),
            "--max-tables-per-hour-per-address", str(UNCAPPED),
            "--absent-after", str(ABSENT_AFTER)]
    if secret_every is not None:
        args += ["--secret-every", str(secret_every)]
    wrappers = (["--slow-disk", str(slow_disk)] if slow_disk > 0 else []) + (
        ["--breakdown", str(breakdown)] if breakdown is not None else [])
    if wrappers:
        return [sys.executable, "-m", "host.bench", *wrappers, *args]
    return [sys.executable, "-m", "hexnet.cli", *args]


def load() -> float:
    """The machine's 1-minute load average (the bench shares it with whatever else runs)."""
    return os.getloadavg()[0]


async def bench(args: argparse.Namespace) -> dict[str, Any]:
    """Every measurement of ``hexnet bench``; the host's and the bare server's files (their
    journals, certificates, keys) live in a temporary directory removed at the end."""
    with tempfile.TemporaryDirectory(prefix="hexnet-bench-") as work:
        return await _bench(args, Path(work))


async def _bench(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    rng = random.Random(args.seed)
    slow = ["--slow-disk", str(args.slow_disk)] if args.slow_disk > 0 else []
    echo = await start_proc([sys.executable, "-m", "host.bench", *slow, "--echo-server",
                             str(work / "echo_cfg")], ECHO_READY)
    spots = work / "breakdown.json" if args.breakdown else None
    host = await start_proc(host_command(work, args.slow_disk, args.secret_every, spots), READY)
    say = print
    result: dict[str, Any] = {"repeats": args.repeats, "games": {}, "tables": args.tables,
                              "slow_disk_ms": args.slow_disk, "load": {}}
    loads: list[float] = []
    try:
        echo_runs, fan_runs = [], []
        fan_cpus: list[float] = []  # the bare server's CPU per fan-out, timed as a change
        floor_cpus: list[dict[int, float]] = []  # … after a journal record, by seats (floor)
        spaced_runs: list[float] = []  # its fan-out p50 spaced as the changes are
        game_runs: dict[str, list[GameRun]] = {g: [] for g in args.games}
        for r in range(args.repeats):
            loads.append(load())
            bare = await measure_echo(echo.port, args.echo_rounds, echo.pid)
            echo_runs.append((quantile(bare.echo, 0.5), quantile(bare.echo, 0.99)))
            fan_runs.append((quantile(bare.fan, 0.5), quantile(bare.fan, 0.99)))
            spaced_runs.append(quantile(bare.spaced, 0.5))
            fan_cpus.append(bare.cpu_us)
            floor_cpus.append(bare.floor_cpu_us)
            say(f"repeat {r + 1}/{args.repeats} (load {loads[-1]:.1f}): echo p50 "
                f"{echo_runs[-1][0] * 1e3:.3f} ms, spaced fan-out p50 "
                f"{spaced_runs[-1] * 1e3:.3f} ms and CPU {bare.cpu_us:.0f} µs "
                f"(journaled, the floor: {_per_seats(bare.floor_cpu_us)})")
            for g in args.games:
                run = await measure_game(host.port, host.pid, g, GAMES[g], args.actions,
                                         args.game_seconds, rng)
                game_runs[g].append(run)
                say(f"  {g}: p50 {quantile(run.latencies, 0.5) * 1e3:.2f} ms "
                    f"({quantile(run.latencies, 0.5) / echo_runs[-1][0]:.1f}× echo), p99 "
                    f"{quantile(run.latencies, 0.99) * 1e3:.2f} ms, host CPU "
                    f"{run.cpu_us_per_change:.0f} µs/change "
                    f"({run.cpu_us_per_change / fan_cpus[-1]:.1f}× the fan-out's, "
                    f"{run.cpu_us_per_change / floor_cpus[-1][GAMES[g]]:.1f}× the floor; loop "
                    f"{run.loop_us_per_change:.0f}, "
                    f"n={run.charged}; {run.cpu_us_per_view:.0f} µs/view over whole games), "
                    f"{run.bytes_per_action:.0f} "
                    f"B/action ({run.unpadded_per_action:.0f} unpadded) "
                    f"(n={len(run.latencies)}, {run.changes} changes); inside secret steps "
                    f"p50 {quantile(run.secret_latencies, 0.5) * 1e3:.2f} ms "
                    f"(n={len(run.secret_latencies)})")
        med = statistics.median
        e50, e99 = med(x[0] for x in echo_runs), med(x[1] for x in echo_runs)
        result["echo_ms"] = {"p50": e50 * 1e3, "p99": e99 * 1e3}
        result["fanout_ms"] = {"p50": med(x[0] for x in fan_runs) * 1e3,
                               "p99": med(x[1] for x in fan_runs) * 1e3,
                               "spaced_p50": med(spaced_runs) * 1e3,
                               "cpu_us": med(fan_cpus),
                               "floor_cpu_us": {str(n): med(x[n] for x in floor_cpus)
                                                for n in floor_cpus[0]}}
        for g, runs in game_runs.items():
            p50s = [quantile(x.latencies, 0.5) for x in runs]
            p99s = [quantile(x.latencies, 0.99) for x in runs]
            secret = [x.secret_latencies for x in runs]
            # the ratio to the echo of the same repeat, then its median (the machine is shared:
            # a ratio within one repeat is steadier than a ratio of medians)
            ratios = [p / e[0] for p, e in zip(p50s, echo_runs, strict=True)]
            result["games"][g] = {"seats": GAMES[g],
                                  "latency_ms": {"p50": med(p50s) * 1e3, "p99": med(p99s) * 1e3},
                                  "latency_ratio_p50": med(ratios),
                                  "latency_ratio_p99": med(p99s) / e99,
                                  # … and to the fan-out spaced as the changes are (both
                                  # wake from idle)
                                  "latency_ratio_spaced_p50": med(
                                      p / f for p, f in zip(p50s, spaced_runs, strict=True)),
                                  "actions": sum(len(x.latencies) for x in runs),
                                  # actions sent inside a secret step: applied and answered at
                                  # the step's tick (issue 22), so its cadence, not the host
                                  "secret_step_latency_ms": {
                                      "p50": med(quantile(x, 0.5) for x in secret) * 1e3,
                                      "p99": med(quantile(x, 0.99) for x in secret) * 1e3},
                                  "secret_step_actions": sum(len(x) for x in secret),
                                  "host_cpu_us_per_change": med(
                                      x.cpu_us_per_change for x in runs),
                                  # … over the bare fan-out's CPU of the same repeat
                                  "host_cpu_ratio": med(
                                      x.cpu_us_per_change / c
                                      for x, c in zip(runs, fan_cpus, strict=True)),
                                  # … and over its journaled fan-out's: a change's floor
                                  "host_cpu_ratio_floor": med(
                                      x.cpu_us_per_change / c
                                      for x, c in zip(runs, (f[GAMES[g]] for f in floor_cpus),
                                                      strict=True)),
                                  "host_loop_us_per_change": med(
                                      x.loop_us_per_change for x in runs),
                                  "host_cpu_changes": sum(x.charged for x in runs),
                                  "host_cpu_us_per_view": med(
                                      x.cpu_us_per_view for x in runs),
                                  "bytes_per_action": med(x.bytes_per_action for x in runs),
                                  "bytes_per_action_unpadded": med(
                                      x.unpadded_per_action for x in runs)}
        result["load"]["games"] = loads
        if args.tables:
            say(f"scale: {args.tables} tables of 4 clients, think 0.3–1 s, start burst, "
                f"{args.seconds:g} s" + (f", fsync +{args.slow_disk:g} ms" if args.slow_disk
                                         else ""))
            result["load"]["scale"] = load()
            result["scale"] = await measure_scale(host.port, host.pid, args.tables,
                                                  args.seconds, rng)
    finally:
        await host.stop()
        await echo.stop()
    if spots is not None:
        if not spots.exists():
            raise RuntimeError("the host wrote no breakdown (it did not exit cleanly)")
        result["breakdown"] = json.loads(spots.read_text())
    with bench_heap_frozen():
        if args.selfplay_seconds > 0:
            result["load"]["selfplay"] = load()
            result["selfplay"] = {g: measure_selfplay(g, args.selfplay_seconds)
                                  for g in args.games}
        if args.search_seconds > 0:
            result["load"]["search"] = load()
            result["search"] = {g: measure_search(g, args.search_seconds) for g in args.games}
    return result


@contextlib.contextmanager
def bench_heap_frozen() -> Any:
    """The bench's own objects (its clients' records of every frame) left out of the garbage
    collections of what runs inside (``gc.freeze``): the in-process selfplay and search then pay
    for collecting their own garbage only, as in a process of their own."""
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _per_seats(floor: dict[Any, float]) -> str:
    """The floor's CPU by seats, as printed: ``522 µs to 4, 566 µs to 8``."""
    return ", ".join(f"{cpu:.0f} µs to {seats}" for seats, cpu in floor.items())


def print_table(r: dict[str, Any]) -> None:
    e = r["echo_ms"]
    loads = " ".join(f"{x:.1f}" for x in r["load"].get("games", []))
    print(f"\nload average at each repeat: {loads}")
    print(f"bare TLS echo      p50 {e['p50']:.3f} ms  p99 {e['p99']:.3f} ms")
    f = r["fanout_ms"]
    print(f"bare fan-out (4)   p50 {f['p50']:.3f} ms  p99 {f['p99']:.3f} ms; spaced as the "
          f"changes (idle {SETTLE * 1e3:g} ms between): p50 {f['spaced_p50']:.3f} ms, CPU "
          f"{f['cpu_us']:.0f} µs; with a journal record group-committed first (a change's "
          f"floor), to as many as a game's seats: CPU {_per_seats(f['floor_cpu_us'])}")
    print("actions sent while no secret step was open (p50, p99, × echo, p50 × the spaced "
          "fan-out's; the host's CPU per such action, all threads and its loop's, and × the "
          "spaced fan-out's CPU, without and with the journal record), and inside one (step "
          "p50: answered at the step's tick)")
    print(f"{'game (seats)':<18}{'p50 ms':>9}{'p99 ms':>9}{'×echo p50':>11}{'×echo p99':>11}"
          f"{'×fan p50':>10}{'CPU µs':>9}{'loop µs':>9}{'×fan':>6}{'×floor':>7}{'B/action':>10}"
          f"{'unpadded':>10}{'step p50':>10}")
    for g, x in r["games"].items():
        print(f"{g + ' (' + str(x['seats']) + ')':<18}{x['latency_ms']['p50']:>9.2f}"
              f"{x['latency_ms']['p99']:>9.2f}{x['latency_ratio_p50']:>11.1f}"
              f"{x['latency_ratio_p99']:>11.1f}{x['latency_ratio_spaced_p50']:>10.1f}"
              f"{x['host_cpu_us_per_change']:>9.0f}"
              f"{x['host_loop_us_per_change']:>9.0f}{x['host_cpu_ratio']:>6.1f}"
              f"{x['host_cpu_ratio_floor']:>7.1f}"
              f"{x['bytes_per_action']:>10.0f}{x['bytes_per_action_unpadded']:>10.0f}"
              f"{x['secret_step_latency_ms']['p50']:>10.1f}")
    if "breakdown" in r:
        from host import breakdown

        print("\n".join(breakdown.lines(r["breakdown"])))
    if "scale" in r:
        s = r["scale"]
        slow = f", fsync +{r['slow_disk_ms']:g} ms" if r["slow_disk_ms"] else ""
        print(f"scale: {s['tables_seated']}/{r['tables']} tables seated in {s['setup_s']:.1f} s"
              f"{' (' + s['refused'] + ')' if s['refused'] else ''}, "
              f"{s['tables_started']} started (start → every seat's first view p50 "
              f"{s['start_ms']['p50']:.1f} ms p99 {s['start_ms']['p99']:.1f} ms); latency p50 "
              f"{s['latency_ms']['p50']:.1f} ms p99 {s['latency_ms']['p99']:.1f} ms max "
              f"{s['latency_ms']['max']:.1f} ms over {s['actions']} actions "
              f"({s['unanswered']} unanswered), {s['dropped']} dropped; host CPU "
              f"{s['cpu_s_per_1000_actions']:.2f} s/1000 actions; RSS "
              f"{s['rss_per_table_mb']:.2f} MB/table, peak {s['peak_rss_mb']:.0f} MB; CPU share "
              f"host {s['host_cpu_share']:.2f}, bench clients {s['clients_cpu_share']:.2f} "
              f"(load {r['load']['scale']:.1f}{slow})")
    for g, gps in r.get("selfplay", {}).items():
        print(f"selfplay {g}: {gps:.1f} games per CPU second")
    for g, pps in r.get("search", {}).items():
        print(f"search {g}: {pps:.0f} playouts per CPU second")


def run(args: argparse.Namespace) -> int:
    """``hexnet bench``."""
    try:
        result = arun(bench(args))
    except (RuntimeError, OSError, TimeoutError) as exc:
        print(f"hexnet bench: {exc}", file=sys.stderr)
        return 1
    print_table(result)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
        print(f"figures written to {args.json}")
    return 0


def slow_disk(ms: float) -> None:
    """Make this process's every ``fsync``/``fdatasync`` ``ms`` milliseconds slower (the wait
    releases the GIL, as a disk's does)."""
    for name in ("fsync", "fdatasync"):
        real = getattr(os, name, None)
        if real is None:
            continue

        def slow(fd: Any, real: Any = real) -> None:
            time.sleep(ms / 1000)
            real(fd)
        setattr(os, name, slow)


def main(argv: list[str] | None = None) -> int:
    """``python -m host.bench [--slow-disk MS] --echo-server DIR``: the bare echo server the
    bench starts (its journal's fsyncs as slow as the host's);
    ``python -m host.bench [--slow-disk MS] [--breakdown FILE] host ARGS…``: ``hexnet host
    ARGS…`` with every fsync ``MS`` ms slower (``hexnet bench --slow-disk``) and its CPU counted
    by function into ``FILE`` (``hexnet bench --breakdown``, :mod:`host.breakdown`). The bench
    itself is ``hexnet bench``."""
    argv = list(sys.argv[1:] if argv is None else argv)
    wrapped = False
    while len(argv) >= 3 and argv[0] in ("--slow-disk", "--breakdown"):
        if argv[0] == "--slow-disk":
            slow_disk(float(argv[1]))
        else:
            from host import breakdown

            breakdown.write_at_exit(Path(argv[1]), breakdown.install())
        argv, wrapped = argv[2:], True
    if len(argv) == 2 and argv[0] == "--echo-server":
        arun(_echo_server(argv[1]))
        return 0
    if wrapped and argv[:1] == ["host"]:
        sys.argv = ["hexnet", *argv]  # the front door, as `python -m hexnet.cli` runs it
        runpy.run_module("hexnet.cli", run_name="__main__", alter_sys=True)
        return 0
    print("usage: python -m host.bench [--slow-disk MS] --echo-server DIR | [--slow-disk MS] "
          "[--breakdown FILE] host ARGS… (the bench is: hexnet bench)", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
