"""The headless host's game log: public events only, worded in the host's language."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

from hexnet.games import get_game
from host.core import Accepted, TableStarted
from host.eventlog import EventLog

PLAYERS = ["Anna", "Bob", "Cili"]


def played() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A Hexenhammer game after its first turn ends: a private draw among public events."""
    engine = get_game("hexenhammer")
    state = engine.setup(PLAYERS, 4, {})
    seat = engine.waiting_for(state)[0]
    return state, engine.apply(state, seat, {"type": "pass"})


def test_the_log_shows_public_events_once_and_never_a_private_one() -> None:
    state, events = played()
    written: list[str] = []
    log = EventLog(lambda table: state, written.extend, "en")
    started = TableStarted(3, "hexenhammer", PLAYERS, {}, 4)
    log([started, Accepted(3, 0, {"type": "pass"}, 1, events)])
    public = [e for e in state["log"] if "to" not in e]
    assert len(written) == len(public) and len(public) < len(state["log"])
    assert written[0].startswith("table 3: Hexenhammer begins. Villagers on their stakes")
    assert not any("You draw" in line for line in written)
    assert any(line.endswith("draws 1 card.") for line in written)
    log([Accepted(3, None, {"type": "pass"}, 2, [])])  # nothing new: nothing written again
    assert len(written) == len(public)


def test_the_log_speaks_the_hosts_language() -> None:
    state, events = played()
    written: list[str] = []
    EventLog(lambda table: state, written.extend, "de")(
        [TableStarted(1, "hexenhammer", PLAYERS, {}, 4)])
    assert written[0].startswith("table 1: Hexenhammer beginnt.")


def test_a_table_recovered_from_its_journal_is_logged_from_the_change_on() -> None:
    state, events = played()
    written: list[str] = []
    EventLog(lambda table: state, written.extend)([Accepted(2, 0, {"type": "pass"}, 1, events)])
    assert len(written) == sum(1 for e in events if "to" not in e)


def test_a_reader_that_stops_reading_never_blocks_the_host_and_is_told_what_it_missed() -> None:
    """The log writer's output is a pipe nobody reads: queueing lines returns at once; past the
    queue's bound new lines are dropped and counted, and once the output is read again the
    count is written as a line of its own after what was kept."""
    import os
    import threading

    from host.eventlog import LineWriter

    read_end, write_end = os.pipe()
    stream = os.fdopen(write_end, "w")
    writer = LineWriter(stream, max_queued=10)
    big = "x" * (4 << 20)  # more than any pipe holds: the writer's thread blocks on it
    writer.line(big)
    for i in range(20):  # while it is blocked: 9 fit in the queue, 11 are dropped
        writer.line(f"line {i}")
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.extend(iter(lambda: os.read(read_end, 1 << 16),
                                                              b"")))
    reader.start()
    writer.close()
    stream.close()
    reader.join(10)
    lines = [line.split(" ", 1)[1] for line in b"".join(got).decode().splitlines()]
    assert lines == [big, *(f"line {i}" for i in range(9)),
                     "11 log lines dropped: the output did not keep up"]
    os.close(read_end)


def test_the_log_loads_every_game_and_its_words_before_the_first_table() -> None:
    # A fresh interpreter, as the headless host starts: prepare() (called before the host
    # says it is ready) imports every game and its words, so the first table of a game
    # neither stalls the loop importing it nor the writer's thread wording its first lines.
    code = ("import sys; from host.eventlog import EventLog; "
            "before = [m for m in MODS if m in sys.modules]; "
            "EventLog(lambda t: None, lambda lines: None, 'de').prepare(); "
            "print(before, [m for m in MODS if m in sys.modules])")
    mods = [f"hexnet.games.{g}{part}" for g in ("hexenhammer", "fang", "hranice")
            for part in ("", ".words")]
    out = subprocess.run([sys.executable, "-c", f"MODS = {mods!r}; {code}"], check=True,
                         capture_output=True, text=True, timeout=60).stdout
    assert out.strip() == f"[] {mods!r}"
