"""The headless host's game log: public events only, worded in the host's language."""

from __future__ import annotations

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
