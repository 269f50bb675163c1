"""Running many independent games: in this process, over worker processes on this machine, or
on a Dask cluster. Whichever runs them, results come back in the order the work was given, so a
ladder's figures do not depend on who played which game.

Work is a top-level function and a list of small argument tuples (picklable: names, seeds);
each game's randomness comes from its seed alone, never from the process that plays it.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

CHUNK_MAX = 32  # games sent to a worker at once, at most (keeps the progress bar moving)
DASK_CONNECT = 10  # seconds to reach a Dask scheduler


class WorkersError(RuntimeError):
    """The workers cannot be had or were lost (a sentence for the user)."""


def default_workers() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _run_chunk(fn: Callable[..., Any], chunk: Sequence[tuple[Any, ...]]) -> list[Any]:
    return [fn(*args) for args in chunk]


def _chunks(items: Sequence[tuple[Any, ...]], workers: int) -> list[Sequence[tuple[Any, ...]]]:
    size = max(1, min(CHUNK_MAX, len(items) // (workers * 8)))
    return [items[i:i + size] for i in range(0, len(items), size)]


class Runner:
    """Plays ``fn(*args)`` for every ``args``; :meth:`map` returns the results in order and
    calls ``done(n)`` as each ``n`` items finish. Use as a context manager."""

    workers = 1
    where = "this process"

    def map(self, fn: Callable[..., Any], items: Sequence[tuple[Any, ...]],
            done: Callable[[int], None] | None = None) -> list[Any]:
        out = []
        for args in items:
            out.append(fn(*args))
            if done:
                done(1)
        return out

    def close(self) -> None:
        """Release the workers."""

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Processes(Runner):
    """Worker processes on this machine, started fresh from a fork server (no inherited
    threads or sockets), kept for the runner's lifetime."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.where = f"{workers} worker processes"
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["hexnet.tools.selfplay"])
        self._pool = ProcessPoolExecutor(max_workers=workers, mp_context=context)

    def map(self, fn: Callable[..., Any], items: Sequence[tuple[Any, ...]],
            done: Callable[[int], None] | None = None) -> list[Any]:
        chunks = _chunks(items, self.workers)
        try:
            futures = [self._pool.submit(_run_chunk, fn, c) for c in chunks]
            pending: set[Future[Any]] = set(futures)
            sizes = {f: len(c) for f, c in zip(futures, chunks, strict=True)}
            while pending:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for f in finished:
                    f.result()  # raise a worker's error now
                    if done:
                        done(sizes[f])
            return [r for f in futures for r in f.result()]
        except BrokenProcessPool as exc:
            raise WorkersError(f"a worker process died: {exc}") from exc

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


class Dask(Runner):
    """The workers of a Dask cluster (``distributed``), reached through its scheduler. Every
    worker needs hexnet installed (the same version)."""

    def __init__(self, scheduler: str) -> None:
        try:
            from distributed import Client
        except ImportError:
            raise WorkersError("--scheduler needs Dask: pip install 'hexnet[cluster]'") from None
        try:
            self._client = Client(scheduler, timeout=DASK_CONNECT, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as exc:
            raise WorkersError(f"cannot reach the Dask scheduler at {scheduler}: "
                               f"{exc.args[0] if exc.args else exc}") from None
        self.workers = max(1, sum(self._client.nthreads().values()))
        self.where = f"Dask at {scheduler} ({self.workers} worker threads)"

    def map(self, fn: Callable[..., Any], items: Sequence[tuple[Any, ...]],
            done: Callable[[int], None] | None = None) -> list[Any]:
        from distributed import as_completed

        chunks = _chunks(items, self.workers)
        futures = [self._client.submit(_run_chunk, fn, c, pure=False) for c in chunks]
        sizes = {f.key: len(c) for f, c in zip(futures, chunks, strict=True)}
        for f in as_completed(futures, loop=self._client.loop):
            f.result()  # raise a worker's error now
            if done:
                done(sizes[f.key])
        return [r for f in futures for r in f.result()]

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._client.close()


def open_runner(workers: int | None = None, scheduler: str | None = None,
                tasks: int | None = None) -> Runner:
    """A Dask runner for ``scheduler``, else ``workers`` processes (default: the cores; no
    more than ``tasks``), or this process alone when that is one."""
    if scheduler:
        return Dask(scheduler)
    n = default_workers() if workers is None else workers
    if tasks is not None:
        n = min(n, tasks)
    return Processes(n) if n > 1 else Runner()
