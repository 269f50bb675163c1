"""Host tournaments over the real network (issue 13): ``hexnet host --tournament`` as a real
process on 127.0.0.1 (real TLS), entrants from join-style clients (a kept identity key, a name
of their own) and ``hexnet bot``-style bots, host bots; a ``kill -9`` of the host in round 2;
the results file's schema; the command line's refusals. Every process is stopped by its pid;
every wait polls against a deadline."""

from __future__ import annotations

import asyncio
import csv
import hashlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from client.entrant import run_entrants
from client.session import Session
from hexnet.fairness import commitment
from protocol.identity import IDENTITY_FILE
from tests.pace import HOST_ARGS

pytestmark = [pytest.mark.timeout(240), pytest.mark.one_loop(
    "the host is a `hexnet host` process (on uvloop when installed); the test's own loop runs "
    "only clients, which run on asyncio's")]
HEXNET = [sys.executable, "-m", "hexnet.cli"]
GAME = ["--game", "hranice", "--option", "variant=tutorial"]  # short games


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class HostProcess:
    """``hexnet host --headless`` in the background, its log in a file."""

    def __init__(self, tmp: Path, args: list[str], port: int) -> None:
        self.tmp, self.args, self.port = tmp, args, port
        self.proc: subprocess.Popen[bytes] | None = None
        self.log_path = tmp / "host.log"
        self.code = ""

    def start(self, deadline: float = 30.0) -> None:
        started = len(self.text().split("hexnet host '")) - 1
        with open(self.log_path, "a") as log:
            self.proc = subprocess.Popen(
                HEXNET + ["host", "--headless", "--no-mdns", "--bind", "127.0.0.1", "--port",
                          str(self.port), "--config-dir", str(self.tmp / "hostcfg"),
                          "--data-dir", str(self.tmp / "hostdata"), *HOST_ARGS, *self.args],
                stdout=log, stderr=subprocess.STDOUT)
        end = time.monotonic() + deadline
        try:
            while time.monotonic() < end:
                text = self.text()
                if len(text.split("hexnet host '")) - 1 > started:
                    codes = re.findall(r"room code ([0-9A-Z]{5}-[0-9A-Z]{5})", text)
                    self.code = codes[-1] if codes else ""
                    return
                assert self.proc.poll() is None, text
                time.sleep(0.05)
            raise AssertionError("the host did not get ready:\n" + self.text())
        except BaseException:
            self.stop()  # never leave it running
            raise

    def text(self) -> str:
        return self.log_path.read_text() if self.log_path.exists() else ""

    async def wait_for(self, pattern: str, seconds: float) -> re.Match[str]:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            m = re.search(pattern, self.text())
            if m:
                return m
            assert self.proc is not None and self.proc.poll() is None, self.text()
            await asyncio.sleep(0.05)
        raise AssertionError(f"no {pattern!r} in the host log:\n{self.text()[-3000:]}")

    def kill9(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)


def join_style(tmp: Path, name: str) -> dict[str, Any]:
    """A human-style client: its own config dir with a kept identity key (as ``hexnet join``
    keeps one), its own name."""
    cfg = tmp / f"client-{name}"
    cfg.mkdir(exist_ok=True)
    return {"config_dir": str(cfg), "identity_file": IDENTITY_FILE, "names": [name]}


def fingerprint_of(cfg: str) -> str:
    from protocol import identity

    key = identity.load_or_create_identity(Path(cfg), IDENTITY_FILE)
    return hashlib.sha256(identity.public_bytes(key)).hexdigest()


def check_results_schema(data: dict[str, Any]) -> None:
    """The results file's schema (README, "Running a tournament"): exact keys and types."""
    assert set(data) == {"event", "entrants", "rounds", "games", "standings"}
    assert set(data["event"]) == {"game", "format", "table_size", "rounds", "options", "status",
                                  "started", "finished"}
    for e in data["entrants"]:
        assert set(e) == {"seed", "name", "kind", "fingerprint"}
        assert e["kind"] in ("player", "host bot")
        assert (e["fingerprint"] is None) == (e["kind"] == "host bot")
    assert [e["seed"] for e in data["entrants"]] == list(range(1, len(data["entrants"]) + 1))
    row_keys = {"rank", "name", "points", "games", "wins", "byes", "buchholz",
                "median_buchholz", "reached", "seed"}
    for rnd in data["rounds"]:
        assert set(rnd) == {"number", "tables", "byes", "standings"}
        for row in rnd["standings"]:
            assert set(row) == row_keys
    for g in data["games"]:  # a game the club has rated carries its entrants' ratings
        assert set(g) - {"ratings"} == {"round", "table", "table_id", "entrants", "outcome",
                                        "points", "failed", "journal", "seed", "salt",
                                        "commitment"}
        assert isinstance(g["outcome"], dict) and isinstance(g["points"], list)
        assert len(g["points"]) == len(g["entrants"])
        for name, rated in g.get("ratings", {}).items():
            assert name in g["entrants"] and set(rated) == {"before", "after"}
            assert set(rated["before"]) == set(rated["after"]) == {"mu", "sigma"}
    for row in data["standings"]:  # with each rated entrant's rating and its change
        assert set(row) in (row_keys, row_keys | {"rating", "change"})


def unrated(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Standings rows without the club's ratings (which arrive as each game is indexed)."""
    return [{k: v for k, v in row.items() if k not in ("rating", "change")} for row in rows]


async def test_a_swiss_event_runs_from_registration_to_results_json_and_csv(tmp_path) -> None:
    results = tmp_path / "out" / "event.json"
    host = HostProcess(tmp_path, ["--tournament", "swiss", *GAME, "--rounds", "2",
                                  "--table-size", "4", "--bots", "heuristic:3",
                                  "--start-when", "8", "--bot-delay", "0", "--pause", "0.3",
                                  "--results", str(results),
                                  # five entrants from this one machine: the organiser says so
                                  "--entrants-per-address", "5"], free_port())
    host.start()
    try:
        ada, bea = join_style(tmp_path, "Ada"), join_style(tmp_path, "Bea")
        seen: dict[str, list[dict[str, Any]]] = {"Ada": [], "Bea": []}
        port, code = host.port, host.code
        # Ada registers, goes away, and comes back with her key: she keeps her place
        s = await Session.connect("127.0.0.1", port, name="Ada", code=code,
                                  config_dir=ada["config_dir"], accept_new=True)
        await s.send({"type": "enter"})
        await host.wait_for(r"entrant 4: Ada \(key ", 15)
        await s.aclose()

        def watch(who: str):
            return lambda i, msg: seen[who].append(msg) if msg["type"] == "tournament" else None

        reports = await asyncio.gather(
            run_entrants("127.0.0.1", port, count=1, code=code, seed=1,
                         on_message=watch("Ada"), **ada),
            run_entrants("127.0.0.1", port, count=1, code=code, seed=2,
                         on_message=watch("Bea"), **bea),
            run_entrants("127.0.0.1", port, count=3, code=code, seed=3, name="robo"))
        await host.wait_for(r"tournament: results in ", 30)
    finally:
        host.stop()
    log = host.text()
    assert "entrant 5: Ada" not in log  # the same entrant, not a new one
    assert re.search(r"entrant 8: robo3", log)
    assert reports[0].names == ["Ada"] and reports[1].names == ["Bea"]
    final = reports[2].final
    assert final is not None and final["status"] == "over" and final["round"] == 2
    names = {"host bot 1", "host bot 2", "host bot 3", "Ada", "Bea", "robo1", "robo2",
             "robo3"}
    assert {r["name"] for r in final["standings"]} == names
    assert [r["rank"] for r in final["standings"]] == list(range(1, 9))
    assert all(r["games"] == 2 for r in final["standings"])
    # between the rounds every client was shown the standings after round 1
    for who in ("Ada", "Bea"):
        between = [m for m in seen[who] if m["status"] == "between"]
        assert between and between[0]["round"] == 1 and len(between[0]["standings"]) == 8
        assert all(m["you"] == who for m in seen[who])
    # the headless log has the standings as plain lines
    assert re.search(r"standings after round 1 of 2:\n.*#\s+entrant\s+points", log)
    # and a table's "over" line follows its game's last line
    ends = list(re.finditer(r"^\S+ table (\d+): over, scores", log, re.M))
    assert len(ends) == 4
    for end in ends:
        assert not re.search(rf"^\S+ table {end.group(1)}: ", log[end.end():], re.M)
    data = json.loads(results.read_text())
    check_results_schema(data)
    assert data["event"]["status"] == "over" and data["event"]["format"] == "swiss"
    assert len(data["games"]) == 4 and len(data["rounds"]) == 2
    assert unrated(data["standings"]) == unrated(final["standings"])
    fps = {e["name"]: e["fingerprint"] for e in data["entrants"]}
    assert fps["Ada"] == fingerprint_of(ada["config_dir"])
    assert fps["Bea"] == fingerprint_of(bea["config_dir"])
    for game in data["games"]:
        assert Path(game["journal"]).is_file()
        assert commitment(bytes.fromhex(game["seed"]), bytes.fromhex(game["salt"]),
                          {"variant": "tutorial", "turn_seconds": 60}) == game["commitment"]
        assert sum(game["points"]) == 6  # placement points at 4 seats: 3+2+1+0
        verify = subprocess.run(HEXNET + ["verify", game["journal"]], capture_output=True,
                                text=True, timeout=60)
        assert verify.returncode == 0, verify.stdout + verify.stderr
    with open(results.with_suffix(".csv")) as f:
        rows = list(csv.DictReader(f))
    assert [(r["rank"], r["name"]) for r in rows] == [
        (str(r["rank"]), r["name"]) for r in final["standings"]]
    assert rows[0]["fingerprint"] == (fps[rows[0]["name"]] or "")


@pytest.mark.slow
async def test_a_host_killed_in_round_2_resumes_the_event(tmp_path) -> None:
    results = tmp_path / "event.json"
    # short games (a quick one's every reaction window takes a tick a seat at the host's
    # secret-step cadence: over a minute a round, three rounds past the test's time)
    args = ["--tournament", "swiss", *GAME, "--rounds", "3", "--table-size", "4", "--bots",
            "heuristic:5", "--start-when", "8", "--bot-delay", "0.02", "--pause", "0.3",
            "--results", str(results), "--entrants-per-address", "3"]
    host = HostProcess(tmp_path, args, free_port())
    host.start()
    try:
        ada = join_style(tmp_path, "Ada")
        play = asyncio.gather(
            run_entrants("127.0.0.1", host.port, count=1, code=host.code, seed=1, **ada),
            run_entrants("127.0.0.1", host.port, count=2, code=host.code, seed=2,
                         name="robo"))
        await host.wait_for(r"tournament: round 2 of 3:", 120)
        # well into round 2: some moves at its tables logged
        await host.wait_for(r"round 2 of 3:(\n.*){25}", 60)
        host.kill9()
        assert "standings after round 2" not in host.text()  # killed in round 2
        host.start()
        reports = await asyncio.wait_for(play, 180)
        await host.wait_for(r"tournament: results in ", 30)
    finally:
        host.stop()
    log = host.text()
    assert re.search(r"tournament: resumed from .*current\.journal \(8 entrants, 2 rounds drawn",
                     log)
    assert "tournament: round 1 of 3:" in log and log.count("tournament: round 2 of 3:") == 1
    assert re.search(r"round 2 table \d goes on as table \d+", log)
    final = reports[1].final
    assert final is not None and final["status"] == "over" and final["round"] == 3
    assert len(final["standings"]) == 8 and all(r["games"] == 3 for r in final["standings"])
    assert reports[0].reconnects + reports[1].reconnects >= 1
    data = json.loads(results.read_text())
    check_results_schema(data)
    assert [(g["round"], g["table"]) for g in sorted(data["games"], key=lambda g: (
        g["round"], g["table"]))] == [(r, t) for r in (1, 2, 3) for t in (1, 2)]
    assert unrated(data["standings"]) == unrated(final["standings"])
    assert not any(g["failed"] for g in data["games"])
    assert not (tmp_path / "hostdata" / "events" / "current.journal").exists()


@pytest.mark.parametrize("args,words", [
    (["--tournament", "swiss"], "--tournament needs --game"),
    (["--tournament", "swiss", "--game", "hranice", "--start-at", "25:99"],
     "--start-at '25:99' is not a time"),
    (["--tournament", "swiss", "--game", "hranice", "--start-at", "tomorrow"],
     "--start-at 'tomorrow' is not a time"),
    (["--tournament", "knockout", "--game", "hranice", "--rounds", "2", "--start-when", "4"],
     "a knockout plays its bracket"),
    (["--tournament", "swiss", "--game", "hranice", "--table-size", "9", "--start-when", "9"],
     "--table-size 9: Hranice seats 2–6"),
    (["--tournament", "swiss", "--game", "hranice", "--bots", "smart:3", "--start-when", "4"],
     "--bots 'smart:3': give POLICY:K"),
    (["--game", "hranice"], "--game belongs to a tournament"),
    (["--tournament", "swiss", "--game", "hranice", "--start-when", "4", "--option",
      "variant=huge"], "--option: Option 'variant' must be"),
    (["--tournament", "swiss", "--game", "hranice", "--start-when", "4", "--option",
      "watch_delay=51"], "--option: Option 'watch_delay' must be 0–50"),
    (["--tournament", "swiss", "--game", "hranice", "--start-when", "4", "--results",
      "out.txt"], "must name a .json file"),
])
def test_tournament_command_line_mistakes_are_one_line_and_exit_2(tmp_path, args,
                                                                   words) -> None:
    run = subprocess.run(HEXNET + ["host", "--headless", "--no-mdns", "--port", "0",
                                   "--config-dir", str(tmp_path / "c"),
                                   "--data-dir", str(tmp_path / "d"), *args],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2, run.stdout + run.stderr
    assert run.stderr.count("\n") == 1 and words in run.stderr, run.stderr
    assert "Traceback" not in run.stderr and run.stdout == ""


def test_an_unfinished_event_of_another_game_is_refused_not_overwritten(tmp_path) -> None:
    host = HostProcess(tmp_path, ["--tournament", "swiss", *GAME, "--start-when", "8"],
                       free_port())
    host.start()
    host.stop()
    journal = tmp_path / "hostdata" / "events" / "current.journal"
    before = journal.read_bytes()
    run = subprocess.run(HEXNET + ["host", "--headless", "--no-mdns", "--port", "0",
                                   "--config-dir", str(tmp_path / "hostcfg"), "--data-dir",
                                   str(tmp_path / "hostdata"), "--tournament", "knockout",
                                   "--game", "hranice", "--start-when", "8"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert "holds an unfinished swiss tournament of hranice" in run.stderr
    assert journal.read_bytes() == before


@pytest.mark.slow
def test_bot_entrants_against_a_host_without_a_tournament_say_so(tmp_path) -> None:
    host = HostProcess(tmp_path, ["--open"], free_port())
    host.start()
    try:
        run = subprocess.run(HEXNET + ["bot", f"127.0.0.1:{host.port}", "--count", "2",
                                       "--config-dir", str(tmp_path / "bc")],
                             capture_output=True, text=True, timeout=60)
    finally:
        host.stop()
    assert run.returncode == 1
    assert run.stderr.strip() == ("hexnet bot: This host runs no tournament; name a --game "
                                  "to play a table of bots.")


def test_hexnet_bot_count_plays_the_event_through_exits_0_and_prints_the_standings(
        tmp_path) -> None:
    host = HostProcess(tmp_path, ["--tournament", "swiss", *GAME, "--rounds", "2",
                                  "--table-size", "2", "--bots", "heuristic:2",
                                  "--start-when", "4", "--bot-delay", "0", "--pause", "0"],
                       free_port())
    host.start()
    try:
        run = subprocess.run(HEXNET + ["bot", f"127.0.0.1:{host.port}", "--count", "2",
                                       "--code", host.code, "--name", "robo", "--seed", "4",
                                       "--config-dir", str(tmp_path / "bc")],
                             capture_output=True, text=True, timeout=120)
    finally:
        host.stop()
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert re.match(r"tournament over: swiss of hranice — rounds: 2, bots: 2, tables: \d+, ",
                    lines[0])
    rows = [line for line in lines[2:] if line.strip()]
    assert len(rows) == 4
    assert sorted(line.split(".", 1)[1].split()[0] for line in rows if line.startswith("* ")
                  ) == ["robo1", "robo2"]  # its own entrants marked
    assert "tournament: over;" in host.text()


async def test_the_organiser_starts_by_signal_and_registration_closes(tmp_path) -> None:
    host = HostProcess(tmp_path, ["--tournament", "swiss", *GAME, "--rounds", "1",
                                  "--bots", "heuristic:4", "--pause", "0",
                                  "--bot-delay", "0.05"], free_port())
    host.start()
    try:
        await host.wait_for(r"tournament: start it with: kill -USR1 (\d+)", 15)
        assert "round 1 of 1" not in host.text()
        assert host.proc is not None
        os.kill(host.proc.pid, signal.SIGUSR1)
        await host.wait_for(r"tournament: round 1 of 1:", 15)
        s = await Session.connect("127.0.0.1", host.port, name="Late", code=host.code,
                                  config_dir=str(tmp_path / "late"), accept_new=True,
                                  identity_file=None)
        try:
            await s.send({"type": "enter"})
            got = []
            end = time.monotonic() + 10
            while time.monotonic() < end and not any(m["type"] == "error" for m in got):
                msg = await s.next_message(end - time.monotonic())
                if msg is not None:
                    got.append(msg)
        finally:
            await s.aclose()
    finally:
        host.stop()
    errors = [m for m in got if m["type"] == "error"]
    assert errors and errors[0]["code"] == "registration_closed"
    assert [m for m in got if m["type"] == "tournament"][0]["you"] is None
    assert "Late" not in host.text().split("round 1 of 1:")[0]


async def run_small_event(tmp_path: Path, fmt: str, extra: list[str], entrants: int,
                          clients: int) -> dict[str, Any]:
    """An event of ``fmt`` with host bots and ``clients`` bot entrants over the network; its
    results file."""
    results = tmp_path / "event.json"
    host = HostProcess(tmp_path, ["--tournament", fmt, *GAME, *extra, "--bots",
                                  f"heuristic:{entrants - clients}", "--start-when",
                                  str(entrants), "--bot-delay", "0", "--pause", "0",
                                  "--results", str(results)], free_port())
    host.start()
    try:
        report = await run_entrants("127.0.0.1", host.port, count=clients, code=host.code,
                                    seed=5, name="robo")
        await host.wait_for(r"tournament: results in ", 30)
    finally:
        host.stop()
    data = json.loads(results.read_text())
    check_results_schema(data)
    assert report.final is not None
    assert unrated(report.final["standings"]) == unrated(data["standings"])
    return data


async def test_a_knockout_sends_one_on_from_each_table_and_seeds_take_the_byes(tmp_path):
    data = await run_small_event(tmp_path, "knockout", ["--table-size", "4"], 6, 2)
    first, final = data["rounds"]
    assert first["byes"] == ["host bot 1", "host bot 2"]  # the top seeds
    assert sorted(len(t) for t in first["tables"]) == [2, 2]
    games = {(g["round"], g["table"]): g for g in data["games"]}
    seed = {e["name"]: e["seed"] for e in data["entrants"]}
    winners = [min(g["entrants"], key=lambda n, g=g: (-g["points"][g["entrants"].index(n)],
                                                      seed[n]))
               for g in (games[(1, 1)], games[(1, 2)])]  # the best placed, the better seed
    assert sorted(final["tables"][0]) == sorted(first["byes"] + winners)
    champion = data["standings"][0]
    table = games[(2, 1)]
    best = max(table["points"])
    assert champion["reached"] == 2 and champion["name"] in [
        n for n, p in zip(table["entrants"], table["points"], strict=True) if p == best]


async def test_a_round_robin_meets_every_pair_once_with_rotating_byes(tmp_path):
    data = await run_small_event(tmp_path, "round-robin", ["--table-size", "2"], 5, 1)
    names = [e["name"] for e in data["entrants"]]
    pairs = [frozenset(g["entrants"]) for g in data["games"]]
    assert len(pairs) == 10 and set(pairs) == {frozenset((a, b)) for i, a in enumerate(names)
                                               for b in names[i + 1:]}
    assert all(r["byes"] == 1 and r["games"] == 4 for r in data["standings"])


async def test_entrants_outlive_a_restart_before_the_start_and_an_absent_one_is_played_for(
        tmp_path) -> None:
    results = tmp_path / "event.json"
    host = HostProcess(tmp_path, ["--tournament", "swiss", *GAME, "--rounds", "1",
                                  "--table-size", "3", "--bots", "heuristic:2", "--pause", "0",
                                  "--bot-delay", "0",
                                  "--results", str(results)], free_port())
    host.start()
    try:
        ada = join_style(tmp_path, "Ada")
        s = await Session.connect("127.0.0.1", host.port, name="Ada", code=host.code,
                                  config_dir=ada["config_dir"], accept_new=True)
        await s.send({"type": "enter"})
        await host.wait_for(r"entrant 3: Ada \(key ", 15)
        await s.aclose()  # Ada goes home: she stays an entrant
        host.stop()
        host.start()
        await host.wait_for(r"tournament: resumed from .* \(3 entrants, 0 rounds drawn", 15)
        assert host.proc is not None
        os.kill(host.proc.pid, signal.SIGUSR1)
        await host.wait_for(r"tournament: results in ", 60)
    finally:
        host.stop()
    log = host.text()
    assert log.count("entrant 1: host bot 1") == 1 and "entrant 4" not in log
    data = json.loads(results.read_text())
    assert [e["name"] for e in data["entrants"]] == ["host bot 1", "host bot 2", "Ada"]
    (game,) = data["games"]
    assert sorted(game["entrants"]) == ["Ada", "host bot 1", "host bot 2"]
    assert not game["failed"] and "winners" in game["outcome"]
    assert {r["name"]: r["games"] for r in data["standings"]}["Ada"] == 1
