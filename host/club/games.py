"""A finished journal as the club counts it: verified first, then read into places and sides.

:func:`read_game` takes one journal file and either gives a :class:`FinishedGame` (who sat
where, as which player key, their place, win, score, and for Fang their role and side) or a
:class:`Refusal` saying in one line why it is not counted. A journal is counted only once it
verifies as ``hexnet verify`` checks it (:func:`host.verify.verify_contents`); an unfinished one
is skipped (its game may still be running), a stacked deal (tutorials, tests) is skipped too.

Players are their keys (:func:`player_key`): a human is the SHA-256 of their identity key (hex,
as a tournament names its entrants), a bot is ``bot:<policy>`` (``bot:heuristic``,
``bot:search@hard``). A seat a bot kept for an absent player counts for that player. A seat
without an identity, or whose player asked to be forgotten, is anonymous.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hexnet.ratings import places_from_points
from hexnet.tournament import table_points
from host.verify import verify_contents
from protocol.journalfile import JournalError, read_journal

FANG = "fang"
SIDES = ("village", "witches", "fool")


@dataclass(frozen=True)
class SeatResult:
    """One seat of a finished game; ``key`` None is an anonymous seat."""

    seat: int
    key: str | None
    name: str
    kind: str  # human | bot | anonymous
    place: int
    won: bool
    score: float | None = None
    role: str | None = None
    side: str | None = None


@dataclass(frozen=True)
class FinishedGame:
    """A verified, finished game: what the club database keeps of it."""

    commitment: str
    game: str
    started: float
    ended: float
    journal: str
    seats: tuple[SeatResult, ...]
    result: str | None = None  # Fang: the winning side

    @property
    def order(self) -> tuple[float, str]:
        """Where the game stands in the order ratings are computed in."""
        return (self.ended, self.commitment)


@dataclass(frozen=True)
class Refusal:
    """A journal not counted: ``status`` refused (does not verify, unreadable), skipped
    (unfinished, stacked) or duplicate (counted already), and the one-line reason."""

    path: str
    status: str
    reason: str
    commitment: str | None = field(default=None)


def fingerprint(identity: bytes) -> str:
    """A player's key: the SHA-256 of their Ed25519 identity key, in hex."""
    return hashlib.sha256(identity).hexdigest()


def player_key(seat: dict[str, Any]) -> tuple[str | None, str]:
    """The key and kind a journal's seat record stands for: (fingerprint, "human"),
    (``bot:<policy>``, "bot"), or (None, "anonymous")."""
    if seat.get("kind") == "bot" and seat.get("reserved") is not None:
        return fingerprint(bytes(seat["reserved"])), "human"  # kept for its absent player
    if seat.get("kind") == "human" and isinstance(seat.get("identity"), bytes):
        return fingerprint(seat["identity"]), "human"
    if seat.get("kind") == "bot":
        return f"bot:{seat.get('policy') or 'heuristic'}", "bot"
    return None, "anonymous"


def read_game(path: str | Path, forgotten: Collection[str] = ()) -> FinishedGame | Refusal:
    """The game the journal at ``path`` records, verified; or why it is not counted.
    Players whose keys are in ``forgotten`` sit anonymously."""
    where = str(path)
    try:
        contents = read_journal(path)
    except JournalError as exc:
        return Refusal(where, "refused", f"unreadable: {exc}")
    header = contents.header
    commitment = header.get("commitment") if isinstance(header.get("commitment"), str) else None
    if not contents.finished:
        return Refusal(where, "skipped", "unfinished (its game may still be running)",
                       commitment)
    verdict = verify_contents(contents)
    if not verdict.ok:
        return Refusal(where, "refused", f"does not verify: {_why(verdict.lines)}", commitment)
    game = str(header["game"])
    if verdict.stacked:
        return Refusal(where, "skipped", "a stacked deal (tutorial or test), not rated",
                       commitment)
    outcome = dict((contents.end or {}).get("outcome") or {})
    players = [str(p) for p in header["players"]]
    records = contents.seats or header.get("seats") or []
    seats = _seats(game, players, records, outcome, header.get("seats") or [], forgotten)
    started = _number(header.get("started"), 0.0)
    ended = _number((contents.end or {}).get("ended"), started)
    return FinishedGame(str(commitment), game, started, ended, where, tuple(seats),
                        str(outcome["result"]) if game == FANG and "result" in outcome
                        else None)


def _seats(game: str, players: list[str], records: list[Any], outcome: dict[str, Any],
           first: list[Any], forgotten: Collection[str]) -> list[SeatResult]:
    """Each seat's player, place and win (places: winners first, then by score, as a
    tournament ranks a table; Fang: the winning side first, everyone else second)."""
    n = len(players)
    places = places_from_points(table_points(game, outcome, n))
    winners = set(outcome.get("winners") or [])
    scores = list(outcome.get("scores") or [])
    roles = list(outcome.get("roles") or []) if game == FANG else []
    out = []
    for s in range(n):
        record = records[s] if s < len(records) and isinstance(records[s], dict) else {}
        key, kind = player_key(record)
        name = key if kind == "bot" else str(record.get("name") or players[s])
        if kind == "human" and record.get("kind") == "bot":  # a stand-in: its player's name
            opening = first[s] if s < len(first) and isinstance(first[s], dict) else {}
            name = str(opening.get("name") or players[s])
        if key is not None and key in forgotten:
            key, kind, name = None, "anonymous", ""
        role = str(roles[s]) if s < len(roles) else None
        out.append(SeatResult(
            seat=s, key=key, name=name, kind=kind,
            place=2 - (s in winners) if game == FANG else places[s],  # Fang: the side
            won=s in winners,
            score=float(scores[s]) if s < len(scores) and isinstance(scores[s], int | float)
            else None,
            role=role, side=_side(role) if role else None))
    return out


def _side(role: str) -> str:
    from hexnet.games.fang.data import side_of

    return side_of(role)


def _number(value: Any, default: float) -> float:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) \
        else default


def _why(lines: list[str]) -> str:
    """The verdict's failing line (the last one that is not about a torn tail)."""
    kept = [line for line in lines if "torn" not in line]
    return (kept[-1] if kept else "the check failed").replace("\n", " ")
