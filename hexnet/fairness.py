"""Verifiable randomness: commit to the seed at the start, reveal it at the end, replay to check.

The host draws a seed and a salt, publishes ``commitment(seed, salt)`` to every seat when the
table starts, and reveals both with the full action list when the game ends. Anyone can then
replay the game from the revealed seed and confirm that every shuffle and die roll — every public
event the seats saw — came out of that seed.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from hexnet.engine import Game, IllegalAction, public_form, visible

SALT_BYTES = 16


def new_seed() -> tuple[int, bytes]:
    """A fresh 64-bit seed and salt from the operating system's generator."""
    return secrets.randbits(64), secrets.token_bytes(SALT_BYTES)


def commitment(seed: int, salt: bytes) -> str:
    """``sha256(seed‖salt)`` as hex; the seed as 8 bytes big-endian."""
    return hashlib.sha256(seed.to_bytes(8, "big") + salt).hexdigest()


def events_digest(events: Iterable[dict[str, Any]]) -> str:
    """A short digest of the public events of one step (what every seat saw happen)."""
    h = hashlib.sha256()
    for event in events:
        if visible(event, None):
            h.update(repr(sorted(public_form(event).items())).encode())
    return h.hexdigest()[:16]


@dataclass
class Verdict:
    """What a verification found: ``ok`` and the sentences that explain it."""

    ok: bool
    lines: list[str] = field(default_factory=list)


def verify_game(game: Game, players: Sequence[str], options: dict[str, Any], seed: int,
                salt: bytes, claimed_commitment: str,
                steps: Sequence[tuple[int | None, dict[str, Any], str | None]],
                claimed_outcome: dict[str, Any] | None = None) -> Verdict:
    """Replay ``steps`` (seat, action, public-events digest or None) from the revealed seed.

    Checks the commitment, that every step is accepted, that each step's public events match the
    recorded digest (so every shuffle and roll the seats saw came from this seed), and that the
    replay ends with the claimed outcome.
    """
    lines: list[str] = []
    if not hmac.compare_digest(commitment(seed, salt), claimed_commitment):
        return Verdict(False, ["The revealed seed and salt do not match the commitment."])
    lines.append(f"Commitment {claimed_commitment[:16]}… matches the revealed seed.")
    state = game.setup(list(players), seed, options)
    for i, (seat, action, digest) in enumerate(steps, 1):
        try:
            events = game.apply(state, seat, action)
        except IllegalAction as exc:
            return Verdict(False, lines + [f"Step {i} is not legal on replay: {exc.reason}"])
        if digest is not None and events_digest(events) != digest:
            return Verdict(False, lines + [
                f"Step {i}: the replayed shuffle/roll differs from what the table saw."])
    lines.append(f"All {len(steps)} steps replay with identical public events.")
    if claimed_outcome is not None:
        if game.outcome(state) != claimed_outcome:
            return Verdict(False, lines + ["The replay ends with a different result."])
        lines.append("The replay ends with the same result.")
    return Verdict(True, lines)
