"""Room codes and the mutual proof of knowing one, plus the identity signature.

The room code is 10 characters of Crockford base32 (50 bits), shown ``XXXXX-XXXXX``. It never
travels: both sides stretch it ONCE per room into ``K = scrypt(code, salt=b"hexnet-room" +
fingerprint, n=2**14, r=8, p=1)`` and exchange HMAC-SHA256 proofs bound to the host's fingerprint,
both nonces and the client's identity. The client also signs the fingerprint and nonces with its
Ed25519 identity key, so a seat bound to that key can be resumed without a code.
"""

from __future__ import annotations

import hashlib
import hmac
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


class RateLimiter:
    """At most ``limit`` failures per ``window`` seconds per address; memory bounded by
    ``max_addresses`` (oldest forgotten first)."""

    def __init__(self, limit: int = 5, window: float = 60.0, max_addresses: int = 4096,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limit, self.window, self.max_addresses, self.clock = (
            limit, window, max_addresses, clock)
        self._failures: dict[str, deque[float]] = {}

    def _recent(self, address: str) -> deque[float]:
        q = self._failures.get(address, deque())
        now = self.clock()
        while q and now - q[0] > self.window:
            q.popleft()
        return q

    def blocked(self, address: str) -> bool:
        """Whether ``address`` has used up its failures for now."""
        return len(self._recent(address)) >= self.limit

    def fail(self, address: str) -> None:
        """Record one failure for ``address``."""
        q = self._recent(address)
        q.append(self.clock())
        self._failures.pop(address, None)
        self._failures[address] = q
        while len(self._failures) > self.max_addresses:
            self._failures.pop(next(iter(self._failures)))
