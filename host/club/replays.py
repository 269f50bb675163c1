"""A finished game's replay over the network (issue 28): what ``replay {commitment}`` gets.

A profile's recent games are named by their table commitment; asked for one, the host reads
that game's journal (in a worker thread, :mod:`host.club.desk`) and sends what the players got
at its end anyway — the ``reveal``: seed, salt, options, every step with its public-events
digest, cut into parts like the reveal (:func:`host.fairplay.reveal_parts`), plus the outcome
the journal ends with. Only games the club counted (finished, verified, not stacked) are
replayed, and a table that did not allow watching only to those who sat at it. The client
replays and checks it (:mod:`client.club`) against the commitment it asked for.
"""

from __future__ import annotations

import hashlib
from typing import Any

from hexnet.rng import seed_bytes
from host.club.store import Club
from host.fairplay import reveal_parts
from protocol.journalfile import JournalError, read_journal

Refused = tuple[str, str]  # (error code, sentence)
NO_REPLAY = ("no_replay", "The host has no finished game with that commitment to replay.")


def replay_messages(club: Club, commitment: str, asker: str) -> list[dict[str, Any]] | Refused:
    """The ``replay`` parts of the counted game with ``commitment`` for the player with key
    ``asker``, or why not."""
    rows = club.query("SELECT journal FROM games WHERE commitment = ?", [commitment])
    if not rows:
        return NO_REPLAY
    try:
        contents = read_journal(rows[0][0])
    except JournalError:
        return ("no_replay", "The host no longer has that game's journal.")
    head = contents.header
    steps = [{"seat": s.get("seat"), "action": s.get("action"), "digest": s.get("digest")}
             for s in contents.steps]
    if (not contents.finished or head.get("commitment") != commitment
            or any(not isinstance(s["digest"], str) for s in steps)):
        return NO_REPLAY
    if (contents.watch or {}).get("allowed") is False and asker not in _players(contents):
        return ("not_public", "That table could not be watched; only its players may replay "
                              "it.")
    return reveal_parts(steps, {
        "type": "replay", "commitment": commitment, "game": str(head["game"]),
        "players": [str(p) for p in head["players"]], "options": dict(head["options"]),
        "seed": seed_bytes(head["seed"]), "salt": bytes(head["salt"]),
        "outcome": dict((contents.end or {}).get("outcome") or {})})


def _players(contents: Any) -> set[str]:
    """The keys of everyone who held a seat of the game (at its start or later)."""
    found = set()
    for seats in (contents.header.get("seats") or [], contents.seats or []):
        for seat in seats:
            for field in ("identity", "reserved"):
                value = seat.get(field) if isinstance(seat, dict) else None
                if isinstance(value, bytes):
                    found.add(hashlib.sha256(value).hexdigest())
    return found
