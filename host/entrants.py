"""A tournament's entrants (part of the director, :mod:`host.event`).

A client sends ``enter`` (:mod:`protocol.messages`) and is an entrant under the name it
connected with — made unique among the entrants — bound to its identity key: whoever connects
with that key again is that entrant (their place, their seat at a running table). ``bots``
host-side bots (``--bots heuristic:K``) enter first. Registration ends at the start. Each entrant
is journaled as it enters.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from host.core import name_key, unique_name
from host.event_journal import EventJournal
from protocol import messages


@dataclass
class Entrant:
    """One entrant: a player bound to ``identity``, or a host-side bot (``identity`` None)."""

    name: str
    identity: bytes | None = None
    policy: str = "heuristic"

    @property
    def fingerprint(self) -> str | None:
        """The entrant's key fingerprint (hex SHA-256 of the public key), None for host bots."""
        return hashlib.sha256(self.identity).hexdigest() if self.identity else None


class Registration:
    """The entrants of one event, in the order they entered."""

    def __init__(self, journal: EventJournal, log: Callable[[str], None]) -> None:
        self.journal = journal
        self.log = log
        self.entrants: list[Entrant] = []

    def add(self, entrant: Entrant) -> None:
        """``entrant`` enters (journaled)."""
        self.entrants.append(entrant)
        self.journal.write({"kind": "entrant", "name": entrant.name,
                            "identity": entrant.identity, "policy": entrant.policy})
        who = f"key {entrant.fingerprint[:16]}" if entrant.fingerprint else "host bot"
        self.log(f"tournament: entrant {len(self.entrants)}: {entrant.name} ({who})")

    def add_host_bots(self, count: int, policy: str) -> None:
        """``count`` host bots enter (those that entered before a restart are in already)."""
        have = {e.name for e in self.entrants if e.identity is None}
        for i in range(1, count + 1):
            name = f"host bot {i}"
            if name not in have:
                self.add(Entrant(name, None, policy))

    def enter(self, name: str, identity: bytes) -> tuple[str, str] | None:
        """A player asks to enter under ``name``: None if they did, else why not (code,
        sentence). The caller checks that registration is open."""
        if len(self.entrants) >= messages.MAX_ENTRANTS:
            return "event_full", "The tournament has as many entrants as it can take."
        taken = {name_key(e.name) for e in self.entrants}
        self.add(Entrant(unique_name(name, taken), identity))
        return None

    def restore(self, record: dict[str, Any]) -> None:
        """An ``entrant`` record of the journal, taken back after a restart."""
        ident = record.get("identity")
        self.entrants.append(Entrant(str(record["name"]),
                                     bytes(ident) if ident is not None else None,
                                     str(record.get("policy") or "heuristic")))

    def entrant_of(self, identity: bytes) -> Entrant | None:
        """The entrant bound to ``identity``, or None."""
        return next((e for e in self.entrants if e.identity == identity), None)

    def names(self) -> list[str]:
        return [e.name for e in self.entrants]

    def by_rating(self, board: Any, game: str) -> tuple[list[str], str]:
        """The entrants' names best first by their rating in ``game`` on ``board``
        (:class:`host.club.board.Board`: a person by their key, a host bot by its policy's;
        newcomers as such, ties in the order they entered) and the order as a line."""
        keys = {e.name: e.fingerprint or f"bot:{e.policy}" for e in self.entrants}
        order = board.seeded(list(dict.fromkeys(keys.values())), game)
        names = sorted(keys, key=lambda n: order.index(keys[n]))
        said = []
        for name in names:
            rating = board.rating(keys[name], game)
            said.append(f"{name} ({rating.text() if rating is not None else 'new'})")
        return names, ", ".join(said)
