"""The soak: ``python -m host.soak --games 500`` — many bot games over the network against one
``hexnet host --headless`` subprocess, with random client disconnects, watching the host's memory.

Games rotate over the three games (4 bot clients each, one ``hexnet bot`` process per game,
``--parallel`` tables at once); in a share of them (``--cut-rate``) one client's connection is cut
by a relay in front of the host at a random moment of the game (once a connection has played 3 s),
and that client must reconnect and finish.
Every finished table's journal is verified (commitment, every step, outcome). Progress lines show
games done, failures, exceptions (bot errors + host log lines reporting an error), reconnects and
the host's RSS; the summary compares the RSS after warm-up with the last reading. Exit 0 if every
game finished and verified.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import re
import sys
import tempfile
import time
import traceback
from pathlib import Path

from host.drill import Drill, Relay, add_secret_every, say
from host.flags import UNCAPPED
from host.journal import read_journal
from host.verify import verify_contents

GAMES = ("hexenhammer", "fang", "hranice")
HOST_TROUBLE = ("internal error", "Traceback", "JOURNAL WRITE FAILED", "Error")


def rss_kib(pid: int) -> int:
    """Resident set size of ``pid`` in KiB (0 if unknown)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


class Soak:
    """A soak run against one host subprocess (started and stopped by pid)."""

    def __init__(self, workdir: Path, games: int, parallel: int, cut_rate: float,
                 seed: int, game_timeout: float, resend: float | None = None,
                 secret_every: float | None = None) -> None:
        self.drill = Drill(workdir, GAMES[0], seed, game_timeout,  # host process handling
                           secret_every=secret_every)
        # every game brings four new bot keys from 127.0.0.1: the soak is one trusted address
        self.drill.host_cmd += ["--identities-per-address", str(UNCAPPED),
                                "--max-tables-per-hour-per-address", str(UNCAPPED)]
        self.dir = workdir
        self.total = games
        self.parallel = parallel
        self.cut_rate = cut_rate
        self.rng = random.Random(seed)
        self.game_timeout = game_timeout
        self.resend = resend
        self.done = self.failed = self.exceptions = self.cuts = self.reconnects = 0
        self.unverified = 0
        self.rss: list[tuple[int, int]] = []  # (games done, KiB)
        self.failures: list[str] = []

    async def one_game(self, n: int, relay: Relay) -> None:
        """Game ``n``: four bot clients in a ``hexnet bot`` process of their own (the host's
        room imports nothing of the client's), through the relay; maybe one connection cut."""
        game = GAMES[n % len(GAMES)]
        cut_after = self.rng.uniform(0.1, 3.0) if self.rng.random() < self.cut_rate else None
        bots: asyncio.subprocess.Process | None = None

        async def cutter() -> None:
            """After ``cut_after`` s, cut a connection as soon as one has played ≥ 3 s (not
            one still being set up)."""
            assert cut_after is not None and bots is not None
            await asyncio.sleep(cut_after)
            while bots.returncode is None:
                if relay.cut_one(self.rng, min_age=3.0):
                    self.cuts += 1
                    return
                await asyncio.sleep(0.1)

        cut_task: asyncio.Future[None] | None = None
        try:
            bots = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "hexnet.cli", "bot", f"127.0.0.1:{relay.port}",
                "--game", game, "--count", "4", "--policy", "heuristic",
                "--code", self.drill.room_code, "--config-dir", str(self.dir / "client"),
                "--name", f"g{n}-", "--seed", str(n), "--resend", str(self.resend or 0),
                "--lang", "en", stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
            if cut_after is not None:
                cut_task = asyncio.ensure_future(cutter())
            try:
                out, _ = await asyncio.wait_for(bots.communicate(), self.game_timeout)
            except TimeoutError:
                raise TimeoutError(f"no end within {self.game_timeout:g} s") from None
            text = out.decode(errors="replace")
            reconnected = re.search(r"^reconnected (\d+) times?$", text, re.M)
            self.reconnects += int(reconnected.group(1)) if reconnected else 0
            table = re.search(r"^table (\d+): \w+ over after", text, re.M)
            if bots.returncode != 0 or table is None:
                self.failed += 1
                last = text.strip().splitlines()[-1:] or ["no output"]
                self.failures.append(f"game {n} ({game}) ended without an outcome (the bots "
                                     f"exited with {bots.returncode}: {last[0]})")
                say(f"failure: {self.failures[-1]}")
                self.exceptions += "Traceback" in text
            else:
                self.check_journal(n, game, int(table.group(1)))
        except Exception as exc:  # noqa: BLE001 - counted and reported, the soak goes on
            self.exceptions += 1
            self.failed += 1
            self.failures.append(f"game {n} ({game}): {type(exc).__name__}: {exc}")
            say(f"failure: {self.failures[-1]}")
            say(traceback.format_exc(limit=-6))
        finally:
            if cut_task is not None:
                cut_task.cancel()
            await self.drill.stop_process(bots)
            self.done += 1

    def check_journal(self, n: int, game: str, table: int) -> None:
        paths = list((self.dir / "host_data" / "journals").glob(f"*-t{table}-*.journal"))
        if len(paths) != 1:
            self.unverified += 1
            self.failures.append(f"game {n} ({game}): {len(paths)} journals for table {table}")
            return
        verdict = verify_contents(read_journal(paths[0]))
        if not verdict.ok:
            self.unverified += 1
            self.failures.append(f"game {n} ({game}): journal does not verify: "
                                 f"{verdict.lines[-1]}")

    def host_trouble(self) -> int:
        return sum(1 for line in self.drill.host_log if any(t in line for t in HOST_TROUBLE))

    def progress(self, started: float) -> None:
        assert self.drill.host is not None
        kib = rss_kib(self.drill.host.pid)
        self.rss.append((self.done, kib))
        say(f"{self.done}/{self.total} games, {self.failed} failed, {self.unverified} "
            f"unverified, exceptions {self.exceptions} (+{self.host_trouble()} host error "
            f"lines), cuts {self.cuts}, reconnects {self.reconnects}, host RSS "
            f"{kib / 1024:.1f} MiB, {time.monotonic() - started:.0f} s")

    async def run(self) -> bool:
        for sub in ("host_cfg", "host_data", "client"):
            (self.dir / sub).mkdir(parents=True, exist_ok=True)
        relay = Relay(self.drill.port)
        started = time.monotonic()
        try:
            await self.drill.start_host()
            await relay.start()
            say(f"host pid {self.drill.host.pid if self.drill.host else '?'}, "
                f"{self.parallel} tables at a time, cut rate {self.cut_rate}")
            self.progress(started)
            queue = list(range(self.total))
            every = max(1, min(25, self.total // 20))
            next_report = every

            async def worker() -> None:
                nonlocal next_report
                while queue:
                    await self.one_game(queue.pop(0), relay)
                    if self.done >= next_report:
                        next_report += every
                        self.progress(started)

            await asyncio.gather(*(worker() for _ in range(self.parallel)))
            self.progress(started)
        finally:
            await self.drill.stop_process(self.drill.host)
            await relay.stop()
        warm_games, warm = self.rss[len(self.rss) // 5]
        last = self.rss[-1][1]
        say(f"host RSS: start {self.rss[0][1] / 1024:.1f} MiB, after warm-up ({warm_games} "
            f"games) {warm / 1024:.1f} MiB, end {last / 1024:.1f} MiB, peak "
            f"{max(k for _, k in self.rss) / 1024:.1f} MiB")
        trouble = [line for line in self.drill.host_log if any(t in line for t in HOST_TROUBLE)]
        for line in trouble[:10]:
            say(f"host: {line}")
        for failure in self.failures[:20]:
            say(f"failure: {failure}")
        return not self.failed and not self.unverified and not self.exceptions


def main(argv: list[str] | None = None) -> int:
    """``python -m host.soak``."""
    parser = argparse.ArgumentParser(prog="python -m host.soak", description=__doc__.split(
        "\n\n")[0].replace("\n", " "))
    parser.add_argument("--games", type=int, default=500,
                        help="games to play, rotating over the three games (default 500)")
    parser.add_argument("--parallel", type=int, default=4, help="tables at once (default 4)")
    parser.add_argument("--cut-rate", type=float, default=0.3,
                        help="share of games in which one client is cut (default 0.3)")
    parser.add_argument("--seed", type=int, default=1,
                        help="fixes the bots' choices and when cuts come (default 1)")
    parser.add_argument("--game-timeout", type=float, default=180.0,
                        help="seconds one game may take before it counts as failed (default 180)")
    parser.add_argument("--keep", help="work in this directory and keep it")
    parser.add_argument("--resend", type=float, default=0.0,
                        help="bots send an unanswered action again after this many seconds "
                             "(default 0: never, so a lost answer shows as a stall)")
    add_secret_every(parser)
    args = parser.parse_args(argv)
    with contextlib.ExitStack() as stack:
        workdir = Path(args.keep) if args.keep else Path(
            stack.enter_context(tempfile.TemporaryDirectory(prefix="hexnet-soak-")))
        soak = Soak(workdir, args.games, args.parallel, args.cut_rate, args.seed,
                    args.game_timeout, args.resend if args.resend > 0 else None,
                    args.secret_every)
        ok = asyncio.run(soak.run())
    print("SOAK PASS" if ok else "SOAK FAIL", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
