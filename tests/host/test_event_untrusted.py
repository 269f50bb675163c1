"""A tournament's own journal is untrusted input too (issue 23): a crafted event journal — its
checksums valid — never stops the host; it is set aside with the reason in its name and in the
log (as table journals are, host/journalcheck.py), and a new event opens. Only an unfinished
event of another game, format or table size stops the host (the organiser decides about it).
On 930923a a crafted record raised from ``load`` or, past it, from the first round's seating."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from client.session import Session
from host.event import CURRENT, EVENTS_DIR, Director, EventError
from host.journal import Journal
from host.server import Host

pytestmark = pytest.mark.timeout(60)
KEY = b"k" * 32
HEADER = {"game": "hranice", "format": "swiss", "size": 4, "rounds": 1,
          "options": {"turn_seconds": 60}, "created": 0.0}
NAMES = ["host bot 1", "host bot 2", "host bot 3", "ada"]
ENTRANTS = [{"kind": "entrant", "name": n, "identity": None, "policy": "heuristic"}
            for n in NAMES[:3]] + [{"kind": "entrant", "name": "ada", "identity": KEY,
                                    "policy": "heuristic", "address": "10.0.0.5"}]
START = {"kind": "start", "entrants": NAMES, "rounds": 1, "at": 0.0}
ROUND = {"kind": "round", "number": 1, "tables": [NAMES], "byes": [], "table_ids": [1]}
RESULT = {"kind": "result", "game": {"round": 1, "table": 1, "entrants": NAMES,
                                     "points": [3, 0, 0, 0], "failed": False,
                                     "outcome": {"winners": [0]}, "commitment": "c0ffee"}}
RATED = {"before": {"mu": 25.0, "sigma": 8.333}, "after": {"mu": 27.5, "sigma": 7.9}}
RATING = {"kind": "rating", "commitment": "c0ffee", "ratings": {"ada": RATED}}


def craft(path: Path, header: dict[str, Any], records: list[Any]) -> None:
    """A journal as a host writes it — valid checksums — holding ``records``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    journal = Journal.create(path, header)
    for rec in records:
        journal.append(rec)
    journal.close()


CRAFTED = {
    "an identity that is no key": (HEADER, [{**ENTRANTS[3], "identity": b"x"}], "refused"),
    "a round naming a stranger": (HEADER, [*ENTRANTS, START, {
        **ROUND, "tables": [["host bot 1", "host bot 2", "host bot 3", "mallory"]]}],
        "refused"),
    "a table of five at tables of four": (HEADER, [*ENTRANTS, {
        "kind": "entrant", "name": "bo", "identity": None, "policy": "heuristic"},
        {**START, "entrants": [*NAMES, "bo"]}, {**ROUND, "tables": [[*NAMES, "bo"]]}],
        "refused"),
    "rounds of 2**40": (HEADER, [*ENTRANTS, {**START, "rounds": 2 ** 40}], "refused"),
    "points that are no number": (HEADER, [*ENTRANTS, START, ROUND, {
        "kind": "result", "game": {"round": 1, "table": 1, "entrants": NAMES,
                                   "points": ["x"] * 4, "failed": False, "outcome": {}}}],
        "refused"),
    "a result of a round never drawn": (HEADER, [*ENTRANTS, START, ROUND, {
        "kind": "result", "game": {"round": 7, "table": 1, "entrants": NAMES,
                                   "points": [0] * 4, "failed": False, "outcome": {}}}],
        "refused"),
    "a standings row holding a map": (HEADER, [*ENTRANTS, START, ROUND, {
        "kind": "standings", "round": 1, "standings": [{"name": "ada", "points": {}}]}],
        "refused"),
    "a stacked deal in the options": ({**HEADER, "options": {"scenario": "x"}}, ENTRANTS,
                                      "refused"),
    "a rating naming a stranger": (HEADER, [*ENTRANTS, START, ROUND, RESULT, {
        **RATING, "ratings": {"mallory": RATED}}], "refused"),
    "a rating that is no number": (HEADER, [*ENTRANTS, START, ROUND, RESULT, {
        **RATING, "ratings": {"ada": {**RATED, "after": {"mu": "high", "sigma": 1.0}}}}],
        "refused"),
    "a record of no known kind": (HEADER, [*ENTRANTS, {"kind": "teleport"}], "refused"),
    "a record that is no map": (HEADER, [*ENTRANTS, ["entrant"]], "unreadable"),
    "too few entrants for a table": (HEADER, [*ENTRANTS[:2], {
        **START, "entrants": NAMES[:2]}], "unplayable"),
}


@pytest.mark.parametrize("case", sorted(CRAFTED))
async def test_a_crafted_event_journal_is_set_aside_and_a_new_event_opens(tmp_path,
                                                                          case: str) -> None:
    header, records, slug = CRAFTED[case]
    path = tmp_path / "data" / EVENTS_DIR / CURRENT
    craft(path, header, records)
    lines: list[str] = []
    host = Host("Crafted", tmp_path / "cfg", tmp_path / "data", open=True,
                games=["hranice"], log=lines.append)
    director = Director(host, game="hranice", fmt="swiss", size=4, rounds=1, bots=2,
                        start_when=99, log=lines.append)
    director.load()
    await host.start("127.0.0.1", 0)
    director.begin()
    try:
        kept = path.with_name(f"{CURRENT}.set-aside-{slug}")
        assert kept.exists() and path.exists()  # set aside; a new event's journal opened
        said = [line for line in lines if kept.name in line]
        assert said and said[0].startswith(f"tournament journal {CURRENT}: ")
        assert director.status == "registering" and not director.resumed
        assert [e.name for e in director.entrants] == ["host bot 1", "host bot 2"]
        s = await Session.connect("127.0.0.1", host.port, name="ada", identity_file=None,
                                  config_dir=str(tmp_path / "ada"), accept_new=True)
        await s.send({"type": "enter"})  # the new event takes entrants
        while len(director.entrants) < 3:
            await s.next_message(5)
        await s.aclose()
    finally:
        director.close()
        await host.stop()


def test_an_unreadable_event_journal_is_set_aside(tmp_path) -> None:
    path = tmp_path / "data" / EVENTS_DIR / CURRENT
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\x00not a journal\xff" * 10)
    lines: list[str] = []
    host = Host("Crafted", tmp_path / "cfg", tmp_path / "data", open=True, games=["hranice"],
                log=lines.append)
    director = Director(host, game="hranice", fmt="swiss", size=4, log=lines.append)
    director.load()
    director.close()
    assert path.with_name(f"{CURRENT}.set-aside-unreadable").exists() and path.exists()


def test_an_unfinished_event_of_another_game_still_stops_the_host(tmp_path) -> None:
    path = tmp_path / "data" / EVENTS_DIR / CURRENT
    craft(path, {**HEADER, "game": "fang", "size": 8}, [])
    host = Host("Other", tmp_path / "cfg", tmp_path / "data", open=True, games=["hranice"])
    director = Director(host, game="hranice", fmt="swiss", size=4)
    with pytest.raises(EventError, match="holds an unfinished swiss tournament of fang"):
        director.load()
    assert path.exists() and list(path.parent.iterdir()) == [path]


def test_a_well_formed_event_journal_still_resumes(tmp_path) -> None:
    path = tmp_path / "data" / EVENTS_DIR / CURRENT
    craft(path, HEADER, ENTRANTS)
    host = Host("Same", tmp_path / "cfg", tmp_path / "data", open=True, games=["hranice"])
    director = Director(host, game="hranice", fmt="swiss", size=4, rounds=1)
    director.load()
    director.close()
    assert director.resumed and [e.name for e in director.entrants] == NAMES
    assert director.entrants[3].address == "10.0.0.5"
    assert host.lobby.people.name_for("someone", KEY) == "ada"  # its name is its key's


def test_an_event_journal_holding_the_clubs_ratings_still_resumes(tmp_path) -> None:
    """The club's rating of an event's game is journaled with the event (``rating``): a host
    killed after it resumes the event, the rating with its game (it was refused as 'not a
    record a host writes' when the two branches met)."""
    path = tmp_path / "data" / EVENTS_DIR / CURRENT
    craft(path, HEADER, [*ENTRANTS, START, ROUND, RESULT, RATING])
    host = Host("Same", tmp_path / "cfg", tmp_path / "data", open=True, games=["hranice"])
    director = Director(host, game="hranice", fmt="swiss", size=4, rounds=1)
    director.load()
    director.close()
    assert director.resumed and director.results.games[0]["ratings"] == {"ada": RATED}
