"""New identities per address (part of the asyncio shell's game port, :mod:`host.reception`).

An identity is a key anyone can make by the thousand, so caps per player alone (tables, a
tournament's entries, a budget per player, :mod:`host.budget`) are caps per *key*: 170 fresh keys
from one address once filled a host's 500 tables in six seconds. So the host also counts what
each *address* does: here, how many identities new to it have logged in from that address within
the last hour (:data:`IDENTITIES_PER_ADDRESS`, ``hexnet host --identities-per-address``); the
tables an address created (:mod:`host.registry`) and a tournament's entrants from one address
(:mod:`host.entrants`) are counted where they are kept.

Only logins that got in are counted: a wrong room code costs its address nothing here (the code
line, :class:`protocol.auth.RateLimiter`, paces those), so a neighbour behind the same NAT address
is not locked out by someone else's wrong guesses. An identity that logged in from the address
within the hour, or that holds a seat, is no newcomer. Browser and SSH guests each come from a
loopback address of their own, one per real address (:func:`host.guests.loopback_for`), so a
party's guests are not one address.
"""

from __future__ import annotations

import time
from collections.abc import Callable

IDENTITIES_PER_ADDRESS = 16  # new identities one address may bring in an hour
WINDOW = 3600.0
MAX_ADDRESSES = 4096  # addresses remembered (the oldest forgotten past it)


class Newcomers:
    """When each identity new to the host first logged in from each address, for an hour."""

    def __init__(self, per_hour: int = IDENTITIES_PER_ADDRESS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.per_hour = per_hour
        self.clock = clock
        self._seen: dict[str, dict[bytes, float]] = {}  # address → identity → first login

    def _recent(self, address: str) -> dict[bytes, float]:
        now = self.clock()
        seen = self._seen.get(address, {})
        for identity in [i for i, at in seen.items() if now - at >= WINDOW]:
            del seen[identity]
        return seen

    def wait(self, address: str, identity: bytes) -> float:
        """0 if ``identity`` may log in from ``address`` now, else the seconds until the
        address may bring one more new identity."""
        seen = self._recent(address)
        if identity in seen or len(seen) < self.per_hour:
            return 0.0
        return max(1.0, WINDOW - (self.clock() - min(seen.values())))

    def arrived(self, address: str, identity: bytes) -> None:
        """``identity`` logged in from ``address`` (counted once an hour)."""
        seen = self._recent(address)
        seen.setdefault(identity, self.clock())
        self._seen.pop(address, None)
        self._seen[address] = seen  # (last used last: the oldest address goes first)
        while len(self._seen) > MAX_ADDRESSES:
            self._seen.pop(next(iter(self._seen)))
