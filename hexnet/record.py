"""A played game as data: what a journal or a results screen's reveal holds, and its check.

A :class:`Record` is everything needed to play a game again: the game, the players, the options,
the revealed seed (and salt and commitment) and every accepted step ``(seat, action, digest)`` —
seat None is the host (a timeout, an absent player) and ``digest`` the public events' digest the
table recorded. It comes from a journal file (:meth:`Record.from_journal`, given what
:func:`protocol.journalfile.read_journal` parsed) or from the ``reveal`` a client receives at the
end of a game (:meth:`Record.from_reveal`). :func:`verify_record` is the check ``hexnet verify``
and ``hexnet replay`` run before anything is shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from hexnet.engine import Game
from hexnet.fairness import Verdict, verify_game
from hexnet.games import get_game

Step = tuple[int | None, dict[str, Any], str | None]


class RecordError(ValueError):
    """A journal or reveal that does not describe a game (fields missing or of the wrong type)."""


@dataclass
class Record:
    """One game, finished (``outcome`` set) or still running."""

    game: str
    players: list[str]
    options: dict[str, Any]
    seed: Any
    salt: bytes
    commitment: str
    steps: list[Step] = field(default_factory=list)
    outcome: dict[str, Any] | None = None
    finished: bool = False
    started: float | None = None
    table: int | None = None
    rng: str | None = None
    torn: bool = False

    @classmethod
    def from_journal(cls, contents: Any) -> Record:
        """The record of a parsed journal (anything with ``header``, ``steps``, ``end`` and
        ``torn``, as :class:`protocol.journalfile.JournalContents`)."""
        h = contents.header
        try:
            steps = [_step(s.get("seat"), s["action"], s.get("digest")) for s in contents.steps]
            end = contents.end
            started = h.get("started")
            table = h.get("table")
            return cls(
                game=str(h["game"]), players=[str(p) for p in h["players"]],
                options=dict(h.get("options") or {}), seed=h["seed"],
                salt=bytes(h.get("salt") or b""), commitment=str(h.get("commitment") or ""),
                steps=steps, outcome=end.get("outcome") if end else None,
                finished=end is not None,
                started=float(started) if isinstance(started, int | float) else None,
                table=table if isinstance(table, int) else None,
                rng=h.get("rng") if isinstance(h.get("rng"), str) else None,
                torn=bool(contents.torn))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise RecordError(f"the journal's header or steps are incomplete: {exc}") from exc

    @classmethod
    def from_reveal(cls, parts: Sequence[dict[str, Any]],
                    outcome: dict[str, Any] | None) -> Record:
        """The record of a finished game from the ``reveal`` parts a seat received (in any
        order) and the outcome its last view showed."""
        if not parts:
            raise RecordError("nothing was revealed")
        ordered = sorted(parts, key=lambda p: p.get("part", 0))
        head = ordered[0]
        try:
            steps = [_step(s["seat"], s["action"], s.get("digest"))
                     for part in ordered for s in part["steps"]]
            return cls(game=str(head["game"]), players=[str(p) for p in head["players"]],
                       options=dict(head.get("options") or {}), seed=head["seed"],
                       salt=bytes(head["salt"]), commitment=str(head["commitment"]),
                       steps=steps, outcome=outcome, finished=True,
                       table=head.get("table") if isinstance(head.get("table"), int) else None,
                       rng=head.get("rng") if isinstance(head.get("rng"), str) else None)
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"the reveal is incomplete: {exc}") from exc

    def engine(self) -> Game:
        """The game's engine (RecordError if this hexnet does not know the game)."""
        try:
            return get_game(self.game)
        except KeyError as exc:
            raise RecordError(str(exc.args[0])) from None


def _step(seat: Any, action: Any, digest: Any) -> Step:
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
        raise TypeError(f"a step's seat is {seat!r}")
    if not isinstance(action, dict):
        raise TypeError("a step's action is not a map")
    return seat, action, digest if isinstance(digest, str) else None


def verify_record(record: Record, game: Game | None = None) -> Verdict:
    """Check a record: the commitment, every step's public events and the final result (see
    :func:`hexnet.fairness.verify_game`); ``game`` defaults to the engine the record names."""
    try:
        game = game or record.engine()
    except RecordError as exc:
        return Verdict(False, [str(exc)])
    try:
        verdict = verify_game(game, record.players, record.options, record.seed, record.salt,
                              record.commitment, record.steps, record.outcome)
    except Exception as exc:  # noqa: BLE001 - a hostile file must give a verdict, not a crash
        return Verdict(False, [f"The game cannot be replayed: {exc}"])
    if record.torn:
        verdict.lines.insert(0, "A torn last record (cut off mid-write) was ignored.")
    if not record.finished:
        verdict.lines.append("The game in this journal has not finished.")
    return verdict
