"""Room codes and the mutual proof of knowing one, plus the identity signature.

The room code is 10 characters of Crockford base32 (50 bits), shown ``XXXXX-XXXXX``. It never
travels: both sides stretch it ONCE per room into ``K = scrypt(code, salt=b"hexnet-room" +
fingerprint, n=2**14, r=8, p=1)`` and exchange HMAC-SHA256 proofs bound to the host's fingerprint,
both nonces and the client's identity. The client also signs the fingerprint and nonces with its
Ed25519 identity key, so a seat bound to that key can be resumed without a code.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import math
import secrets
import time
from collections import deque
from collections.abc import Callable

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from protocol.identity import verify

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford base32: no I, L, O, U
CODE_LEN = 10
_ALIASES = str.maketrans({"O": "0", "I": "1", "L": "1"})


def new_room_code() -> str:
    """A fresh room code, ``XXXXX-XXXXX`` (50 bits)."""
    raw = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LEN))
    return f"{raw[:5]}-{raw[5:]}"


def normalise_code(code: str) -> str:
    """The code's canonical 10 characters (case, dashes, spaces and O/I/L look-alikes forgiven).

    ValueError if it cannot be a room code."""
    cleaned = code.strip().upper().replace("-", "").replace(" ", "").translate(_ALIASES)
    if len(cleaned) != CODE_LEN or any(c not in ALPHABET for c in cleaned):
        raise ValueError("A room code is 10 letters and digits, like 7K3QF-9XM2D.")
    return cleaned


def room_key(code: str, fingerprint_hex: str) -> bytes:
    """K: the code stretched with scrypt, salted with the host's fingerprint (~50 ms)."""
    return hashlib.scrypt(normalise_code(code).encode(),
                          salt=b"hexnet-room" + bytes.fromhex(fingerprint_hex),
                          n=2**14, r=8, p=1, dklen=32)


def _transcript(label: bytes, fp_hex: str, c_nonce: bytes, h_nonce: bytes,
                identity: bytes) -> bytes:
    return label + bytes.fromhex(fp_hex) + c_nonce + h_nonce + identity


def client_proof(key: bytes, fp_hex: str, c_nonce: bytes, h_nonce: bytes,
                 identity: bytes) -> bytes:
    """HMAC(K, "client"|fingerprint|c_nonce|h_nonce|identity)."""
    return hmac.digest(key, _transcript(b"client", fp_hex, c_nonce, h_nonce, identity), "sha256")


def host_proof(key: bytes, fp_hex: str, c_nonce: bytes, h_nonce: bytes,
               identity: bytes) -> bytes:
    """HMAC(K, "host"|fingerprint|c_nonce|h_nonce|identity)."""
    return hmac.digest(key, _transcript(b"host", fp_hex, c_nonce, h_nonce, identity), "sha256")


def proofs_equal(a: bytes | None, b: bytes | None) -> bool:
    """Constant-time comparison (False if either is missing)."""
    return a is not None and b is not None and hmac.compare_digest(a, b)


def _sig_data(fp_hex: str, c_nonce: bytes, h_nonce: bytes) -> bytes:
    return b"hexnet-auth" + bytes.fromhex(fp_hex) + c_nonce + h_nonce


def sign_auth(identity_key: Ed25519PrivateKey, fp_hex: str, c_nonce: bytes,
              h_nonce: bytes) -> bytes:
    """The identity's signature over "hexnet-auth"|fingerprint|c_nonce|h_nonce."""
    return identity_key.sign(_sig_data(fp_hex, c_nonce, h_nonce))


def verify_auth(identity: bytes, signature: bytes, fp_hex: str, c_nonce: bytes,
                h_nonce: bytes) -> bool:
    """Whether ``signature`` is ``identity``'s signature of this handshake."""
    return verify(identity, signature, _sig_data(fp_hex, c_nonce, h_nonce))


BACKOFF_BASE = 0.25  # seconds: the first wait once an identity's or address's free tries are used
BACKOFF_FREE_IDENTITY = 3  # wrong codes an identity may send without waiting
BACKOFF_FREE_ADDRESS = 10  # wrong codes an address (all its identities) may send without waiting
BACKOFF_MAX_IDENTITY = 30.0  # the longest wait between two checks for one identity
BACKOFF_MAX_ADDRESS = 0.2  # the longest wait between two checks from one address
BACKOFF_QUEUE = 4  # attempts of one address waiting for their turn at once (more: "busy")
OK, BAD_CODE, RATE_LIMITED, BUSY, GONE = "ok", "bad_code", "rate_limited", "busy", "gone"
BACKOFF_FORGET = 600.0  # seconds without a wrong code after which a key's count is forgotten


class _Key:
    __slots__ = ("failures", "next_free", "last")

    def __init__(self) -> None:
        self.failures, self.next_free, self.last = 0, 0.0, 0.0


class RateLimiter:
    """Back-off for room-code checks, per identity and per address: a guesser is slowed, a
    neighbour is never locked out.

    Every attempt that carries a code first takes its turn (:meth:`check`; :meth:`reserve` is
    the older form that only computes the wait): it waits in its address's line until both its
    identity and its address may be checked again. Free tries cost nothing; past them each
    wrong code makes the next check of that identity wait twice as long (up to
    ``identity_max``: 30 s) and of that address up to ``address_max`` (0.2 s). Turns are handed
    out in order, so parallel connections do not guess in parallel: one address checks at most
    ``1 / address_max`` codes a second (5: for a 50-bit code, millions of years), whatever it
    does. At most ``queue`` (4) attempts of one address wait in line; an abandoned one gives
    its turn back at once. A player behind the same NAT address — with their own identity —
    waits at most the line's length of turns (0.8 s) and then gets in with the right code,
    as long as the flood beside them sends fewer wrong codes than the address may have
    checked (5 a second); a faster flood fills the line, and the player is told "busy, try
    again in a second" (an attempt cannot be told apart from the flood's before its code is
    checked). Only an
    identity that itself sent many wrong codes may be told to come back later (never for
    more than ``identity_max``). A right code forgets its identity's count. Memory is
    bounded by ``max_keys`` (oldest forgotten first).
    """

    def __init__(self, *, base: float = BACKOFF_BASE,
                 identity_free: int = BACKOFF_FREE_IDENTITY,
                 address_free: int = BACKOFF_FREE_ADDRESS,
                 identity_max: float = BACKOFF_MAX_IDENTITY,
                 address_max: float = BACKOFF_MAX_ADDRESS,
                 forget_after: float = BACKOFF_FORGET, max_keys: int = 4096,
                 queue: int = BACKOFF_QUEUE,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.base, self.forget_after, self.max_keys, self.clock = (
            base, forget_after, max_keys, clock)
        self.rules = {"identity": (identity_free, identity_max),
                      "address": (address_free, address_max)}
        self.queue = queue
        self._keys: dict[tuple[str, object], _Key] = {}
        self._lines: dict[str, deque[object]] = {}  # address → attempts waiting, in order
        self._moved: dict[str, asyncio.Event] = {}  # address → set when its line moves up

    def delay(self, kind: str, failures: int) -> float:
        """The wait after the latest check of a key of ``kind`` with ``failures`` wrong codes."""
        free, most = self.rules[kind]
        if failures < free:
            return 0.0
        return min(most, self.base * 2.0 ** min(failures - free, 64))

    def _key(self, kind: str, value: object, now: float) -> _Key:
        k = (kind, value)
        entry = self._keys.get(k)
        if entry is not None and now - entry.last > self.forget_after and entry.next_free <= now:
            entry = None
        if entry is None:
            entry = _Key()
            self._keys.pop(k, None)
            self._keys[k] = entry
            while len(self._keys) > self.max_keys:
                self._keys.pop(next(iter(self._keys)))
        return entry

    def _pair(self, identity: bytes, address: str, now: float) -> list[tuple[str, _Key]]:
        return [("identity", self._key("identity", identity, now)),
                ("address", self._key("address", address, now))]

    def reserve(self, identity: bytes, address: str,
                limit: float = float("inf")) -> tuple[bool, float]:
        """``(True, seconds)``: this attempt's code is checked after ``seconds``, and its turn
        is taken, so the next attempt of the same identity or address comes after it.
        ``(False, seconds)``: the identity's own wait would pass ``limit``; nothing is taken
        (refuse: "come back in ``seconds``"). The address's queue never refuses: a neighbour's
        identity waits its turn."""
        now = self.clock()
        pair = self._pair(identity, address, now)
        own = pair[0][1].next_free - now
        if own > limit:
            return False, own
        wait = max(0.0, *(entry.next_free - now for _, entry in pair))
        for kind, entry in pair:
            entry.next_free = now + wait + self.delay(kind, entry.failures)
        return True, wait

    def fail(self, identity: bytes, address: str) -> None:
        """A wrong code from ``identity`` at ``address``."""
        now = self.clock()
        for kind, entry in self._pair(identity, address, now):
            entry.failures += 1
            entry.last = now
            entry.next_free = max(entry.next_free, now + self.delay(kind, entry.failures))

    def succeed(self, identity: bytes) -> None:
        """The right code: the identity's count is forgotten (the address's is not)."""
        self._keys.pop(("identity", identity), None)

    def waiting(self, address: str) -> int:
        """Attempts of ``address`` holding a turn now."""
        return len(self._lines.get(address, ()))

    async def check(self, identity: bytes, address: str, right: Callable[[], bool], *,
                    limit: float = math.inf, gone: Callable[[], bool] = lambda: False,
                    poll: float = 0.05) -> tuple[str, float]:
        """Check one room code when its turn comes: ``right()`` is asked once, at the turn.

        The attempts of one address wait in line (at most ``queue`` of them; one more is told
        ``(BUSY, seconds)`` at once and nothing is counted) and are checked one at a time, each
        once its identity's and its address's back-off has passed. An attempt whose connection
        is gone (``gone()``) or whose task is cancelled leaves the line at once, and so does one
        just checked: the next in line moves up — nobody waits behind a turn no one will use.
        ``(RATE_LIMITED, seconds)`` at once if the identity's own wait would pass ``limit``;
        else ``(OK, 0)``, ``(BAD_CODE, 0)`` or ``(GONE, 0)``. A right code never makes
        anyone wait; a wrong one makes the address's next check wait (up to ``address_max``)."""
        now = self.clock()
        own = self._key("identity", identity, now).next_free - now
        if own > limit:
            return RATE_LIMITED, own
        line = self._lines.setdefault(address, deque())
        if len(line) >= self.queue:
            return BUSY, max(self.base, len(line) * self.rules["address"][1])
        me = object()
        line.append(me)
        self._moved.setdefault(address, asyncio.Event())
        try:
            while True:
                if gone():
                    return GONE, 0.0
                now = self.clock()
                if line[0] is me:
                    wait = max(entry.next_free for _, entry in self._pair(identity, address,
                                                                          now)) - now
                    if wait <= 0:
                        break
                    await asyncio.sleep(min(wait, poll))
                else:  # woken as soon as the one ahead leaves (not at the next poll)
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._moved[address].wait(), poll)
            ok = right()
        finally:
            line.remove(me)
            self._moved.pop(address).set()  # the next in line moves up now
            if line:
                self._moved[address] = asyncio.Event()
            else:
                del self._lines[address]
        if ok:
            self.succeed(identity)
            return OK, 0.0
        self.fail(identity, address)
        return BAD_CODE, 0.0
