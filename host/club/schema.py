"""The club database's shape: versioned migrations, applied in order on open.

The database is an index (``<data dir>/club/club.db``, SQLite in WAL mode): everything in it
can be rebuilt from the journals (:mod:`host.club.index`). Its version is ``PRAGMA
user_version``; :data:`MIGRATIONS` are the steps from one version to the next, each run in one
transaction, so a database of any older version is brought up to date on open and a newer one
(written by a later hexnet) is refused rather than misread.

Version 1: players (a key — an identity fingerprint, or ``bot:<policy>`` — with the last name
used), the names each used, finished games (by table commitment), each game's seats (place, win,
Fang role and side), current ratings per player and game, and each game's rating changes.
Version 2: the journal files already looked at (so a host's start only reads new ones), and an
index on games by end time (the order ratings are computed in).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

_V1 = """
CREATE TABLE players (
    key TEXT PRIMARY KEY,               -- sha256 of the identity key (hex), or bot:<policy>
    kind TEXT NOT NULL,                 -- human | bot
    name TEXT NOT NULL,                 -- the name last used
    first_seen REAL NOT NULL,
    last_seen REAL NOT NULL
);
CREATE TABLE names (
    key TEXT NOT NULL REFERENCES players(key) ON DELETE CASCADE,
    name TEXT NOT NULL,
    games INTEGER NOT NULL,
    last_used REAL NOT NULL,
    PRIMARY KEY (key, name)
);
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    commitment TEXT NOT NULL UNIQUE,    -- the table's commitment: one game, however many copies
    game TEXT NOT NULL,
    started REAL NOT NULL,
    ended REAL NOT NULL,
    seats INTEGER NOT NULL,
    result TEXT,                        -- Fang: village | witches | fool
    journal TEXT NOT NULL               -- where the journal was when indexed
);
CREATE TABLE seats (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    key TEXT,                           -- NULL: anonymous (unidentified, or forgotten)
    name TEXT NOT NULL,
    kind TEXT NOT NULL,                 -- human | bot | anonymous
    place INTEGER NOT NULL,             -- 1 = first, ties share a place
    won INTEGER NOT NULL,
    score REAL,
    role TEXT,                          -- Fang: the role dealt
    side TEXT,                          -- Fang: village | witches | fool
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX seats_by_key ON seats(key);
CREATE TABLE ratings (
    key TEXT NOT NULL,                  -- a player, or side:<side> (Fang's side bias)
    game TEXT NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    games INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    PRIMARY KEY (key, game)
);
CREATE TABLE rating_changes (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    mu_before REAL NOT NULL,
    sigma_before REAL NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    PRIMARY KEY (game_id, key)
);
CREATE INDEX changes_by_key ON rating_changes(key);
"""

_V2 = """
CREATE TABLE journals (
    path TEXT PRIMARY KEY,
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    status TEXT NOT NULL,               -- indexed | duplicate | refused | skipped
    reason TEXT NOT NULL DEFAULT ''
);
CREATE INDEX games_in_order ON games(ended, commitment);
"""

MIGRATIONS: tuple[str, ...] = (_V1, _V2)  # MIGRATIONS[i] takes version i to version i + 1
VERSION = len(MIGRATIONS)


class SchemaError(Exception):
    """A database this hexnet cannot use: damaged, not a database, or of a newer version."""


def connect(path: Path, upto: int = VERSION) -> sqlite3.Connection:
    """The database at ``path`` (made if missing), migrated to version ``upto`` (tests stop
    early to make an old database), in WAL mode. SchemaError if it cannot be used."""
    try:
        conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    except sqlite3.Error as exc:
        raise SchemaError(f"cannot open {path}: {exc}") from None
    try:
        conn.execute("PRAGMA foreign_keys = ON")
        if conn.execute("PRAGMA journal_mode = WAL").fetchone()[0] != "wal":
            raise SchemaError(f"{path}: WAL mode is not available")
        conn.execute("PRAGMA synchronous = NORMAL")  # an index: a power cut costs a rebuild
        if conn.execute("PRAGMA quick_check").fetchone()[0] != "ok":
            raise SchemaError(f"{path} is damaged (quick_check failed)")
        migrate(conn, upto)
    except (sqlite3.Error, SchemaError) as exc:
        conn.close()
        if isinstance(exc, SchemaError):
            raise
        raise SchemaError(f"{path} is not a usable database: {exc}") from None
    return conn


def version(conn: sqlite3.Connection) -> int:
    """The database's schema version (0: empty)."""
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def migrate(conn: sqlite3.Connection, upto: int = VERSION) -> int:
    """Apply the missing migrations up to ``upto``, each in its own transaction; the version
    reached. SchemaError for a database newer than this hexnet knows."""
    have = version(conn)
    if have > VERSION:
        raise SchemaError(f"the club database is version {have}; this hexnet knows up to "
                          f"{VERSION} (run the newer hexnet, or hexnet db rebuild)")
    for step in range(have, upto):
        conn.execute("BEGIN IMMEDIATE")
        try:
            for statement in MIGRATIONS[step].split(";"):  # (no ; inside a statement)
                if statement.strip():
                    conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {step + 1}")
            conn.execute("COMMIT")
        except sqlite3.Error:
            conn.execute("ROLLBACK")
            raise
    return version(conn)
