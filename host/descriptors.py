"""File descriptors: one budget for the whole host process, shared by every door.

Every connection, journal, pseudo-terminal and guest's pipe is a descriptor, and the process has
``RLIMIT_NOFILE`` of them. A stranger who only opens connections (slowloris on the web door,
idle sockets on the game port, key-only SSH logins) must never use the last ones: then a seated
player's ``create`` or a journal's next write would fail with EMFILE.

* :func:`prepare` (at the host's start) raises the soft limit as far as the hard limit allows
  (at most :data:`TARGET`).
* :class:`Descriptors` keeps a **reserve** (:data:`RESERVE_SHARE` of the limit, at least
  :data:`RESERVE_MIN`) for journals and the players already in: a new *unauthenticated*
  connection — at any door — is refused first, as soon as fewer than the reserve are free
  (:meth:`Descriptors.may_accept`). What an authenticated player does is never refused here.
* :meth:`Descriptors.share` is what one door's unauthenticated connections may hold at most
  (what is left after the reserve and the process's own files, split between the doors), so
  one door under attack cannot take the descriptors the other doors' logins need: a player
  with the code still gets in through the game port while the web door is flooded.

:data:`BUDGET` is the process's one instance (descriptors are the process's, not a door's).
"""

from __future__ import annotations

import os
import resource
import time
from collections.abc import Callable

TARGET = 65536  # the soft limit asked for (a host serving a LAN needs no more)
RESERVE_SHARE = 8  # one eighth of the limit is kept for journals and players already in…
RESERVE_MIN = 32  # …and never fewer than this
BASELINE = 32  # the process's own files: interpreter, journals directory, mDNS, loop, threads
DOORS = 3  # game port, web, SSH: each may hold a share of the unauthenticated connections
COUNT_EVERY = 0.05  # seconds a count of open descriptors is trusted (one listing per burst)
RECOUNT_EVERY = 0.005  # ...but a refusal waits for a count at least this fresh


def prepare() -> tuple[int, int]:
    """Raise the soft ``RLIMIT_NOFILE`` as far as the hard limit allows (at most
    :data:`TARGET`); the (soft, hard) limits now. Never lowers it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = TARGET if hard == resource.RLIM_INFINITY else min(TARGET, hard)
    if soft != resource.RLIM_INFINITY and soft < want:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
            soft = want
        except (ValueError, OSError):
            pass  # (a sandbox may forbid it: the limit stays, the reserve still holds)
    return soft, hard


def open_descriptors() -> int | None:
    """How many descriptors this process has open now (Linux: ``/proc/self/fd``; elsewhere
    ``/dev/fd``), or None if it cannot tell."""
    for folder in ("/proc/self/fd", "/dev/fd"):
        try:
            return len(os.listdir(folder)) - 1  # (the listing's own descriptor)
        except OSError:
            continue
    return None


class Descriptors:
    """The host's descriptor budget: :meth:`may_accept` for a new unauthenticated connection,
    :meth:`share` for one door's caps. ``limit`` is read from ``RLIMIT_NOFILE`` unless given."""

    def __init__(self, limit: int | None = None,
                 count: Callable[[], int | None] = open_descriptors,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._limit = limit
        self.count, self.clock = count, clock
        self.refused = 0
        self._at, self._counted, self._since = -1.0, None, 0  # last count, accepts since

    @property
    def limit(self) -> int:
        """The soft descriptor limit (the given one, else the process's)."""
        if self._limit is not None:
            return self._limit
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        return TARGET if soft == resource.RLIM_INFINITY else soft

    @property
    def reserve(self) -> int:
        """Descriptors kept for journals and the players already in."""
        return max(RESERVE_MIN, self.limit // RESERVE_SHARE)

    def share(self) -> int:
        """The most unauthenticated connections one door may hold (at least 8)."""
        return max(8, (self.limit - self.reserve - BASELINE) // DOORS)

    def in_use(self) -> int | None:
        """Descriptors open now (counted at most every :data:`COUNT_EVERY` s; None: unknown)."""
        now = self.clock()
        if now - self._at >= COUNT_EVERY or self._counted is None:
            self._at, self._counted, self._since = now, self.count(), 0
        return None if self._counted is None else self._counted + self._since

    def free(self) -> int | None:
        """Descriptors still free, or None if the count is unknown."""
        n = self.in_use()
        return None if n is None else self.limit - n

    def may_accept(self) -> bool:
        """Whether one more unauthenticated connection may be kept open: more than the reserve
        is free (or the count is unknown). A refusal is counted in ``refused``."""
        free = self.free()
        # the estimate adds every connection kept since the count, none closed since: under a
        # flood of reconnects it runs ahead of what is open, so a refusal is decided on a fresh
        # count (at most one every RECOUNT_EVERY seconds)
        if (free is not None and free <= self.reserve and self._since
                and self.clock() - self._at >= RECOUNT_EVERY):
            self._at = -1.0
            free = self.free()
        if free is None or free > self.reserve:
            self._since += 1  # the connection about to be kept, until the next count
            return True
        self.refused += 1
        return False


BUDGET = Descriptors()
