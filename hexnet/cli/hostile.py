"""The hostile-room drill: ``hexnet drill --hostile`` — one ``hexnet host`` on 127.0.0.1 with few
file descriptors, every door attacked at once, and an honest player who must still get in and
play. An organiser can run it on their own machine before a party.

What runs at once (the attackers: :mod:`hexnet.cli.attacks`):

* the host: ``hexnet host --headless --web --ssh --tournament swiss --game hranice`` in a child
  process whose descriptor limit is ``--descriptors`` (256), soft and hard;
* 150 slowloris connections on the web door, from 25 addresses;
* 8 key-only SSH logins from 2 addresses, 1000×500 terminals, 1000 window changes a second each;
* wrong room codes with fresh keys, four a second, from 127.0.0.1 — the honest player's address;
* 100 throwaway keys from 5 addresses, each asking for three tables and entering the tournament;
* a seated player flooding every kind of table request in turn (``start``, ``add_bot``, ``sit``,
  ``leave``/``sit``, ``watch``/``sit``, chat, empty chat, stale ``act``, ``watch_rules``,
  ``look``: a second each at 100 messages a second) and reconnecting every 6 s, at a table whose
  other seat — the victim — counts every frame it receives, with a watcher there too.

Meanwhile the honest player connects from 127.0.0.1 with the room code, creates a Hranice table
with a host bot and plays it to the end. PASS when it connected within 2 s and its game ended,
the victim received no more frames than one player's budget allows (:func:`host.budget.bound`),
the host's descriptors stayed under the limit, and its log has no internal error, traceback or
"Too many open files". Prints progress, then the figures; exit status 0 (PASS) or 1.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.util
import json
import os
import random
import re
import resource
import signal
import sys
import time
from pathlib import Path
from typing import Any

from client.session import Session
from hexnet.cli import attacks
from hexnet.games import get_policy
from host.budget import bound
from host.drill import free_port, in_workdir, pass_or_fail, stop_process

SECONDS = 45.0  # how long the attacks run (``--seconds``)
CONNECT_WITHIN = 2.0  # seconds the honest player may take to get in
RESULT = "RESULT "  # the honest player's figures, one JSON line
WARMUP = 5.0  # seconds of attack before the honest player comes
HONEST_MORE = 60.0  # seconds the honest game may run past the attacks' planned end
BAD_LINES = ("Traceback", "internal error", "Too many open files", "EMFILE")


def say(line: str) -> None:
    """One drill line on stdout."""
    print(f"[hostile {time.strftime('%H:%M:%S')}] {line}", flush=True)


def die_with_parent() -> None:
    """(In a child, Linux) SIGTERM when the drill's process ends, however it ends: a drill
    killed by a timeout leaves no host or attacker behind."""
    with contextlib.suppress(Exception):
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def attacker_child() -> None:
    """(In an attacker's child) :func:`die_with_parent`, and a lower CPU priority: on a LAN
    the attackers run on machines of their own, so here they must not take the CPU the
    honest player's client needs (the host is not lowered: its load is the point)."""
    die_with_parent()
    with contextlib.suppress(OSError):
        os.nice(10)


class HostProcess:
    """``hexnet host`` in a child process at ``limit`` descriptors; its log as it comes."""

    def __init__(self, workdir: Path, limit: int, web: bool, ssh: bool) -> None:
        self.limit = limit
        self.ports = {"game": free_port(), "web": free_port() if web else 0,
                      "ssh": free_port() if ssh else 0}
        code = (f"import resource, sys; resource.setrlimit(resource.RLIMIT_NOFILE, ({limit}, "
                f"{limit})); from hexnet.cli import main; sys.exit(main(sys.argv[1:]))")
        self.cmd = [sys.executable, "-c", code, "host", "--headless", "--bind", "127.0.0.1",
                    "--port", str(self.ports["game"]), "--no-mdns", "--name", "hostile",
                    "--config-dir", str(workdir / "host_cfg"),
                    "--data-dir", str(workdir / "host_data"), "--bot-delay", "0.05",
                    "--idle-absent", "0", "--tournament", "swiss", "--game", "hranice",
                    "--start-when", "24"]
        if web:
            self.cmd += ["--web", str(self.ports["web"])]
        if ssh:
            self.cmd += ["--ssh", str(self.ports["ssh"])]
        self.proc: asyncio.subprocess.Process | None = None
        self.lines: list[str] = []
        self.code = ""
        self._reader: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            *self.cmd, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
            preexec_fn=die_with_parent)
        ready = asyncio.get_running_loop().create_future()
        self._reader = asyncio.ensure_future(self._read(ready))
        await asyncio.wait_for(ready, 60)

    async def _read(self, ready: asyncio.Future[None]) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        while line := (await self.proc.stdout.readline()).decode(errors="replace"):
            self.lines.append(line.rstrip())
            if m := re.search(r"room code (\S+)", line):
                self.code = m.group(1)
            if "ready on" in line and not ready.done():
                ready.set_result(None)
        if not ready.done():
            ready.set_exception(RuntimeError("the host exited before it was ready:\n"
                                             + "\n".join(self.lines[-10:])))

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def descriptors(self) -> int | None:
        """Descriptors the host has open now (Linux), or None."""
        with contextlib.suppress(OSError):
            return len(os.listdir(f"/proc/{self.pid}/fd"))
        return None

    def cpu(self) -> float | None:
        """CPU seconds the host has used so far (Linux), or None."""
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        return None

    async def stop(self) -> None:
        """SIGTERM by pid, SIGKILL after 10 s."""
        await stop_process(self.proc, 10.0)
        if self._reader is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._reader, 5)


class Child:
    """One role of the drill (:data:`ROLES`) in a process of its own — as a guest has a machine
    of its own: one role's load must not slow another down. Its lines are passed on; its
    figures come back as one ``RESULT`` line."""

    def __init__(self, role: str, params: dict[str, Any]) -> None:
        self.role, self.params = role, params
        self.figures: dict[str, Any] = {}
        self.proc: asyncio.subprocess.Process | None = None

    async def run(self) -> dict[str, Any]:
        """Run it to its end; its figures."""
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "hexnet.cli.hostile", self.role, json.dumps(self.params),
            stdout=asyncio.subprocess.PIPE,
            preexec_fn=die_with_parent if self.role == "honest" else attacker_child)
        assert self.proc.stdout is not None
        try:
            while line := (await self.proc.stdout.readline()).decode(errors="replace"):
                if line.startswith(RESULT):
                    self.figures = json.loads(line[len(RESULT):])
                else:
                    print(line, end="", flush=True)
        finally:
            await self.kill()
        return self.figures

    async def kill(self) -> None:
        """SIGKILL it by pid if it still runs."""
        if self.proc is not None and self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.proc.pid, signal.SIGKILL)
            await self.proc.wait()


class HostileDrill:
    """One run; :meth:`run` returns the failures (none: PASS) and :attr:`figures`."""

    def __init__(self, workdir: Path, seconds: float, limit: int) -> None:
        self.dir, self.seconds, self.limit = workdir, seconds, limit
        self.web = importlib.util.find_spec("textual_serve") is not None
        self.ssh = importlib.util.find_spec("asyncssh") is not None
        self.host = HostProcess(workdir, limit, self.web, self.ssh)
        self.tally: attacks.Tally = attacks.Tally()
        self.figures: dict[str, Any] = {}
        self.peak = 0

    def params(self, **more: Any) -> dict[str, Any]:
        """What every role needs to know, and ``more``."""
        return {"ports": self.host.ports, "code": self.host.code, "dir": str(self.dir),
                "seconds": self.seconds, **more}

    async def attacked_table(self) -> tuple[Session, Session, int, int]:
        """The seated attacker's table: it created it (seat 0), the victim sat (seat 1), the
        game started and the attacker played until the game waits on the victim alone (so
        nothing but the attack makes frames there), a watcher watches; the attacker's own
        session is closed (its flood comes from a process of its own, with its key).
        (victim, watcher, table, state id)."""
        attacker = await join(self.params(), "attacker", "127.0.0.3")
        victim = await join(self.params(), "victim", "127.0.0.4")
        watcher = await join(self.params(), "watcher", "127.0.0.5")
        await attacker.send({"type": "create", "game": "hranice", "seats": 2, "options": {}})
        while attacker.you.get("table") is None:
            await attacker.next_message(5)
        table = int(attacker.you["table"])
        await victim.send({"type": "sit", "table": table, "seat": 1})
        while victim.you.get("table") != table:
            await victim.next_message(5)
        await attacker.send({"type": "start", "table": table})
        choose, rng, acted = get_policy("hranice", "heuristic"), random.Random(2), -1
        while not victim.legal.get(table):  # (the deal decides who begins)
            await attacker.next_message(0.2)
            await victim.next_message(0.2)
            view, legal = attacker.views.get(table), attacker.legal.get(table)
            if view is not None and legal and view["state_id"] != acted:
                acted = view["state_id"]
                await attacker.send({"type": "act", "table": table, "state_id": acted,
                                     "action": choose(view, legal, rng)})
        await watcher.send({"type": "watch", "table": table})
        await attacker.aclose()
        return victim, watcher, table, int(victim.views[table]["state_id"])

    async def watch_host(self, stop: asyncio.Event) -> None:
        """The host's descriptors, sampled every 0.2 s (the peak)."""
        while not stop.is_set():
            self.peak = max(self.peak, self.host.descriptors() or 0)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), 0.2)

    async def run(self) -> list[str]:
        say(f"hostile drill: hexnet host at {self.limit} descriptors on 127.0.0.1"
            + ("" if self.web else "; no web door (pip install 'hexnet[web]')")
            + ("" if self.ssh else "; no SSH door (pip install 'hexnet[ssh]')"))
        await self.host.start()
        say(f"host pid {self.host.pid} ready: game port {self.host.ports['game']}, "
            f"web {self.host.ports['web'] or '-'}, ssh {self.host.ports['ssh'] or '-'}")
        stop, tasks, kept = asyncio.Event(), [], []
        children = [Child(role, self.params(**more)) for role, more in (
            ("doors", {"web": self.web, "ssh": self.ssh}), ("logins", {}))]
        try:
            victim, watcher, table, sid = await self.attacked_table()
            kept += [victim, watcher]
            counted = attacks.FrameCount(victim)
            tasks.append(asyncio.ensure_future(self.watch_host(stop)))
            tasks += [asyncio.ensure_future(attacks.read_on(s, stop)) for s in kept]
            await asyncio.sleep(1.0)  # (the attacker's going is told before the count)
            children.append(Child("flood", self.params(table=table, state_id=sid)))
            cpu0, began = self.host.cpu(), time.monotonic()
            counted.start()
            running = [asyncio.ensure_future(c.run()) for c in children]
            say(f"attacks running for {self.seconds:g} s; the honest player comes in "
                f"{WARMUP:g} s")
            await asyncio.sleep(WARMUP)
            honest = Child("honest", self.params())
            children.append(honest)
            done, _ = await asyncio.wait({asyncio.ensure_future(honest.run())},
                                         timeout=max(self.seconds - WARMUP, 0) + HONEST_MORE)
            if not done:
                say("honest player: the game did not end in time")
            self.figures.update(honest.figures)
            await asyncio.wait(running, timeout=max(0.0, began + self.seconds + 20
                                                    - time.monotonic()))
            wall = time.monotonic() - began
            cpu1 = self.host.cpu()
            self.figures["victim"] = (counted.frames, counted.bytes, wall,
                                      max(counted.per_second.values(), default=0))
            if cpu0 is not None and cpu1 is not None:
                self.figures["cpu"] = (cpu1 - cpu0, wall)
            for child in children[:-1]:
                self.tally.update(child.figures)
            self.figures["tables"] = len(watcher.lobby.get("tables") or [])  # (it is sent all)
        finally:
            stop.set()
            for child in children:
                await child.kill()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            for s in kept:
                await s.aclose()
            alive = self.host.proc is not None and self.host.proc.returncode is None
            await self.host.stop()
            (self.dir / "host.log").write_text("\n".join(self.host.lines) + "\n")
        return self.verdict(alive)

    def verdict(self, alive: bool) -> list[str]:
        """The figures printed, and what failed."""
        failures, f, t = [], self.figures, self.tally
        log = self.host.lines
        bad = [line for line in log if any(b in line for b in BAD_LINES)]
        entrants = sum("tournament: entrant " in line for line in log)
        started = any(re.search(r"tournament: \S+ of \S+ starts", line) for line in log)
        flood = sum(n for k, n in t.items() if k.startswith("flood ") and "reconnect" not in k)
        say("figures:")
        connect = f.get("connect_s")
        say(f"  honest player: connected in {connect:.2f} s (at most {CONNECT_WITHIN:g} s)"
            if connect is not None else "  honest player: never got in")
        if connect is None or connect > CONNECT_WITHIN:
            failures.append(f"the honest player did not get in within {CONNECT_WITHIN:g} s")
        if "game" in f:
            say(f"  honest game: over after {f['game'][0]:.1f} s at step {f['game'][1]}, "
                f"scores {f['game'][2]}")
        else:
            failures.append("the honest player's game did not end")
        if "victim" in f:
            frames, size, wall, most = f["victim"]
            say(f"  the attacked table's other seat: {frames} frames, {size / 1024:.0f} KiB "
                f"in {wall:.1f} s ({frames / wall:.2f}/s, at most {most} in one second; one "
                f"player's budget allows {bound(wall)})")
            if frames > bound(wall):
                failures.append(f"the victim seat received {frames} frames, more than "
                                f"{bound(wall)}")
        say(f"  host: at most {self.peak} of {self.limit} descriptors"
            + (f"; CPU {f['cpu'][0]:.1f} s in {f['cpu'][1]:.1f} s "
               f"({f['cpu'][0] / f['cpu'][1]:.2f} cores)" if "cpu" in f else ""))
        if self.peak >= self.limit:
            failures.append(f"the host reached {self.peak} descriptors")
        say(f"  seated flood: {flood} messages of {len(attacks.FLOOD_KINDS)} kinds, "
            f"{t['flood reconnects']} reconnects")
        if self.web:
            say(f"  web door: slowloris opened {t['slowloris opened']}, closed by the door "
                f"{t['slowloris closed by the door']}, refused {t['slowloris refused']}")
        if self.ssh:
            say(f"  SSH door: {t['ssh sessions']} key-only sessions, "
                f"{t['ssh window changes']} window changes")
        say(f"  wrong codes from 127.0.0.1: {t['wrong codes sent']} sent, "
            f"{t['wrong codes refused']} refused, {t['wrong codes told busy']} told busy, "
            f"{t['wrong codes dropped']} dropped, {t['wrong codes let in (!)']} let in")
        refused = sum(n for k, n in t.items() if k.startswith("throwaway keys refused"))
        say(f"  throwaway keys: {t['throwaway keys in']} of 100 in, {refused} refused; "
            f"{t['tables asked for']} tables asked for, the host holds "
            f"{f.get('tables', '?')} in all; {entrants} tournament entrants, "
            + ("the event started" if started else "the event did not start"))
        if t["wrong codes let in (!)"]:
            failures.append("a wrong room code got in")
        if bad or not alive:
            failures.append("the host stopped" if not alive else
                            f"the host logged {len(bad)} internal errors: {bad[0][:200]}")
        else:
            say("  host log: no internal error, no traceback, no 'Too many open files'")
        return failures


async def join(p: dict[str, Any], name: str, source: str) -> Session:
    """A player from ``source`` with a key kept under ``name`` (in the drill's directory)."""
    return await Session.connect(
        "127.0.0.1", p["ports"]["game"], name=name, code=p["code"],
        config_dir=Path(p["dir"]) / name, identity_file="identity.pem", accept_new=True,
        local_address=source, timeout=30)


async def honest_role(p: dict[str, Any]) -> dict[str, Any]:
    """The honest player: gets in with the code from 127.0.0.1 and plays a Hranice table with
    a host bot to the end (heuristic choices); its figures (connect_s; game: seconds, last
    state id, scores)."""
    figures: dict[str, Any] = {}
    began = time.monotonic()
    s = await join(p, "honest", "127.0.0.1")
    figures["connect_s"] = time.monotonic() - began
    say(f"honest player: in after {figures['connect_s']:.2f} s")
    try:
        await s.send({"type": "create", "game": "hranice", "seats": 2,
                      "options": {"variant": "quick"}})
        while s.you.get("table") is None:
            await s.next_message(5)
        table = int(s.you["table"])
        await s.send({"type": "add_bot", "table": table, "seat": 1, "policy": "heuristic"})
        await s.send({"type": "start", "table": table})
        choose, rng, acted = get_policy("hranice", "heuristic"), random.Random(1), -1
        played = time.monotonic()
        while True:
            await s.next_message(5)
            view, legal = s.views.get(table), s.legal.get(table)
            if view is None:
                continue
            if view.get("outcome") is not None:
                figures["game"] = [time.monotonic() - played, view["state_id"],
                                   view["outcome"].get("scores")]
                say(f"honest player: the game is over after {figures['game'][0]:.1f} s")
                return figures
            if legal and view["state_id"] != acted:
                acted = view["state_id"]
                await s.send({"type": "act", "table": table, "state_id": acted,
                              "action": choose(view, legal, rng)})
    finally:
        await s.aclose()


async def for_seconds(seconds: float, *attackers: Any) -> None:
    """Run ``attackers`` (each a function of a stop event) for ``seconds``, then stop them."""
    stop = asyncio.Event()
    tasks = [asyncio.ensure_future(attack(stop)) for attack in attackers]
    await asyncio.sleep(seconds)
    stop.set()
    _, late = await asyncio.wait(tasks, timeout=10)
    for task in late:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


async def doors_role(p: dict[str, Any]) -> dict[str, Any]:
    """Slowloris on the web door (150 connections, 25 addresses) and key-only SSH logins with
    resize storms (8, 2 addresses)."""
    tally = attacks.Tally()
    web, ssh = p["ports"]["web"], p["ports"]["ssh"]
    slow = [lambda stop, i=i: attacks.slowloris(web, f"127.0.9.{i % 25 + 1}", stop, tally)
            for i in range(150)] if p["web"] else []
    storms = [lambda stop, i=i: attacks.ssh_storm(ssh, f"127.0.11.{i % 2 + 1}", stop, tally)
              for i in range(8)] if p["ssh"] else []
    await for_seconds(p["seconds"], *slow, *storms)
    return dict(tally)


async def logins_role(p: dict[str, Any]) -> dict[str, Any]:
    """Wrong room codes with fresh keys, four a second, from 127.0.0.1 (the honest player's
    address); and 100 throwaway keys from five addresses, each asking for three tables and
    entering the tournament, kept connected."""
    tally, folder, port = attacks.Tally(), Path(p["dir"]), p["ports"]["game"]

    async def throwaways(stop: asyncio.Event) -> None:
        sessions = await attacks.throwaways(port, p["code"],
                                            [f"127.0.20.{i}" for i in range(1, 6)], 20,
                                            folder / "throwaways", tally)
        say(f"throwaway keys: {tally['throwaway keys in']} of 100 got in")
        await stop.wait()
        for s in sessions:
            await s.aclose()

    await for_seconds(p["seconds"], throwaways, lambda stop: attacks.wrong_codes(
        port, "127.0.0.1", 0.25, folder / "guesses", stop, tally))
    return dict(tally)


async def flood_role(p: dict[str, Any]) -> dict[str, Any]:
    """The seated attacker's floods of every kind of table request (seat 0 of the table)."""
    tally = attacks.Tally()
    attacker = await join(p, "attacker", "127.0.0.3")
    await for_seconds(p["seconds"], lambda stop: attacks.seated_flood(
        lambda: join(p, "attacker", "127.0.0.3"), attacker, p["table"], p["state_id"], stop,
        tally))
    return dict(tally)


ROLES = {"honest": honest_role, "doors": doors_role, "logins": logins_role,
         "flood": flood_role}


def child_main(role: str, params: str) -> int:
    """``python -m hexnet.cli.hostile ROLE JSON``: one role of the drill (:class:`Child`)."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):  # slowloris alone holds ~150 descriptors
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    figures: dict[str, Any] = {}
    try:
        figures = asyncio.run(ROLES[role](json.loads(params)))
    except Exception as exc:  # noqa: BLE001 - reported to the drill (its figures are missing)
        say(f"{role}: {type(exc).__name__}: {exc}")
    print(RESULT + json.dumps(figures), flush=True)
    return 0


def run(args: argparse.Namespace) -> int:
    """``hexnet drill --hostile``: PASS → 0, FAIL → 1."""
    seconds, limit = args.seconds or SECONDS, args.descriptors or 256
    failures, took = in_workdir(args.keep, "hexnet-hostile-", lambda folder: asyncio.run(
        HostileDrill(folder, seconds, limit).run()))
    return pass_or_fail(failures, took, f"every door attacked at once, the honest player got "
                                        f"in within {CONNECT_WITHIN:g} s and played to the end")


if __name__ == "__main__":
    sys.exit(child_main(sys.argv[1], sys.argv[2]))
