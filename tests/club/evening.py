"""A club evening as journals: real games played in-process by bots, written by the host's own
journal writer with the seats a host records (humans by identity key, bots by policy), each
with a fixed start and end so pictures and orders are the same every run."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from host.club import Club
from host.club.games import fingerprint
from host.club.profile import profile
from tests.replays.games import play, write_journal

EVENING = 1_767_300_000.0  # 2026-01-01 20:40 UTC: the first game's end
PLAYERS = ("Ada", "Bert", "Cili", "Dora", "Emil", "Fero", "Gizi", "Hana")


def identity(name: str) -> bytes:
    """A fixed 32-byte identity key for ``name`` (the host never checks it again)."""
    return hashlib.sha256(b"club-test " + name.encode()).digest()


def seat(name: str) -> dict[str, Any]:
    """A human seat (``bot:POLICY`` for a host bot) as the host records it."""
    if name.startswith("bot:"):
        return {"kind": "bot", "name": name[4:], "identity": None, "policy": name[4:]}
    return {"kind": "human", "name": name, "identity": identity(name), "policy": None}


def journal(folder: Path, number: int, game: str, who: list[str], seed: int,
            options: dict | None = None, ended: float | None = None) -> Path:
    """Game ``number`` of the evening: ``who`` (names, or ``bot:POLICY``) play ``game`` from
    ``seed``; its journal in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    names = [w[4:] if w.startswith("bot:") else w for w in who]
    record = play(game, names, seed, options=options)
    record.started = EVENING + 600 * number - 500
    path = folder / f"{number:03d}-{game}.journal"
    return write_journal(path, record, [seat(w) for w in who],
                         ended=EVENING + 600 * number if ended is None else ended)


# (game, players, seed): a dozen games of the three titles
DOZEN = [
    ("hexenhammer", ["Ada", "Bert", "Cili"], 1),
    ("hranice", ["Ada", "Dora", "bot:heuristic"], 2),
    ("fang", ["Ada", "Bert", "Cili", "Dora", "Emil", "bot:heuristic"], 3),
    ("hexenhammer", ["Bert", "Cili", "Dora", "bot:heuristic"], 4),
    ("hranice", ["Ada", "Bert"], 5),
    ("fang", ["Ada", "Bert", "Cili", "Dora", "Emil", "Fero", "Gizi"], 6),
    ("hexenhammer", ["Ada", "Cili", "Emil"], 7),
    ("hranice", ["Cili", "Dora", "Emil", "bot:random"], 8),
    ("fang", ["Ada", "Bert", "Cili", "Dora", "Emil", "Fero", "Gizi", "Hana"], 9),
    ("hexenhammer", ["Ada", "Bert", "Dora", "Fero"], 10),
    ("hranice", ["Ada", "Cili"], 11),
    ("fang", ["Ada", "Bert", "Cili", "Dora", "bot:heuristic", "bot:heuristic"], 12),
]


def dozen(folder: Path) -> list[Path]:
    """The evening's twelve journals in ``folder``."""
    return [journal(folder, i, game, list(who), seed)
            for i, (game, who, seed) in enumerate(DOZEN, 1)]


def evening_profile(folder: Path, name: str = "Ada") -> dict[str, Any]:
    """``name``'s profile after the evening's dozen games, indexed in the data dir ``folder``."""
    dozen(folder / "journals")
    club = Club.open_or_rebuild(folder)
    try:
        found = profile(club, fingerprint(identity(name)))
    finally:
        club.close()
    assert found is not None
    return found
