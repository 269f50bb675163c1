"""A tournament's entrants (part of the director, :mod:`host.event`).

A client sends ``enter`` (:mod:`protocol.messages`) and is an entrant under the name it
connected with — made unique among the entrants — bound to its identity key: whoever connects
with that key again is that entrant (their place, their seat at a running table). ``bots``
host-side bots (``--bots heuristic:K``) enter first. Registration ends at the start. Each entrant
is journaled as it enters.

Keys are free to make, so one address may enter only :data:`ENTRANTS_PER_ADDRESS` entrants
(``--entrants-per-address N``: the organiser raises it for a room behind one address, or for
``hexnet bot --count N`` from one machine): eight throwaway keys could otherwise fill an event
that starts at eight entrants and close registration on the real players.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from host.core import name_key, unique_name
from host.event_journal import EventJournal
from protocol import messages

ENTRANTS_PER_ADDRESS = 2  # entrants one address may enter (the organiser may allow more)


@dataclass
class Entrant:
    """One entrant: a player bound to ``identity``, or a host-side bot (``identity`` None)."""

    name: str
    identity: bytes | None = None
    policy: str = "heuristic"
    address: str = ""  # where it entered from (entrants per address)

    @property
    def fingerprint(self) -> str | None:
        """The entrant's key fingerprint (hex SHA-256 of the public key), None for host bots."""
        return hashlib.sha256(self.identity).hexdigest() if self.identity else None


class Registration:
    """The entrants of one event, in the order they entered."""

    def __init__(self, journal: EventJournal, log: Callable[[str], None],
                 per_address: int = ENTRANTS_PER_ADDRESS,
                 bind: Callable[[str, bytes], None] = lambda name, identity: None) -> None:
        self.journal = journal
        self.log = log
        self.per_address = per_address
        self.bind = bind  # an entrant's name is its key's (host.people.People.bind_name)
        self.entrants: list[Entrant] = []

    def _add(self, entrant: Entrant) -> None:
        self.entrants.append(entrant)
        if entrant.identity is not None:
            self.bind(entrant.name, entrant.identity)

    def add(self, entrant: Entrant) -> None:
        """``entrant`` enters (journaled); its name is bound to its key."""
        self._add(entrant)
        self.journal.write({"kind": "entrant", "name": entrant.name,
                            "identity": entrant.identity, "policy": entrant.policy,
                            "address": entrant.address})
        who = f"key {entrant.fingerprint[:16]}" if entrant.fingerprint else "host bot"
        self.log(f"tournament: entrant {len(self.entrants)}: {entrant.name} ({who})")

    def add_host_bots(self, count: int, policy: str) -> None:
        """``count`` host bots enter (those that entered before a restart are in already)."""
        have = {e.name for e in self.entrants if e.identity is None}
        for i in range(1, count + 1):
            name = f"host bot {i}"
            if name not in have:
                self.add(Entrant(name, None, policy))

    def enter(self, name: str, identity: bytes, address: str = "") -> tuple[str, str] | None:
        """A player asks to enter under ``name`` from ``address``: None if they did, else why
        not (code, sentence). The caller checks that registration is open."""
        if len(self.entrants) >= messages.MAX_ENTRANTS:
            return "event_full", "The tournament has as many entrants as it can take."
        if address and sum(e.address == address for e in self.entrants) >= self.per_address:
            return ("too_many_entrants", f"{self.per_address} entrants came from your address "
                    "already; the organiser may allow more (hexnet host "
                    "--entrants-per-address).")
        taken = {name_key(e.name) for e in self.entrants}
        self.add(Entrant(unique_name(name, taken), identity, address=address))
        return None

    def restore(self, record: dict[str, Any]) -> None:
        """An ``entrant`` record of the journal, taken back after a restart."""
        ident = record.get("identity")
        self._add(Entrant(str(record["name"]), bytes(ident) if ident is not None else None,
                          str(record.get("policy") or "heuristic"),
                          str(record.get("address") or "")))

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
