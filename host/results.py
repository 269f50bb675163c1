"""A tournament's results (part of the director, :mod:`host.event`): the drawn rounds and the
recorded games (:class:`hexnet.tournament.History`, whose pairing, ranking points and standings
these are), every finished game as the results file lists it, the standings after each round,
and the results file.

The results file (``results``, a ``.json`` path): the event, the entrants (with their key
fingerprints), every game (round, table, entrants in seat order, outcome, ranking points,
journal, revealed seed and salt, commitment, and — once the club has rated it — each entrant's
rating before and after it) and the standings after each round; rewritten after every round;
at the end a CSV of the final standings beside it (``.csv``). Standings rows as sent and
written carry each entrant's ``rating`` in the event's game after their last rated game of the
event and its ``change`` (μ) since before their first (:meth:`Results.with_ratings`).
"""

from __future__ import annotations

import csv
import io
import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hexnet.tournament import (
    History,
    Result,
    Standing,
    bye_points,
    knockout_over,
    table_points,
)
from host.entrants import Registration
from host.event_journal import EventJournal

CSV_FIELDS = ["rank", "name", "points", "games", "wins", "byes", "median_buchholz", "buchholz",
              "reached", "seed", "fingerprint", "rating_mu", "rating_sigma", "rating_change"]


class Results:
    """The event's history of rounds and games, and the standings it has published."""

    def __init__(self, game: str, fmt: str, size: int, rounds: int, registration: Registration,
                 journal: EventJournal, results: str | Path | None,
                 log: Callable[[str], None]) -> None:
        self.game, self.fmt, self.size = game, fmt, size
        self.registration = registration
        self.journal = journal
        self.path = Path(results) if results else None
        self.log = log
        self.history: History | None = None
        self.rounds = rounds  # the rounds the event plays (as asked until the start)
        self.games: list[dict[str, Any]] = []  # every finished game, as the results list it
        self.after: list[dict[str, Any]] = []  # standings after each round

    def make_history(self, names: list[str], rounds: int) -> None:
        """The event starts with ``names`` (in seed order) for ``rounds`` rounds."""
        from hexnet.games import get_game

        engine = get_game(self.game)
        self.history = History(names, self.size, self.fmt, bye_points(self.game, self.size),
                               engine.min_players)
        self.rounds = rounds

    # -- games -------------------------------------------------------------------------------
    def game_record(self, number: int, index: int, tid: int, names: tuple[str, ...],
                    outcome: dict[str, Any] | None, journal: str, seed: Any, salt: Any,
                    commitment: str) -> dict[str, Any]:
        """Table ``index`` of round ``number`` as the results list it (no ``outcome``: not
        finished, no points)."""
        failed = outcome is None
        points = [0.0] * len(names) if failed else table_points(self.game, outcome, len(names))
        return {"round": number, "table": index, "table_id": tid, "entrants": list(names),
                "outcome": _plain(outcome), "points": points, "failed": failed,
                "journal": journal, "seed": bytes(seed).hex() if seed else None,
                "salt": bytes(salt).hex() if salt else None, "commitment": commitment or ""}

    def record(self, game: dict[str, Any], replaying: bool = False) -> None:
        """A game of the current round is over (journaled, unless taken back from the
        journal)."""
        assert self.history is not None
        winners = set((game.get("outcome") or {}).get("winners", []))
        self.history.record(Result(int(game["round"]), int(game["table"]),
                                   tuple(game["entrants"]),
                                   tuple(float(p) for p in game["points"]),
                                   tuple(s for s in range(len(game["entrants"]))
                                         if s in winners),
                                   bool(game["failed"])))
        self.games.append(game)
        if not replaying:
            self.journal.write({"kind": "result", "game": game})

    def rate(self, commitment: str, ratings: dict[str, dict[str, Any]],
             replaying: bool = False) -> bool:
        """The club rated the game with ``commitment``: each entrant's rating ``before`` and
        ``after`` it (by name) go with its record (journaled, unless taken back from the
        journal). Whether the game is one of the event's."""
        for game in self.games:
            if commitment and game.get("commitment") == commitment:
                game["ratings"] = ratings
                if not replaying:
                    self.journal.write({"kind": "rating", "commitment": commitment,
                                        "ratings": ratings})
                return True
        return False

    def rate_game(self, game: Any, changes: dict[str, Any]) -> bool:
        """The club rated ``game`` (:class:`host.club.games.FinishedGame`; ``changes``: player
        key → rating before, after): :meth:`rate` with its entrants by name (a seat of the
        event's game is the entrant its record names there). Whether it is the event's."""
        names = next((g["entrants"] for g in self.games
                      if game.commitment and g.get("commitment") == game.commitment), None)
        if names is None:
            return False
        ratings = {name: {"before": changes[seat.key][0].as_dict(),
                          "after": changes[seat.key][1].as_dict()}
                   for name, seat in zip(names, game.seats, strict=False)
                   if seat.key in changes}
        return self.rate(game.commitment, ratings)

    def with_ratings(self, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Standings ``rows`` with each rated entrant's ``rating`` (after their last rated game
        of the event: μ, σ, ordinal) and ``change`` (μ since before their first)."""
        first: dict[str, dict[str, float]] = {}
        last: dict[str, dict[str, float]] = {}
        for game in self.games:
            for name, rated in (game.get("ratings") or {}).items():
                first.setdefault(name, rated["before"])
                last[name] = rated["after"]
        out = []
        for row in rows:
            name = row["name"]
            if name in last:
                after = last[name]
                row = {**row, "rating": {**after, "ordinal": round(
                    after["mu"] - 3 * after["sigma"], 3)},
                       "change": round(after["mu"] - first[name]["mu"], 3)}
            out.append(row)
        return out

    def round_complete(self) -> bool:
        """Whether every table of the last round drawn has a result."""
        assert self.history is not None
        if not self.history.rounds:
            return False
        rnd = self.history.rounds[-1]
        done = {r.table for r in self.history.results if r.round == rnd.number}
        return len(done) >= len(rnd.tables)

    def over(self) -> bool:
        """Whether every round the event plays has been played."""
        assert self.history is not None
        if self.fmt == "knockout":
            return knockout_over(self.history)
        return len(self.history.rounds) >= self.rounds and self.round_complete()

    # -- standings ---------------------------------------------------------------------------
    def standings_rows(self) -> list[dict[str, Any]]:
        """The standings now, one map per entrant (rank order)."""
        if self.history is None:
            return []
        return [_row(s) for s in self.history.standings()]

    def note_standings(self, number: int) -> list[dict[str, Any]]:
        """The standings after round ``number``, kept (and journaled) once."""
        rows = self.standings_rows()
        if not self.after or self.after[-1]["round"] != number:
            self.after.append({"round": number, "standings": rows})
            self.journal.write({"kind": "standings", "round": number, "standings": rows})
        return rows

    def data(self, event: dict[str, Any]) -> dict[str, Any]:
        """Everything the results file holds; ``event``: the event's own description."""
        entrants = self.registration.entrants
        fps = {e.name: e.fingerprint for e in entrants}
        order = self.history.entrants if self.history else [e.name for e in entrants]
        kinds = {e.name: ("player" if e.identity else "host bot") for e in entrants}
        return {
            "event": event,
            "entrants": [{"seed": i, "name": n, "kind": kinds.get(n, "player"),
                          "fingerprint": fps.get(n)} for i, n in enumerate(order, 1)],
            "rounds": [{"number": r.number, "tables": [list(t) for t in r.tables],
                        "byes": list(r.byes),
                        "standings": next((a["standings"] for a in self.after
                                           if a["round"] == r.number), None)}
                       for r in (self.history.rounds if self.history else [])],
            "games": self.games,
            "standings": self.with_ratings(self.standings_rows()),
        }

    def write(self, event: dict[str, Any], final: bool = False) -> None:
        """Rewrite the results file (and, ``final``, the CSV of the standings beside it)."""
        if self.path is None:
            return
        try:
            _atomic(self.path, json.dumps(self.data(event), indent=1) + "\n")
            if final:
                out = io.StringIO()
                writer = csv.DictWriter(out, CSV_FIELDS, extrasaction="ignore",
                                        lineterminator="\n")
                writer.writeheader()
                fps = {e.name: e.fingerprint or "" for e in self.registration.entrants}
                for row in self.with_ratings(self.standings_rows()):
                    rating = row.get("rating") or {}
                    writer.writerow({**row, "fingerprint": fps.get(row["name"], ""),
                                     "rating_mu": rating.get("mu", ""),
                                     "rating_sigma": rating.get("sigma", ""),
                                     "rating_change": row.get("change", "")})
                _atomic(self.path.with_suffix(".csv"), out.getvalue())
                self.log(f"tournament: results in {self.path} and "
                         f"{self.path.with_suffix('.csv')}")
        except OSError as exc:
            self.log(f"tournament: results not written: {exc}")


def _row(s: Standing) -> dict[str, Any]:
    d = s.as_dict()
    return {k: d[k] for k in ("rank", "name", "points", "games", "wins", "byes", "buchholz",
                              "median_buchholz", "reached", "seed")}


def _plain(value: Any) -> Any:
    """``value`` with bytes as hex and tuples as lists (JSON and msgpack alike)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, bytes):
        return value.hex()
    return value


def iso(t: float | None) -> str | None:
    """``t`` (seconds since the epoch) as an ISO 8601 UTC time, or None."""
    return None if t is None else time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


def _atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file, fsynced, then renamed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)
