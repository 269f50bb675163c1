"""The seeded generator every engine draws from.

Its whole state is one unsigned 64-bit integer kept inside the game state (``state["rng"]``), so
``dump``/``load`` carry it and a replay from the same seed draws the same numbers on every Python
version (splitmix64; unbiased ranges by rejection).
"""

from __future__ import annotations

import hashlib
from collections.abc import MutableSequence, Sequence
from typing import Any, TypeVar

T = TypeVar("T")

MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def seed_state(seed: int | str | bytes) -> int:
    """The generator state for a seed of any size or type (hashed, so small seeds spread well)."""
    if isinstance(seed, int):
        raw = seed.to_bytes((max(seed.bit_length(), 1) + 8) // 8, "big", signed=True)
    elif isinstance(seed, str):
        raw = seed.encode()
    else:
        raw = bytes(seed)
    return int.from_bytes(hashlib.sha256(raw).digest()[:8], "big")


def next64(state: dict[str, Any]) -> int:
    """Advance ``state["rng"]`` and return the next 64-bit output."""
    s = (state["rng"] + _GOLDEN) & MASK64
    state["rng"] = s
    z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def below(state: dict[str, Any], n: int) -> int:
    """A uniform integer in ``[0, n)``."""
    if n <= 0:
        raise ValueError("below() needs n > 0")
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        x = next64(state)
        if x < limit:
            return x % n


def roll(state: dict[str, Any], sides: int = 6) -> int:
    """A die roll, 1..sides."""
    return below(state, sides) + 1


def choice(state: dict[str, Any], items: Sequence[T]) -> T:
    """One item, uniformly."""
    return items[below(state, len(items))]


def shuffle(state: dict[str, Any], items: MutableSequence[Any]) -> None:
    """Fisher–Yates in place."""
    for i in range(len(items) - 1, 0, -1):
        j = below(state, i + 1)
        items[i], items[j] = items[j], items[i]


def sample(state: dict[str, Any], items: Sequence[T], k: int) -> list[T]:
    """``k`` distinct items in random order."""
    pool = list(items)
    out = []
    for _ in range(k):
        out.append(pool.pop(below(state, len(pool))))
    return out
