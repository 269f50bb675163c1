"""Verifiable randomness: commit to the seed at the start, reveal it at the end, replay to check.

The host draws a 256-bit seed and a salt, publishes ``commitment(seed, salt, options)`` to every
seat when the table starts, and reveals them with the full action list when the game ends. Anyone
can then replay the game from the revealed seed and confirm that every shuffle and die roll —
every public event the seats saw — came out of that seed (the generator: :mod:`hexnet.rng`), and
that the game was played with the options the table agreed to: they are part of the commitment,
so a host cannot reveal other options than the ones the game ran with.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgpack

from hexnet import rng
from hexnet.engine import Game, IllegalAction, public_form, visible
from hexnet.options import describe, public_options, stacked

SALT_BYTES = 16
_LABEL = b"hexnet-commitment " + rng.ALGORITHM.encode() + b"\0"


def new_seed() -> tuple[bytes, bytes]:
    """A fresh 256-bit seed and a salt from the operating system's generator."""
    return secrets.token_bytes(rng.SEED_BYTES), secrets.token_bytes(SALT_BYTES)


def canonical_options(options: Mapping[str, Any] | None) -> bytes:
    """The options as msgpack with every map's keys sorted (one byte string per meaning)."""
    def norm(v: Any) -> Any:
        if isinstance(v, Mapping):
            return {str(k): norm(v[k]) for k in sorted(v, key=str)}
        if isinstance(v, (list, tuple)):
            return [norm(x) for x in v]
        if isinstance(v, float) and not math.isfinite(v):
            raise ValueError("options must be finite numbers")
        return v
    return msgpack.packb(norm(dict(options or {})), use_bin_type=True)


def commitment(seed: int | bytes, salt: bytes, options: Mapping[str, Any] | None = None) -> str:
    """``sha256(label‖seed‖salt‖options)`` as hex: the 32-byte seed (:func:`hexnet.rng.seed_bytes`),
    the salt, and the table's options in canonical form, so the commitment binds them all."""
    data = _LABEL + rng.seed_bytes(seed) + salt + canonical_options(options)
    return hashlib.sha256(data).hexdigest()


def events_digest(events: Iterable[dict[str, Any]]) -> str:
    """A short digest of the public events of one step (what every seat saw happen)."""
    h = hashlib.sha256()
    for event in events:
        if visible(event, None):
            h.update(repr(sorted(public_form(event).items())).encode())
    return h.hexdigest()[:16]


@dataclass
class Verdict:
    """What a verification found: ``ok`` and the sentences that explain it (English, for logs
    and ``hexnet verify``); ``notes`` are the same findings as data — one ``(key, arguments)``
    per line — which a client words in its reader's language (:mod:`client.fairplay`)."""

    ok: bool
    lines: list[str] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)  # the public options agreed (if ok)
    stacked: bool = False  # the host's own code stacked the position (a tutorial, a test)
    notes: list[tuple[str, dict[str, Any]]] = field(default_factory=list)


class _Findings:
    """The verdict's lines in English and as data, side by side."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.notes: list[tuple[str, dict[str, Any]]] = []

    def add(self, line: str, key: str, **args: Any) -> _Findings:
        self.lines.append(line)
        self.notes.append((key, args))
        return self

    def verdict(self, ok: bool, **more: Any) -> Verdict:
        return Verdict(ok, list(self.lines), notes=list(self.notes), **more)


def verify_game(game: Game, players: Sequence[str], options: dict[str, Any], seed: int | bytes,
                salt: bytes, claimed_commitment: str,
                steps: Sequence[tuple[int | None, dict[str, Any], str | None]],
                claimed_outcome: dict[str, Any] | None = None) -> Verdict:
    """Replay ``steps`` (seat, action, public-events digest or None) from the revealed seed.

    Checks the commitment, that every step is accepted, that each step's public events match the
    recorded digest (so every shuffle and roll the seats saw came from this seed), and that the
    replay ends with the claimed outcome.
    """
    found = _Findings()
    try:
        committed = commitment(seed, salt, options)
    except (TypeError, ValueError) as exc:
        return found.add(f"The revealed seed or options cannot be read: {exc}", "unreadable",
                         error=str(exc)).verdict(False)
    if not hmac.compare_digest(committed, claimed_commitment):
        return found.add("The revealed seed, salt and options do not match the commitment.",
                         "commitment_differs").verdict(False)
    short = claimed_commitment[:16]
    found.add(f"Commitment {short}… matches the revealed seed and options.", "commitment_ok",
              short=short)
    state = game.setup(list(players), seed, options)
    for i, (seat, action, digest) in enumerate(steps, 1):
        try:
            events = game.apply(state, seat, action)
        except IllegalAction as exc:
            return found.add(f"Step {i} is not legal on replay: {exc.reason}", "step_refused",
                             step=i, game=exc.game or game.name,
                             reason=exc.as_dict()).verdict(False)
        if digest is not None and events_digest(events) != digest:
            return found.add(f"Step {i}: the replayed shuffle/roll differs from what the table "
                             "saw.", "step_differs", step=i).verdict(False)
    found.add(f"All {len(steps)} steps replay with identical public events.", "steps_ok",
              count=len(steps))
    if claimed_outcome is not None:
        if game.outcome(state) != claimed_outcome:
            return found.add("The replay ends with a different result.",
                             "result_differs").verdict(False)
        found.add("The replay ends with the same result.", "result_same")
    is_stacked, public = stacked(game, options), public_options(game, options)
    found.add(f"Agreed options: {describe(public)}"
              + ("; the position was stacked by the host, not shuffled." if is_stacked else "."),
              "agreed", options=public, stacked=is_stacked)
    return found.verdict(True, options=public, stacked=is_stacked)
