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


def reveal_messages(table: Table) -> list[dict[str, Any]]:
    """The ``reveal`` messages of a finished ``table`` (at least one, even with no steps)."""
    chunks: list[list[dict[str, Any]]] = [[]]
    size = 0
    for (seat, action), digest in zip(table.history, table.digests, strict=True):
        step = {"seat": seat, "action": action, "digest": digest}
        step_size = len(msgpack.packb(step, use_bin_type=True))
        if chunks[-1] and (size + step_size > PART_BYTES or len(chunks[-1]) >= PART_STEPS):
            chunks.append([])
            size = 0
        chunks[-1].append(step)
        size += step_size
    first = 0
    out = []
    for part, steps in enumerate(chunks):
        out.append({"type": "reveal", "table": table.id, "game": table.game_name,
                    "players": [s.name for s in table.seats], "options": dict(table.options),
                    "seed": table.seed, "salt": table.salt, "commitment": table.commitment,
                    "part": part, "parts": len(chunks), "first": first, "steps": steps})
        first += len(steps)
    return out
