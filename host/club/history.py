"""Whether a host keeps history (``hexnet host --no-history``), and what it does when a table's
journal is closed.

By default a host keeps every finished game: its journal stays in ``<data dir>/journals`` and
the club database indexes it (:meth:`History.finished`). With ``--no-history`` it keeps none: no
club database is opened or written, and a finished game's journal is deleted once closed (the
journal was there for crash recovery; the players got the game's reveal on their results
screens) — otherwise a later ``hexnet stats`` or ``hexnet replay --list`` would find it.
Journals of games still running are never touched.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from host.club.games import FinishedGame, Refusal
from host.club.store import DB_FILE, Club, Log, club_dir
from host.core import Accepted, TableOver, TableStarted
from protocol.journalfile import JournalError, read_journal


@dataclass
class History:
    """A host's history setting; ``club`` is its open database when it keeps history."""

    keep: bool
    data_dir: Path
    club: Club | None = None

    def open(self, log: Log = lambda line: None) -> Club | None:
        """At the host's start (in a worker thread): the club database opened, caught up or
        rebuilt (:meth:`Club.open_or_rebuild`), or None without history."""
        if self.keep and self.club is None:
            self.club = Club.open_or_rebuild(self.data_dir, log)
        return self.club

    def line(self) -> str:
        """What the host says about it at start (its log, its screen)."""
        if not self.keep:
            return ("history: none kept (--no-history): no ratings, and each finished game's "
                    "journal is deleted")
        return (f"history: finished games kept (their journals, indexed with ratings in "
                f"{club_dir(self.data_dir) / DB_FILE}: hexnet stats); --no-history keeps none")

    def finished(self, journal: str | Path) -> FinishedGame | Refusal | None:
        """A table's journal was closed (in a worker thread): index its game, or without
        history delete it if its game is over. The game indexed or why not; None when no
        history is kept."""
        if self.keep:
            return self.open().index_finished(journal)  # type: ignore[union-attr]
        try:
            over = read_journal(journal).finished
        except JournalError:
            return None
        if over:
            Path(journal).unlink(missing_ok=True)
        return None

    def close(self) -> None:
        if self.club is not None:
            self.club.close()
            self.club = None


class ForgetFinished:
    """``--no-history`` now, through the host's effects (``host.add_listener``): each table's
    journal is deleted once its game is over. ``path_of`` is the recorder's
    (:meth:`host.recovery.Recorder.path_of`), asked while the journal is open — at the start,
    or at the first step of a table resumed after a restart. (Phase 2 calls
    :meth:`History.finished` where the host closes a journal instead.)"""

    def __init__(self, history: History, path_of: Callable[[int], Path | None]) -> None:
        self.history = history
        self.path_of = path_of
        self._paths: dict[int, Path] = {}

    def __call__(self, effects: list[Any]) -> None:
        for e in effects:
            if isinstance(e, TableStarted | Accepted) and e.table not in self._paths:
                path = self.path_of(e.table)
                if path is not None:
                    self._paths[e.table] = path
            elif isinstance(e, TableOver) and e.table in self._paths:
                self.history.finished(self._paths.pop(e.table))
