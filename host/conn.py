"""An authenticated connection as the sans-I/O core knows it (no socket: the shell has that)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from host.budget import Budget


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
    # what it may make the host send to the others: its identity's (host.budget), given as it
    # joins (host.people.People.add)
    budget: Budget = field(default_factory=Budget)
