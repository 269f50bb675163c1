"""A host's history (issue 28): what it keeps of finished games, and the club database it
indexes them in — the part of a running :class:`host.server.Host` that remembers.

Three settings (``Host(history=…)``):

* ``"club"`` (``hexnet host``'s default): every finished game's journal stays in
  ``<data dir>/journals`` and is indexed in the club database (:class:`~host.club.store.Club`)
  with the ratings it gives;
* ``"journals"``: journals are kept (``hexnet replay --list``), nothing is indexed (``hexnet
  play``: its player is a throwaway identity, rating it would be noise);
* ``"none"`` (``hexnet host --no-history``): no club database is opened or written, and a
  finished game's journal is deleted once closed (it was there for crash recovery; the players
  got the game's reveal on their results screens). Journals of games still running are never
  touched.

Nothing here runs SQLite or reads a journal on the event loop: :meth:`History.start` opens the
database (caught up with the journals, or rebuilt from them: progress in the log) in a worker
thread, and :meth:`History.journal_closed` — the host's :class:`~host.recovery.Recorder` calls
it once a finished game's journal is closed with its end record synced — indexes the game in
one. After each game is indexed the :class:`~host.club.board.Board` (the ratings the lobby's
seats and a Swiss seeding read) takes that title's ratings again, the tables where a re-rated
player sits are marked for the lobby, and ``indexed`` listeners (a tournament's director) hear
the game and its rating changes. A journal that does not verify is not counted and named in the
log with the reason, live as in a rebuild.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hexnet.ratings import Rating
from host.club.board import Board
from host.club.games import FinishedGame, Refusal
from host.club.store import DB_FILE, Club, Log, club_dir
from protocol.journalfile import JournalError, read_journal

if TYPE_CHECKING:
    from host.lobby import Lobby

MODES = ("club", "journals", "none")
PROGRESS_EVERY = 2.0  # seconds between two progress lines of a long rebuild
Changes = dict[str, tuple[Rating, Rating]]  # player key → rating before, after


class History:
    """A host's history setting and, with ``"club"``, its open club database."""

    def __init__(self, mode: str, data_dir: str | Path, log: Log = lambda line: None) -> None:
        if mode not in MODES:
            raise ValueError(f"history is one of {', '.join(MODES)}, not {mode!r}")
        self.mode = mode
        self.data_dir = Path(data_dir)
        self.log = log
        self.club: Club | None = None
        self.board = Board()
        self.indexed: list[Callable[[FinishedGame, Changes], None]] = []
        self._lobby: Lobby | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._opening: asyncio.Task[None] | None = None
        self._pending: set[asyncio.Task[Any]] = set()

    @property
    def keep(self) -> bool:
        """Whether finished games' journals are kept."""
        return self.mode != "none"

    @property
    def ready(self) -> bool:
        """Whether the club database is open (profiles and replays can be served)."""
        return self.club is not None

    def line(self) -> str:
        """What the host says about it at start (its log, its screen)."""
        if self.mode == "none":
            return ("history: none kept (--no-history): no ratings, and each finished game's "
                    "journal is deleted")
        if self.mode == "journals":
            return "history: finished games' journals kept, not rated"
        return (f"history: finished games kept (their journals, indexed with ratings in "
                f"{club_dir(self.data_dir) / DB_FILE}: hexnet stats); a player is forgotten "
                "with hexnet stats --forget KEY; --no-history keeps none")

    # -- wiring and life cycle (on the loop) ----------------------------------------------
    def attach(self, lobby: Lobby) -> None:
        """The lobby's seats carry their players' ratings; re-rated players' tables are
        marked."""
        self._lobby = lobby
        if self.mode == "club":
            lobby.broadcast.rated = self.board.seats

    def start(self) -> None:
        """(The host started, after recovering its tables) Open the club database in a worker
        thread: caught up with the journals, or rebuilt from them."""
        self._loop = asyncio.get_running_loop()
        if self.mode == "club" and self.club is None and self._opening is None:
            self._opening = self._loop.create_task(self._open())

    async def _open(self) -> None:
        started = time.monotonic()
        try:
            club = await asyncio.to_thread(Club.open_or_rebuild, self.data_dir, self._say,
                                           self._progress())
            table = await asyncio.to_thread(club.standings)
        except Exception as exc:  # noqa: BLE001 - a host without its index still hosts
            self.log(f"club database: cannot be opened ({type(exc).__name__}: {exc}); no "
                     "ratings until the host is restarted")
            return
        self.club = club
        self._rerated(self.board.replace(table), None)
        players, games = len({k for k, _ in table}), len({g for _, g in table})
        self.log(f"club database: {club.path} open, {players} rated "
                 f"player{'s' * (players != 1)} in {games} game{'s' * (games != 1)} "
                 f"({time.monotonic() - started:.1f} s)")

    def _progress(self) -> Callable[[int, int], None]:
        """A rebuild's progress (called in the worker thread): a log line at most every
        :data:`PROGRESS_EVERY` seconds, and at the end of a long one."""
        last = [time.monotonic()]

        def step(done: int, total: int) -> None:
            now = time.monotonic()
            if now - last[0] >= PROGRESS_EVERY:
                last[0] = now
                self._say(f"club database: reading journals, {done} of {total}")
        return step

    def _say(self, line: str) -> None:
        """A log line from a worker thread, written on the loop's thread."""
        if self._loop is None:
            self.log(line)
            return
        with contextlib.suppress(RuntimeError):  # (the loop is closed: the host stopped)
            self._loop.call_soon_threadsafe(self.log, line)

    async def stop(self) -> None:
        """(The host stops, its journals closed) Finish the indexing under way (bounded:
        10 s; what is left is caught up at the next start) and close the database."""
        waiting = [t for t in (self._opening, *self._pending) if t is not None]
        if waiting:
            await asyncio.wait(waiting, timeout=10.0)
        self._opening = None
        if self.club is not None:
            club, self.club = self.club, None
            await asyncio.to_thread(club.close)

    # -- finished games ---------------------------------------------------------------------
    def journal_closed(self, path: Path) -> None:
        """(On the loop) A finished game's journal is closed, its end record durable: index
        the game (``"club"``), or delete the journal (``"none"``), in a worker thread."""
        if self.mode == "journals":
            return
        task = asyncio.get_running_loop().create_task(self._finished(path))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _finished(self, path: Path) -> None:
        if self.mode == "none":
            await asyncio.to_thread(_delete_if_over, path)
            return
        if self._opening is not None:
            await asyncio.wait([self._opening])
        club = self.club
        if club is None:
            return
        try:
            found, table, changes = await asyncio.to_thread(_index, club, path)
        except Exception as exc:  # noqa: BLE001 - one game's trouble must not stop the host
            self.log(f"journal {path}: not counted: {type(exc).__name__}: {exc}")
            return
        if not isinstance(found, FinishedGame):
            return
        self._rerated(self.board.replace(table, found.game), found.game)
        for listener in self.indexed:
            listener(found, changes)

    def _rerated(self, keys: set[str], game: str | None) -> None:
        """The lobby entries of the tables (of ``game``) where a player in ``keys`` sits are
        made again."""
        lobby = self._lobby
        if lobby is None or not keys:
            return
        lobby.refresh_entries([t for t in lobby.tables.values()
                               if (game is None or t.game_name == game)
                               and self.board.keys_at(t) & keys])

    async def in_thread(self, work: Callable[[Club], Any]) -> Any:
        """``work(club)`` in a worker thread (profiles, replays); LookupError if the club
        database is not open."""
        club = self.club
        if club is None:
            raise LookupError("the club database is not open")
        return await asyncio.to_thread(work, club)


def _index(club: Club, path: Path) -> tuple[FinishedGame | Refusal, dict[Any, Any], Changes]:
    """(In a worker thread) Index one journal; the game (or why not), its title's ratings
    now and its players' rating changes."""
    found = club.index_finished(path)
    if not isinstance(found, FinishedGame):
        return found, {}, {}
    return found, club.standings(found.game), club.changes(found.commitment)


def _delete_if_over(path: Path) -> None:
    """(``--no-history``, in a worker thread) Delete a journal whose game is over."""
    try:
        over = read_journal(path).finished
    except JournalError:
        return
    if over:
        Path(path).unlink(missing_ok=True)
