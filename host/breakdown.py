"""Where a host's CPU goes: ``hexnet bench --breakdown``.

The host under test runs with the functions in :data:`SPOTS` wrapped: each call is charged the
CPU time of the thread it runs on (``time.thread_time_ns``: what that thread spent, not the
wall clock, so a call is not charged for the bench's clients or another thread running
meanwhile). At its exit the host writes every spot's calls and CPU to a JSON file, and the
bench prints them beside its figures. The spots nest (a tick publishes, publishing renders):
a spot's time includes the spots it calls. cProfile sees none of the C work (TLS, msgpack,
the journal's fsync) and slows Python many times over; this costs two clock reads a call.

A spot that no longer names a function is an error at start-up (a renamed function must be
renamed here too), so the table never quietly loses a line.
"""

from __future__ import annotations

import atexit
import importlib
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

# module:qualified name — the host's path for one action and one tick, outer to inner
SPOTS = (
    "host.links:FrameReader.data_received",  # a frame read: decode, check, route
    "host.playing:Play.settle",  # an action applied (outside a step: as it arrives)
    "host.table:Table.act",
    "hexnet.engine:Game.apply",
    "host.pacing:Pacing.tick",  # a secret step's tick (what waited, then every seat's frame)
    "host.dispatch:Dispatcher._tick",  # a loop tick: the changed tables' frames
    "host.publish:Publisher.publish",
    "host.render:frames",
    "host.render:public_parts",
    "hexnet.engine:Game.public_view",
    "host.render:_seat_parts",
    "hexnet.engine:Game.private_view",
    "host.dispatch:Dispatcher.carry_out",  # effects: journal first, then the frames
    "host.recovery:Recorder.write",
    "host.links:Links._write",  # one frame handed to TLS
    "host.journal:Syncer._round",  # (the journal's thread) a group of fsyncs
    "host.eventlog:LineWriter._write",  # (the log's thread) lines worded and written
)


def _resolve(spot: str) -> tuple[Any, str, Callable[..., Any]]:
    """(owner, attribute, function) of ``spot``; ValueError if it names nothing callable."""
    module_name, _, qualname = spot.partition(":")
    owner: Any = importlib.import_module(module_name)
    *path, name = qualname.split(".")
    for part in path:
        owner = getattr(owner, part, None)
        if owner is None:
            raise ValueError(f"breakdown spot {spot}: no {part} in {module_name}")
    fn = owner.__dict__.get(name) if isinstance(owner, type) else getattr(owner, name, None)
    if not callable(fn):
        raise ValueError(f"breakdown spot {spot}: no function {name}")
    return owner, name, fn


def install(spots: tuple[str, ...] = SPOTS) -> dict[str, list[int]]:
    """Wrap every spot; its ``[calls, thread CPU ns]`` are counted in the returned dict. A
    module's function imported by name into other modules is replaced there too. (Run it
    before the host is built.)"""
    counts: dict[str, list[int]] = {}
    clock = time.thread_time_ns
    swap: dict[int, Any] = {}  # id of a wrapped module function → its wrapper
    for spot in spots:
        owner, name, fn = _resolve(spot)
        count = counts[spot] = [0, 0]

        def timed(*args: Any, _fn: Any = fn, _count: list[int] = count, **kwargs: Any) -> Any:
            start = clock()
            try:
                return _fn(*args, **kwargs)
            finally:
                _count[0] += 1
                _count[1] += clock() - start
        timed.__wrapped__ = fn  # type: ignore[attr-defined]
        setattr(owner, name, timed)
        if not isinstance(owner, type):
            swap[id(fn)] = timed
    for module in list(sys.modules.values()):  # `from host.render import frames` elsewhere
        if getattr(module, "__name__", "").partition(".")[0] in ("host", "hexnet", "protocol"):
            for attr, value in list(vars(module).items()):
                if id(value) in swap and swap[id(value)] is not value:
                    setattr(module, attr, swap[id(value)])
    return counts


def write_at_exit(path: Path, counts: dict[str, list[int]]) -> None:
    """At the process's exit write ``counts`` and the process's CPU time to ``path``."""
    started = time.process_time_ns()

    def write() -> None:
        path.write_text(json.dumps({
            "process_cpu_ns": time.process_time_ns() - started,
            "spots": {s: {"calls": c, "cpu_ns": ns} for s, (c, ns) in counts.items()}}))
    atexit.register(write)


def lines(data: dict[str, Any]) -> list[str]:
    """The breakdown as a table: each spot's calls, CPU per call and share of the host's
    CPU, in :data:`SPOTS` order (outer first; a spot includes those it calls)."""
    total = max(1, data["process_cpu_ns"])
    out = [f"where the host's CPU went ({total / 1e9:.2f} s over the run; a spot includes "
           "the spots it calls)",
           f"  {'spot':<40}{'calls':>8}{'µs/call':>10}{'share':>8}"]
    for spot, x in data["spots"].items():
        per = x["cpu_ns"] / max(1, x["calls"]) / 1e3
        out.append(f"  {spot.partition(':')[2]:<40}{x['calls']:>8}{per:>10.1f}"
                   f"{x['cpu_ns'] / total:>8.1%}")
    return out
