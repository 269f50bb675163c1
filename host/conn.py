"""An authenticated connection as the sans-I/O core knows it (no socket: the shell has that)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from host.limits import TokenBucket


@dataclass
class Conn:
    """An authenticated connection. ``synced``: it holds the full lobby and follows its
    deltas; ``you_sent``: the ``you`` it was last sent."""

    id: int
    identity: bytes
    name: str
    address: str = ""
    synced: bool = False
    you_sent: dict[str, Any] | None = None
    said_bye: bool = False  # its client is closing on purpose (a ``bye``)
    looking: bool = False  # its player, seated at a playing table, has the lobby on screen
    chat_budget: TokenBucket | None = None  # chat lines it may send (host.chat.CHAT_BURST)
    chat_refusals: TokenBucket | None = None  # "too fast" answers at a playing table
    refusals: TokenBucket | None = None  # refused actions answered in a frame to every seat
    # the budgets of other requests that reach every seat of a table (emotes, rematch answers,
    # the bots' pause), by kind (:meth:`spend`)
    buckets: dict[str, TokenBucket] = field(default_factory=dict)

    def spend(self, kind: str, rate: float, burst: int, clock: Callable[[], float]) -> bool:
        """One request of ``kind`` within its budget (``burst`` at once, then ``rate`` a
        second, per connection); False past it (nothing spent)."""
        bucket = self.buckets.get(kind)
        if bucket is None:
            bucket = self.buckets[kind] = TokenBucket(rate, burst, clock)
        return bucket.take()
