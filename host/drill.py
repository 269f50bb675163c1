"""The crash drill: ``python -m host.drill`` — kill the host twice and cut a client once during a
bot game over the network; the game must still finish, verify, and equal a fresh replay.

What it does (everything on 127.0.0.1, temp config/data dirs, bounded in time):

1. starts ``hexnet host --headless`` as a subprocess and reads its room code;
2. starts ``hexnet bot … --count 4`` against a small TCP relay of its own (so it can cut one
   client's connection without touching the others) in front of the host;
3. as the journal grows: SIGKILLs the host at a random step and restarts it with the SAME command,
   cuts one bot's connection at the relay, SIGKILLs and restarts the host once more;
4. waits for the bots to finish, stops the host (SIGTERM, then SIGKILL, by pid);
5. runs ``hexnet verify JOURNAL`` and replays the journal's seed + actions in-process: the outcome
   must equal the journal's end record and what the bots were shown.

Prints each step and PASS or FAIL; exit status 0 / 1.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
import random
import re
import signal
import socket
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hexnet.games import get_game, get_policy, names
from host.journal import JournalError, read_journal
from protocol import traffic

HOST_READY = re.compile(r"ready on")
ROOM_CODE = re.compile(r"room code ([0-9A-Z]{5}-[0-9A-Z]{5})")


def say(line: str) -> None:
    """One drill line on stdout."""
    print(f"[drill {time.strftime('%H:%M:%S')}] {line}", flush=True)


async def stop_process(proc: asyncio.subprocess.Process | None, grace: float = 5.0) -> None:
    """SIGTERM ``proc`` by pid, SIGKILL after ``grace`` seconds (nothing if it ended)."""
    if proc is None or proc.returncode is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.kill(proc.pid, signal.SIGTERM)
    try:
        await asyncio.wait_for(proc.wait(), grace)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            os.kill(proc.pid, signal.SIGKILL)
        await proc.wait()


def in_workdir(keep: str | None, prefix: str,
               run: Callable[[Path], list[str]]) -> tuple[list[str], float]:
    """``run(directory)`` in ``keep`` (kept) or a temporary directory (removed): its failures
    and the seconds it took."""
    started = time.monotonic()
    if keep:
        failures = run(Path(keep))
    else:
        with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
            failures = run(Path(tmp))
    return failures, time.monotonic() - started


def pass_or_fail(failures: list[str], took: float, passed: str) -> int:
    """Print each failure and FAIL (1), or ``passed`` as PASS (0)."""
    if failures:
        for failure in failures:
            say(f"FAIL: {failure}")
        print(f"FAIL ({took:.1f} s)", flush=True)
        return 1
    print(f"PASS: {passed} ({took:.1f} s)", flush=True)
    return 0


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Relay:
    """A TCP relay 127.0.0.1:port → the host, one pipe pair per client, any of them cuttable."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.pairs: list[tuple[asyncio.StreamWriter, asyncio.StreamWriter]] = []
        self.born: dict[int, float] = {}  # id(pair) → when it was made
        self.server: asyncio.base_events.Server | None = None
        self.port = 0

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._client, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]
        return self.port

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            writer.transport.abort()
            return
        pair = (writer, up_writer)
        self.pairs.append(pair)
        self.born[id(pair)] = time.monotonic()

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            with contextlib.suppress(Exception):
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            for w in pair:  # one side gone: the other goes too (as a real cut would look)
                w.transport.abort()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))
        with contextlib.suppress(ValueError):
            self.pairs.remove(pair)
        self.born.pop(id(pair), None)

    def cut_one(self, rng: random.Random, min_age: float = 0.0) -> bool:
        """Abort one live client connection at least ``min_age`` s old (both sides); whether
        there was one."""
        now = time.monotonic()
        live = [p for p in self.pairs if not p[0].transport.is_closing()
                and now - self.born.get(id(p), now) >= min_age]
        if not live:
            return False
        for w in rng.choice(live):
            w.transport.abort()
        return True

    async def stop(self) -> None:
        for pair in list(self.pairs):
            for w in pair:
                w.transport.abort()
        if self.server is not None:
            self.server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.server.wait_closed(), 2.0)


def _tick(text: str) -> float:
    """A host's secret-step tick in seconds, within :data:`protocol.traffic.SECRET_EVERY_RANGE`
    (the range ``hexnet host`` takes: a value outside it is refused here, not by the host the
    tool starts)."""
    low, high = traffic.SECRET_EVERY_RANGE
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not low <= value <= high:
        raise argparse.ArgumentTypeError(f"must be {low:g}–{high:g} seconds, not {text}")
    return value


def add_secret_every(parser: argparse.ArgumentParser) -> None:
    """``--secret-every``: the tick of the host a tool starts (the drill, the soak)."""
    parser.add_argument("--secret-every", type=_tick, metavar="SECONDS",
                        help="the host's secret-step tick (hexnet host --secret-every; default "
                             "the host's)")


class Drill:
    """One run of the drill; :meth:`run` returns the list of failures (empty = PASS)."""

    def __init__(self, workdir: Path, game: str, seed: int, timeout: float,
                 plan: tuple[int, int, int] | None = None,
                 secret_every: float | None = None) -> None:
        self.dir = workdir
        self.game = game
        self.rng = random.Random(seed)
        self.timeout = timeout
        self.port = free_port()
        self.host_cmd = [sys.executable, "-m", "hexnet.cli", "host", "--headless",
                         "--bind", "127.0.0.1", "--port", str(self.port), "--no-mdns",
                         "--name", "drill", "--config-dir", str(workdir / "host_cfg"),
                         "--data-dir", str(workdir / "host_data"), "--absent-after", "60"]
        if secret_every is not None:
            self.host_cmd += ["--secret-every", str(secret_every)]
        self.host: asyncio.subprocess.Process | None = None
        self.host_log: list[str] = []
        self.room_code = ""
        self.failures: list[str] = []
        self.plan = plan  # journal steps of the first kill, the cut and the second kill
        self.too_short = False  # the game ended before the drill's last event: play another

    # -- processes -----------------------------------------------------------------------
    async def start_host(self) -> None:
        self.host = await asyncio.create_subprocess_exec(
            *self.host_cmd, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
        say(f"host started, pid {self.host.pid}")
        assert self.host.stdout is not None
        stdout = self.host.stdout

        async def ready() -> None:
            while line := (await stdout.readline()).decode(errors="replace"):
                self.host_log.append(line.rstrip())
                if m := ROOM_CODE.search(line):
                    self.room_code = m.group(1)
                if HOST_READY.search(line):
                    return
            raise RuntimeError("the host exited before it was ready:\n"
                               + "\n".join(self.host_log[-10:]))

        await asyncio.wait_for(ready(), 30)
        asyncio.ensure_future(self._drain_host(self.host))

    async def _drain_host(self, proc: asyncio.subprocess.Process) -> None:
        assert proc.stdout is not None
        with contextlib.suppress(Exception):
            while line := await proc.stdout.readline():
                self.host_log.append(line.decode(errors="replace").rstrip())

    async def kill_host(self) -> None:
        assert self.host is not None
        say(f"SIGKILL host pid {self.host.pid}")
        os.kill(self.host.pid, signal.SIGKILL)
        await self.host.wait()

    async def stop_process(self, proc: asyncio.subprocess.Process | None) -> None:
        """SIGTERM ``proc`` by pid, SIGKILL after 5 s."""
        await stop_process(proc)

    # -- the journal ---------------------------------------------------------------------
    def journals(self) -> list[Path]:
        return sorted((self.dir / "host_data" / "journals").glob("*.journal"))

    def steps(self) -> int:
        paths = self.journals()
        if not paths:
            return 0
        try:
            contents = read_journal(paths[-1])
        except JournalError:
            return 0
        return -1 if contents.finished else len(contents.steps)

    async def wait_steps(self, n: int, bots: asyncio.subprocess.Process) -> bool:
        """Wait until the journal holds ``n`` steps; False if the game ended first."""
        while True:
            steps = self.steps()
            if steps < 0 or bots.returncode is not None:
                return False
            if steps >= n:
                return True
            await asyncio.sleep(0.02)

    # -- the drill -----------------------------------------------------------------------
    async def run(self) -> list[str]:
        for sub in ("host_cfg", "host_data", "client"):
            (self.dir / sub).mkdir(parents=True, exist_ok=True)
        relay = Relay(self.port)
        bots = None
        timed_out = False
        try:
            await self.start_host()
            await relay.start()
            bots = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "hexnet.cli", "bot", f"127.0.0.1:{relay.port}",
                "--game", self.game, "--count", "4", "--code", self.room_code,
                "--config-dir", str(self.dir / "client"), "--policy", "heuristic",
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
            say(f"4 bot clients started, pid {bots.pid}, via relay port {relay.port}")
            await asyncio.wait_for(self.events(relay, bots), self.timeout)
            out, _ = await asyncio.wait_for(bots.communicate(), self.timeout)
            bot_text = out.decode(errors="replace")
            for line in bot_text.splitlines():
                say(f"bots: {line}")
            if bots.returncode != 0:
                self.failures.append(f"the bot clients exited with {bots.returncode}")
        except TimeoutError:
            self.failures.append(f"the drill did not finish within {self.timeout:.0f} s")
            bot_text, timed_out = "", True
        finally:
            await self.stop_process(bots)
            await self.stop_process(self.host)
            await relay.stop()
        if timed_out and bots is not None and bots.stdout is not None:
            self.tell_the_end(await bots.stdout.read())
        if not self.failures:
            await self.check(bot_text)
        return self.failures

    def tell_the_end(self, bot_output: bytes) -> None:
        """A drill that did not finish: the last lines of the bots and of the host, to see
        where the game stood."""
        for line in bot_output.decode(errors="replace").splitlines()[-15:]:
            say(f"bots: {line}")
        for line in self.host_log[-15:]:
            say(f"host: {line}")

    async def events(self, relay: Relay, bots: asyncio.subprocess.Process) -> None:
        """Two host kills and one cut, at random steps in the first ~60 % of a short game."""
        if self.plan is None:
            part = max(3, shortest_game(self.game) // 5)
            k1 = self.rng.randint(3, part)
            cut = k1 + self.rng.randint(2, part)
            self.plan = (k1, cut, cut + self.rng.randint(2, part))
        k1, cut, k2 = self.plan
        for step, what in ((k1, "kill"), (cut, "cut"), (k2, "kill")):
            if not await self.wait_steps(step, bots):
                self.failures.append(f"the game ended before step {step} ({what})")
                self.too_short = self.steps() < 0
                return
            if what == "kill":
                await self.kill_host()
                say(f"host killed at journal step {self.steps()}; restarting it")
                await self.start_host()
            elif await self.cut(relay, bots):
                say(f"cut one bot's connection at step {self.steps()}")
            else:
                self.failures.append("no client connection to cut")
        await bots.wait()

    async def cut(self, relay: Relay, bots: asyncio.subprocess.Process,
                  seconds: float = 15.0) -> bool:
        """Cut one bot's connection as soon as one is up (right after a restart the bots are
        still reconnecting, and on a busy machine the game may pass the cut's step while the
        host is down); False if none came within ``seconds`` or the bots ended."""
        deadline = time.monotonic() + seconds
        while not relay.cut_one(self.rng):
            if time.monotonic() >= deadline or bots.returncode is not None:
                return False
            await asyncio.sleep(0.02)
        return True

    async def check(self, bot_text: str) -> None:
        """``hexnet verify`` and an in-process replay of the journal."""
        paths = self.journals()
        if len(paths) != 1:
            self.failures.append(f"expected one journal, found {len(paths)}")
            return
        recovered = [line for line in self.host_log if "recovered from" in line]
        for line in recovered:
            say(f"host: {line}")
        if len(recovered) != 2:
            self.failures.append(f"the host recovered the table {len(recovered)} times, not 2")
        verify = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "hexnet.cli", "verify", str(paths[0]),
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
        out, _ = await asyncio.wait_for(verify.communicate(), 60)
        for line in out.decode(errors="replace").splitlines():
            say(f"verify: {line}")
        if verify.returncode != 0:
            self.failures.append(f"hexnet verify exited with {verify.returncode}")
        contents = read_journal(paths[0])
        outcome = replay_outcome(contents.header, contents.steps)
        if contents.end is None or outcome != contents.end["outcome"]:
            self.failures.append("a fresh replay of seed + actions ends differently")
        else:
            seed = bytes(contents.header["seed"]).hex()[:16]
            say(f"fresh replay of {len(contents.steps)} steps from seed {seed}…: same outcome, "
                f"scores {outcome.get('scores')}")
        if f"scores {outcome.get('scores')}, winners {outcome.get('winners')}" not in bot_text:
            self.failures.append("the bots were shown another result than the replay's")


def shortest_game(game_name: str, players: int = 4, games: int = 8) -> int:
    """Steps of the shortest of a few in-process games of heuristic bots (the drill's scale)."""
    game = get_game(game_name)
    choose = get_policy(game_name, "heuristic")
    shortest = 10_000
    for seed in range(games):
        rng = random.Random(seed)
        state = game.setup([f"p{i}" for i in range(players)], seed, {})
        steps = 0
        while game.outcome(state) is None and steps < shortest:
            steps += 1
            waiting = game.waiting_for(state)
            if not waiting:  # a timed pause: the host's timer moves it on
                deadline = game.deadline(state)
                if deadline is None:
                    break
                game.apply(state, None, {"type": "timeout", "key": deadline.key})
                continue
            legal = game.legal_actions(state, waiting[0])
            game.apply(state, waiting[0], choose(game.view(state, waiting[0]), legal, rng))
        shortest = min(shortest, steps)
    return shortest


def replay_outcome(header: dict[str, Any], steps: list[dict[str, Any]]) -> dict[str, Any]:
    """The outcome of replaying ``steps`` from the header's seed, as if never interrupted."""
    game = get_game(header["game"])
    state = game.setup(list(header["players"]), bytes(header["seed"]), header["options"])
    for step in steps:
        game.apply(state, step["seat"], step["action"])
    return game.outcome(state) or {}


GAMES = 3


def drill_games(workdir: Path, game: str, seed: int, timeout: float, games: int,
                plan: tuple[int, int, int] | None = None,
                secret_every: float | None = None) -> list[str]:
    """Run the drill; a game that ends before the drill's last event (the deal decides how long a
    game runs: a few Hranice deals end in a dozen steps) is set aside and a new game is drilled
    in a fresh directory with the same plan, up to ``games`` games."""
    n = 1
    while True:
        drill = Drill(workdir / f"game-{n}", game, seed, timeout, plan, secret_every)
        failures = asyncio.run(drill.run())
        if not drill.too_short or n == games:
            return failures
        n += 1
        say(f"{failures[0]}: too short to drill; another game (game {n} of {games})")


def main(argv: list[str] | None = None) -> int:
    """``python -m host.drill``: PASS → 0, FAIL → 1."""
    parser = argparse.ArgumentParser(prog="python -m host.drill", description=__doc__.split(
        "\n\n")[0].replace("\n", " "))
    parser.add_argument("--game", default="hexenhammer", choices=names(),
                        help="the game the bots play (default hexenhammer)")
    parser.add_argument("--seed", type=int, help="fixes when the kills and the cut come")
    parser.add_argument("--timeout", type=float, default=240.0, help="seconds (default 240)")
    parser.add_argument("--keep", help="work in this directory and keep it")
    parser.add_argument("--games", type=int, default=GAMES,
                        help="games to try when one ends before the drill is done (default "
                             f"{GAMES}: a few deals end a game in a dozen steps)")
    parser.add_argument("--steps", metavar="K1,CUT,K2",
                        help="journal steps of the first kill, the cut and the second kill "
                             "(default: drawn from the drill seed)")
    add_secret_every(parser)
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    plan = None
    if args.steps is not None:
        try:
            k1, cut, k2 = (int(part) for part in args.steps.split(","))
        except ValueError:
            parser.error(f"--steps wants three whole numbers K1,CUT,K2, not {args.steps!r}")
        if not 1 <= k1 < cut < k2:
            parser.error(f"--steps wants 1 <= K1 < CUT < K2, not {args.steps}")
        plan = (k1, cut, k2)
    seed = args.seed if args.seed is not None else random.SystemRandom().getrandbits(32)
    say(f"crash drill: {args.game}, 4 bot clients, drill seed {seed}")
    failures, took = in_workdir(args.keep, "hexnet-drill-", lambda folder: drill_games(
        folder, args.game, seed, args.timeout, args.games, plan, args.secret_every))
    return pass_or_fail(failures, took, "host killed twice, one client cut, game finished, "
                                        "verified and equal to a fresh replay")


if __name__ == "__main__":
    sys.exit(main())
