"""The host's side of verifiable randomness: the ``reveal`` messages at a game's end.

Every ``view`` of a started table carries ``commitment`` (to seed, salt and options, see
:mod:`hexnet.fairness`). When the game is over each seated human receives ``reveal`` messages:
the seed, the salt, the game's options and every step (seat, action, digest of its public
events), split into parts so that no frame passes the 64 KiB cap. The client replays them
(:mod:`client.fairplay`) and checks them against the commitment it saw at the start and the
outcome it saw at the end.
"""

from __future__ import annotations

from typing import Any

import msgpack

from host.table import Table

PART_BYTES = 40_000  # steps per reveal part are cut at about this many packed bytes
PART_STEPS = 1000


def reveal_parts(steps: list[dict[str, Any]], head: dict[str, Any]) -> list[dict[str, Any]]:
    """``steps`` (each ``{seat, action, digest}``) cut into parts below the frame cap, each
    part ``head`` (the message's other fields) with its ``part``, ``parts``, ``first`` and
    ``steps`` — at least one part, even with no steps. A finished table's ``reveal`` and a
    finished game's ``replay`` (:mod:`host.club.desk`) are cut alike."""
    chunks: list[list[dict[str, Any]]] = [[]]
    size = 0
    for step in steps:
        step_size = len(msgpack.packb(step, use_bin_type=True))
        if chunks[-1] and (size + step_size > PART_BYTES or len(chunks[-1]) >= PART_STEPS):
            chunks.append([])
            size = 0
        chunks[-1].append(step)
        size += step_size
    first = 0
    out = []
    for part, chunk in enumerate(chunks):
        out.append({**head, "part": part, "parts": len(chunks), "first": first, "steps": chunk})
        first += len(chunk)
    return out


def reveal_messages(table: Table) -> list[dict[str, Any]]:
    """The ``reveal`` messages of a finished ``table`` (at least one, even with no steps)."""
    steps = [{"seat": seat, "action": action, "digest": digest}
             for (seat, action), digest in zip(table.history, table.digests, strict=True)]
    return reveal_parts(steps, {
        "type": "reveal", "table": table.id, "game": table.game_name,
        "players": [s.name for s in table.seats], "options": dict(table.options),
        "seed": table.seed, "salt": table.salt, "commitment": table.commitment})
