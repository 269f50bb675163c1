"""The seeded generator every engine draws from: ChaCha20 keyed with a 256-bit seed.

A game's randomness is the ChaCha20 keystream (RFC 8439: 20 rounds, nonce zero, block counter
from 0) under the table's 32-byte seed, read front to back: every 64-bit draw is the next 8
bytes, big-endian. Ranges are unbiased (rejection sampling). Knowing every draw so far does not
help to predict the next one without the seed, and the seed is 256 bits, so nobody — not the
host, not a player watching every roll — can steer or foresee a deal; the host commits to the
seed before the deal and reveals it at the end (:mod:`hexnet.fairness`).

The generator's whole state lives inside the game state as ``state["rng"] = {"key": 32 bytes,
"at": byte offset}``: plain msgpack, so ``dump``/``load`` carry it and a replay from the same seed
draws the same numbers on every machine. For speed a block of keystream (:data:`BUFFER_BYTES`) is
made at a time and kept in a small process-wide cache keyed by seed and position; the cache
holds nothing the state does not determine.

Seeds: 32 bytes are used as they are; an int ``0 <= n < 2**256`` is the same seed as its 32
big-endian bytes (tests write small ints); anything else (other bytes, text, negative ints) is
hashed to 32 bytes first. :data:`ALGORITHM` names this construction; journals record it, and the
known-answer test in ``tests/hexnet/test_rng.py`` pins its first outputs, so a change cannot
silently stop old journals from verifying.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import MutableSequence, Sequence
from typing import Any, TypeVar

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms

T = TypeVar("T")

ALGORITHM = "chacha20-v1"
SEED_BYTES = 32
BUFFER_BYTES = 512  # keystream made per cipher call (a power of two, >= the 64-byte block;
# a search playout from a sampled world draws a few dozen numbers under a fresh key)
CACHE_BUFFERS = 256  # keystream buffers kept (oldest made dropped first)
_BLOCK = 64
_TWO64 = 1 << 64
_BUFFER_SHIFT = BUFFER_BYTES.bit_length() - 1
_BUFFER_MASK = BUFFER_BYTES - 1
_UNPACK = struct.Struct(f">{BUFFER_BYTES // 8}Q").unpack

# (seed key, buffer number) -> that buffer of keystream as 64-bit words
_cache: dict[tuple[bytes, int], tuple[int, ...]] = {}


def seed_bytes(seed: int | str | bytes) -> bytes:
    """The canonical 32-byte form of a seed (see the module doc)."""
    if isinstance(seed, bool):
        raise TypeError("a seed is an int, bytes or text, not a bool")
    if isinstance(seed, int):
        if 0 <= seed < 1 << (8 * SEED_BYTES):
            return seed.to_bytes(SEED_BYTES, "big")
        raw = b"int:" + seed.to_bytes((seed.bit_length() + 8) // 8, "big", signed=True)
    elif isinstance(seed, str):
        raw = seed.encode()
    else:
        raw = bytes(seed)
        if len(raw) == SEED_BYTES:
            return raw
    return hashlib.sha256(b"hexnet-seed\0" + raw).digest()


def seed_state(seed: int | str | bytes) -> dict[str, Any]:
    """The generator state for ``seed``: ``{"key": 32 bytes, "at": 0}``."""
    return {"key": seed_bytes(seed), "at": 0}


def keystream(key: bytes, offset: int, length: int) -> bytes:
    """``length`` bytes of the ChaCha20 keystream under ``key`` from byte ``offset``."""
    start = offset - offset % _BLOCK
    counter = start // _BLOCK
    nonce = counter.to_bytes(4, "little") + bytes(12)  # RFC 8439: 32-bit counter, zero nonce
    need = offset - start + length
    enc = Cipher(algorithms.ChaCha20(key, nonce), mode=None).encryptor()
    return enc.update(bytes(need))[offset - start:]


def _words(key: bytes, number: int) -> tuple[int, ...]:
    """Buffer ``number`` of the keystream under ``key`` as 64-bit big-endian words (cached)."""
    slot = (key, number)
    words = _cache.get(slot)
    if words is None:
        words = _UNPACK(keystream(key, number * BUFFER_BYTES, BUFFER_BYTES))
        _cache[slot] = words
        if len(_cache) > CACHE_BUFFERS:
            _cache.pop(next(iter(_cache)))
    return words


def next64(state: dict[str, Any]) -> int:
    """The next 64-bit output (advances ``state["rng"]``)."""
    r = state["rng"]
    at = r["at"]
    r["at"] = at + 8
    # draws are 8-byte aligned, so one never straddles two buffers
    words = _cache.get((r["key"], at >> _BUFFER_SHIFT)) or _words(r["key"], at >> _BUFFER_SHIFT)
    return words[(at & _BUFFER_MASK) >> 3]


def below(state: dict[str, Any], n: int) -> int:
    """A uniform integer in ``[0, n)`` (``n`` up to 2**64; rejection, so no modulo bias)."""
    if n <= 0:
        raise ValueError("below() needs n > 0")
    if n > _TWO64:
        raise ValueError("below() draws ranges up to 2**64")
    limit = _TWO64 - _TWO64 % n
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
    """Fisher–Yates in place: for i from the last index down to 1, swap with ``below(i + 1)``
    (the draws :func:`below` makes, read here straight from the keystream's buffers)."""
    r = state["rng"]
    key, at = r["key"], r["at"]
    number, words = -1, ()
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        limit = _TWO64 - _TWO64 % n
        while True:
            if at >> _BUFFER_SHIFT != number:  # (once per buffer, not per draw)
                number = at >> _BUFFER_SHIFT
                words = _words(key, number)
            x = words[(at & _BUFFER_MASK) >> 3]
            at += 8
            if x < limit:
                break
        j = x % n
        items[i], items[j] = items[j], items[i]
    r["at"] = at


def sample(state: dict[str, Any], items: Sequence[T], k: int) -> list[T]:
    """``k`` distinct items in random order."""
    pool = list(items)
    out = []
    for _ in range(k):
        out.append(pool.pop(below(state, len(pool))))
    return out
