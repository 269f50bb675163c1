"""What one player may make the host send to the others (part of the sans-I/O core): one budget
per identity, shared by every connection of that identity (a reconnect does not refill it).

Every request that makes frames for anyone but its sender spends from :attr:`Budget.others`
(:data:`BURST` at once, then :data:`RATE` a second): a refusal that rides in the frames of a
table's every seat (a refused ``act``, ``start``, ``add_bot``, ``sit``, ``leave``, ``watch`` or
``watch_rules`` about the table its player plays at: the traffic rule of
:mod:`protocol.traffic`), a chat line, a change of what it watches, taking a free seat at a
playing table, switching who may watch, entering a tournament, an emote, a rematch answer, the
bots paused or slowed. Past it a refusal goes to its sender alone (in a frame of the table's
length) and any other such request is refused (``too_often``; ``too_fast``, ``chat_too_fast``,
``emote_too_fast`` and ``asks_too_fast`` for watch changes, chat lines, emotes and the party's
asks) — to its sender alone; nothing changes. Chat lines, watch changes, emotes and the party's
asks (a rematch answer, the bots paused or slowed) have a pace of their own as well
(:data:`KINDS`).

Presence (connected, away, absent, back) is the one thing a player changes without asking for
it: every change is a journaled host action, a line in every seat's log and a frame to every
seat. A player's presence changes are logged :data:`PRESENCE_BURST` at once, then one every
:data:`PRESENCE_EVERY` seconds; past that a change of its connection still holds (the table's
next frame carries the whole table's presence) but costs no journal record, no log line and no
frame of its own, and a request to change it (``leave``, ``sit`` back) is refused.

Requests whose frames go to their sender alone (``look``: the lobby, coalesced; ``ping``) or
only into the coalesced lobby updates (``create``, ``sit`` and ``leave`` at a table still
seating: at most :data:`host.dispatch.LOBBY_EVERY` apart for everyone) spend nothing: no client
can multiply those.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from host.limits import TokenBucket

BURST = 10  # frames for the others one player may cause at once…
RATE = 2.0  # …and then a second
CHAT_BURST = 5  # chat lines at once (each reaches every seat, or everyone in the lobby)…
CHAT_RATE = 1.0  # …then a second
WATCH_BURST = 5  # changes of what one watches at once…
WATCH_RATE = 1.0  # …then a second
PRESENCE_BURST = 4  # presence changes logged at once…
PRESENCE_EVERY = 10.0  # …then one every this many seconds
EMOTE_BURST = 5  # emotes at once (each reaches every seat, host/emotes.py)…
EMOTE_RATE = 1.0  # …then a second
ASK_BURST = 5  # rematch answers and the bots' pause at once (each reaches every seat)…
ASK_RATE = 1.0  # …then a second
KINDS = {"chat": (CHAT_RATE, CHAT_BURST), "chat_refusal": (CHAT_RATE, 1),
         "watch": (WATCH_RATE, WATCH_BURST), "emote": (EMOTE_RATE, EMOTE_BURST),
         "emote_refusal": (EMOTE_RATE, 1), "ask": (ASK_RATE, ASK_BURST)}
MAX_KEPT = 4096  # identities whose budgets are kept (the oldest forgotten past it)


def bound(seconds: float) -> int:
    """The most frames one player can make another seat of its table receive in ``seconds``
    (its own moves aside): the budget's burst and rate, and its presence changes."""
    return BURST + PRESENCE_BURST + math.ceil(seconds * (RATE + 1 / PRESENCE_EVERY))


class Budget:
    """One player's budget: ``others`` (every request making frames for the others), the
    paces of some kinds of them (:data:`KINDS`), and its presence changes."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.others = TokenBucket(RATE, BURST, clock)
        self.kinds = {kind: TokenBucket(rate, burst, clock)
                      for kind, (rate, burst) in KINDS.items()}
        self.presence = TokenBucket(1 / PRESENCE_EVERY, PRESENCE_BURST, clock)

    def spend(self, kind: str | None = None) -> bool:
        """One request of ``kind`` (None: one with no pace of its own) that makes frames for
        the others: True if both its pace and the shared budget allow it (both are spent),
        else False (nothing is spent)."""
        own = self.kinds[kind] if kind is not None else None
        if not self.others.ready() or (own is not None and not own.ready()):
            return False
        self.others.take()
        if own is not None:
            own.take()
        return True

    def presence_change(self) -> bool:
        """One presence change to log; False past the presence budget (nothing spent)."""
        return self.presence.take()


class Budgets:
    """Every identity's budget, kept across its connections (bounded: the oldest go first)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._by_identity: dict[bytes, Budget] = {}

    def of(self, identity: bytes) -> Budget:
        """``identity``'s budget (a full one the first time)."""
        budget = self._by_identity.pop(identity, None)
        if budget is None:
            budget = Budget(self.clock)
            while len(self._by_identity) >= MAX_KEPT:
                self._by_identity.pop(next(iter(self._by_identity)))
        self._by_identity[identity] = budget  # (last used last: the oldest go first)
        return budget
