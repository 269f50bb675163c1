"""The club database of one host: finished games indexed from their journals, and ratings.

:meth:`Club.open_or_rebuild` is what a host calls at start: it opens ``<data dir>/club/club.db``
and indexes the journals it has not seen yet, or — when the file is missing, damaged or not a
database — moves a damaged file aside and rebuilds it from the journals alone.
:meth:`Club.index_finished` is what the host calls once a table's journal is closed.
:meth:`Club.rebuild` reads whole journal directories (several hosts' merge: a game counts once,
by its table commitment). The slow part of each — verifying journals — runs outside the
database lock, and everything here may run in a worker thread (``asyncio.to_thread``): the
methods are safe to call from any thread, one at a time per call. Long runs report
``progress(done, total)``; every journal not counted is named in ``log`` with one line saying
why.

Ratings (:mod:`host.club.ratings`) follow from the games alone, in order of their end (ties by
commitment): a game that ends after every other is rated at once, anything else (a merge, a
forget) recomputes every rating from the start, so a rebuild always gives the same ratings.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from hexnet.ratings import seeded
from host.club.forget import ForgetList
from host.club.games import FinishedGame, Refusal, read_game
from host.club.rating_rows import rate_next, read_games, recompute
from host.club.ratings import SIDE_PREFIX, Rating, Ratings, Standing
from host.club.schema import SchemaError, connect
from protocol.journalfile import JOURNAL_DIR
from protocol.paths import private_dir

CLUB_DIR = "club"
DB_FILE = "club.db"

Log = Callable[[str], None]
Progress = Callable[[int, int], None]


@dataclass
class Report:
    """What one indexing run did: games counted, copies already there, journals skipped
    (unfinished, stacked) and refused (each with its line)."""

    indexed: int = 0
    duplicates: int = 0
    skipped: int = 0
    refused: list[str] = field(default_factory=list)

    def line(self) -> str:
        """``12 games indexed, 1 duplicate, 2 skipped, 1 refused``."""
        return (f"{self.indexed} game{'s' * (self.indexed != 1)} indexed, "
                f"{self.duplicates} duplicate{'s' * (self.duplicates != 1)}, "
                f"{self.skipped} skipped, {len(self.refused)} refused")


@dataclass(frozen=True)
class Row:
    """One line of a leaderboard."""

    rank: int
    game: str
    key: str
    name: str
    games: int
    wins: int
    rating: Rating


def club_dir(data_dir: str | Path) -> Path:
    """Where a host keeps its club database: ``<data dir>/club``."""
    return Path(data_dir) / CLUB_DIR


def journal_files(folders: Iterable[str | Path]) -> list[Path]:
    """Every ``*.journal`` in ``folders`` (a data directory means its ``journals``), sorted
    per folder, folders in the order given; absolute paths (a journal is the same file however
    the data directory was spelled)."""
    found: list[Path] = []
    for folder in (Path(f).resolve() for f in folders):
        if (folder / JOURNAL_DIR).is_dir():
            folder = folder / JOURNAL_DIR
        found += sorted(folder.glob("*.journal"))
    return found


class Club:
    """An open club database (``folder/club.db``) and the forget list beside it."""

    def __init__(self, folder: Path, conn: sqlite3.Connection, log: Log) -> None:
        self.folder = folder
        self.path = folder / DB_FILE
        self._conn = conn
        self._lock = threading.Lock()
        self.log = log
        self.forgotten = ForgetList(folder)
        self.fresh = False  # made empty when opened

    # -- opening --------------------------------------------------------------------------
    @classmethod
    def open(cls, data_dir: str | Path, log: Log = lambda line: None) -> Club:
        """The club database of ``data_dir`` as it is; made empty if missing, and if it
        cannot be used (damaged, not a database, too new) set aside as
        ``club.db.damaged-<time>`` (a line in ``log``) and made empty. ``fresh`` says it
        was made now."""
        folder = private_dir(club_dir(data_dir))
        path = folder / DB_FILE
        fresh = not path.exists()
        try:
            conn = connect(path)
        except SchemaError as exc:
            aside = path.with_name(f"{DB_FILE}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
            path.replace(aside)
            for extra in ("-wal", "-shm"):
                path.with_name(DB_FILE + extra).unlink(missing_ok=True)
            log(f"club database: {exc}; moved aside to {aside.name}, rebuilding from the "
                "journals")
            conn, fresh = connect(path), True
        club = cls(folder, conn, log)
        club.fresh = fresh
        return club

    @classmethod
    def open_or_rebuild(cls, data_dir: str | Path, log: Log = lambda line: None,
                        progress: Progress | None = None) -> Club:
        """The host's start: open the database and index the journals not seen yet; rebuild
        it from ``<data dir>/journals`` when it is missing or cannot be used (see
        :meth:`open`)."""
        club = cls.open(data_dir, log)
        journals = Path(data_dir) / JOURNAL_DIR
        if club.fresh:
            report = club.rebuild([journals], progress)
            if report != Report():  # (a new host with no journals yet: nothing to say)
                log(f"club database: built from the journals: {report.line()}")
        else:
            report = club.catch_up(journals, progress)
            if report.indexed or report.refused:
                log(f"club database: {report.line()}")
        return club

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    # -- indexing -------------------------------------------------------------------------
    def index_finished(self, journal: str | Path) -> FinishedGame | Refusal:
        """Count the game of a closed journal once it verifies (the host calls this after a
        table's journal is closed); the game, or why it was not counted (logged)."""
        self.forgotten = ForgetList(self.folder)  # (hexnet stats --forget while the host runs)
        journal = Path(journal).resolve()
        found = read_game(journal, self.forgotten)
        with self._lock, self._write():
            self._seen(journal, found)
            if isinstance(found, Refusal):
                self._refused(found)
                return found
            if not self._insert(found):
                return Refusal(str(journal), "duplicate", "already counted",
                               found.commitment)
            last = self._conn.execute(
                "SELECT ended, commitment FROM games WHERE commitment != ? "
                "ORDER BY ended DESC, commitment DESC LIMIT 1", (found.commitment,)).fetchone()
            if last is None or found.order > tuple(last):
                self._rate_next(found)
            else:  # it ended before games already rated: rate everything again in order
                self._recompute()
        return found

    def catch_up(self, journals: str | Path,
                 progress: Progress | None = None) -> Report:
        """Index the journals in ``journals`` not looked at yet (or changed since: a game
        that was running then)."""
        with self._lock:
            seen = {row[0]: (row[1], row[2]) for row in self._conn.execute(
                "SELECT path, size, mtime_ns FROM journals")}
        fresh = [p for p in journal_files([journals]) if seen.get(str(p)) != _stamp(p)]
        return self._index_many(fresh, progress, replace=False)

    def rebuild(self, folders: Sequence[str | Path],
                progress: Progress | None = None) -> Report:
        """Build the database again from the journals in ``folders`` alone (several hosts'
        directories merge: a game counts once, by its table commitment)."""
        return self._index_many(journal_files(folders), progress, replace=True)

    def _index_many(self, paths: list[Path], progress: Progress | None,
                    replace: bool) -> Report:
        read: list[tuple[Path, FinishedGame | Refusal]] = []
        for done, path in enumerate(paths, 1):  # the slow part, outside the lock
            read.append((path, read_game(path, self.forgotten)))
            if progress is not None:
                progress(done, len(paths))
        report = Report()
        with self._lock, self._write():
            if replace:
                for table in ("rating_changes", "ratings", "seats", "games", "names",
                              "players", "journals"):
                    self._conn.execute(f"DELETE FROM {table}")  # noqa: S608 - fixed names
            for path, found in read:
                self._seen(path, found)
                if isinstance(found, Refusal):
                    if found.status == "refused":
                        report.refused.append(self._refused(found))
                    else:
                        report.skipped += 1
                elif self._insert(found):
                    report.indexed += 1
                else:
                    report.duplicates += 1
            if report.indexed or replace:
                self._recompute()
        return report

    def _write(self) -> _Transaction:
        return _Transaction(self._conn)

    def _seen(self, path: Path, found: FinishedGame | Refusal) -> None:
        status = "indexed" if isinstance(found, FinishedGame) else found.status
        reason = "" if isinstance(found, FinishedGame) else found.reason
        size, mtime = _stamp(path) or (0, 0)
        self._conn.execute("INSERT OR REPLACE INTO journals VALUES (?, ?, ?, ?, ?)",
                           (str(path), size, mtime, status, reason))

    def _refused(self, found: Refusal) -> str:
        line = f"journal {found.path}: not counted: {found.reason}"
        self.log(line)
        return line

    def _insert(self, game: FinishedGame) -> bool:
        """Add a game and its players; False if its commitment is counted already (a copy;
        a copy whose play differs is named in the log)."""
        same = self._conn.execute("SELECT id, journal FROM games WHERE commitment = ?",
                                  (game.commitment,)).fetchone()
        if same is not None:
            places = [(r[0], r[1]) for r in self._conn.execute(
                "SELECT place, won FROM seats WHERE game_id = ? ORDER BY seat", (same[0],))]
            if places != [(s.place, int(s.won)) for s in game.seats]:
                self.log(f"journal {game.journal}: not counted: same table commitment as "
                         f"{same[1]} but another result")
            return False
        cur = self._conn.execute(
            "INSERT INTO games (commitment, game, started, ended, seats, result, journal) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (game.commitment, game.game, game.started, game.ended, len(game.seats),
             game.result, game.journal))
        for s in game.seats:
            if s.key is not None:
                self._conn.execute(
                    "INSERT INTO players VALUES (?, ?, ?, ?, ?) ON CONFLICT(key) DO UPDATE SET "
                    "name = CASE WHEN excluded.last_seen >= last_seen THEN excluded.name "
                    "ELSE name END, first_seen = min(first_seen, excluded.first_seen), "
                    "last_seen = max(last_seen, excluded.last_seen)",
                    (s.key, s.kind, s.name, game.ended, game.ended))
                self._conn.execute(
                    "INSERT INTO names VALUES (?, ?, 1, ?) ON CONFLICT(key, name) DO UPDATE "
                    "SET games = games + 1, last_used = max(last_used, excluded.last_used)",
                    (s.key, s.name, game.ended))
            self._conn.execute(
                "INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (cur.lastrowid, s.seat, s.key, s.name, s.kind, s.place, int(s.won), s.score,
                 s.role, s.side))
        return True

    # -- ratings --------------------------------------------------------------------------
    def games(self, since: float | None = None) -> list[FinishedGame]:
        """The indexed games in rating order (ended, commitment), ``since`` a time."""
        return read_games(self._conn, since)

    def _recompute(self) -> None:
        recompute(self._conn)

    def _rate_next(self, game: FinishedGame) -> None:
        rate_next(self._conn, game)

    # -- reading --------------------------------------------------------------------------
    def standings(self, game: str | None = None,
                  since: float | None = None) -> dict[tuple[str, str], Standing]:
        """(player, game) → rating, games and wins: as kept, or with ``since`` computed
        from the games since then alone (a season's table)."""
        with self._lock:
            if since is None:
                rows = self._conn.execute("SELECT key, game, mu, sigma, games, wins "
                                          "FROM ratings").fetchall()
                table = {(r[0], r[1]): Standing(Rating(r[2], r[3]), r[4], r[5]) for r in rows}
            else:
                ratings = Ratings()
                for g in self.games(since):
                    ratings.play(g)
                table = ratings.table
        return {k: v for k, v in table.items()
                if not k[0].startswith(SIDE_PREFIX) and (game is None or k[1] == game)}

    def leaderboard(self, game: str | None = None, since: float | None = None) -> list[Row]:
        """Every rated player per game, best ordinal first (then more games, then name)."""
        table = self.standings(game, since)
        with self._lock:
            names = dict(self._conn.execute("SELECT key, name FROM players"))
        rows: list[Row] = []
        for g in sorted({k[1] for k in table}):
            ranked = sorted(((k[0], s) for k, s in table.items() if k[1] == g),
                            key=lambda ks: (-ks[1].rating.ordinal, -ks[1].games,
                                            names.get(ks[0], ""), ks[0]))
            rows += [Row(i, g, key, names.get(key, ""), s.games, s.wins, s.rating)
                     for i, (key, s) in enumerate(ranked, 1)]
        return rows

    def rating(self, key: str, game: str) -> Rating | None:
        """``key``'s rating in ``game`` (the lobby's seat line), None if never rated there."""
        with self._lock:
            row = self._conn.execute("SELECT mu, sigma FROM ratings WHERE key = ? AND game = ?",
                                     (key, game)).fetchone()
        return Rating(row[0], row[1]) if row else None

    def changes(self, commitment: str) -> dict[str, tuple[Rating, Rating]]:
        """The rating change of everyone at the game with this table commitment: key →
        (before, after) — what a tournament's results show per entrant. Empty if the game is
        not indexed."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT c.key, c.mu_before, c.sigma_before, c.mu, c.sigma FROM rating_changes c "
                "JOIN games g ON g.id = c.game_id WHERE g.commitment = ? ORDER BY c.key",
                (commitment,)).fetchall()
        return {r[0]: (Rating(r[1], r[2]), Rating(r[3], r[4])) for r in rows
                if not r[0].startswith(SIDE_PREFIX)}

    def seeding(self, keys: Sequence[str], game: str) -> list[str]:
        """``keys`` best first by their rating in ``game`` (ordinal; unrated players as
        newcomers), ties kept in the order given — a Swiss event's first-round seeding."""
        table = self.standings(game)
        return seeded(keys, {k: table[(k, game)].rating for k in keys if (k, game) in table})

    def resolve(self, prefix: str) -> list[str]:
        """The player keys that start with ``prefix`` (a fingerprint's first characters)."""
        with self._lock:
            return [r[0] for r in self._conn.execute(
                "SELECT key FROM players WHERE substr(key, 1, ?) = ? ORDER BY key",
                (len(prefix), prefix))]

    def query(self, sql: str, args: Sequence[object] = ()) -> list[tuple]:
        """Rows of a read-only query (profiles, tests)."""
        with self._lock:
            return self._conn.execute(sql, tuple(args)).fetchall()

    # -- forgetting -----------------------------------------------------------------------
    def forget(self, key: str) -> int:
        """Remove player ``key``: names and ratings go, their seats stay anonymous, the others'
        ratings are computed again without them; a rebuild does the same (the forget list).
        The number of games anonymised."""
        self.forgotten.add(key)
        with self._lock, self._write():
            games = self._conn.execute("UPDATE seats SET key = NULL, name = '', "
                                       "kind = 'anonymous' WHERE key = ?", (key,)).rowcount
            for table in ("names", "players", "ratings", "rating_changes"):
                self._conn.execute(f"DELETE FROM {table} WHERE key = ?", (key,))  # noqa: S608
            self._recompute()
        return games


class _Transaction:
    """``with`` one write transaction: committed on success, rolled back on an error."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> None:
        self.conn.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, *_: object) -> None:
        self.conn.execute("COMMIT" if kind is None else "ROLLBACK")


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_size, st.st_mtime_ns
