"""What a tournament tells the clients (part of the director, :mod:`host.event`): the event's
state as a ``tournament`` message to every connection (or to one just joined), every frame of
one padded length (public facts only; the traffic rule of :mod:`protocol.traffic`), and the
refusals of ``enter``, padded alike.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from host.entrants import Registration
from protocol import traffic

if TYPE_CHECKING:
    from host.server import Host


class Bulletin:
    """Sends the event's ``message`` (built for each connection's entrant) through the host
    (:meth:`host.server.Host.send_frame`)."""

    def __init__(self, host: Host, registration: Registration,
                 message: Callable[[str | None], dict[str, Any]]) -> None:
        self.host = host
        self.registration = registration
        self.message = message

    def publish(self, conns: list[int] | None = None) -> None:
        """The event's state to ``conns`` (default: every connection)."""
        conns_now = self.host.lobby.conns
        targets = list(conns_now) if conns is None else conns
        per: dict[int, list[tuple[str, bytes]]] = {}
        for cid in targets:
            conn = conns_now.get(cid)
            if conn is None:
                continue
            entrant = self.registration.entrant_of(conn.identity)
            msg = self.message(entrant.name if entrant else None)
            per[cid] = [(k, traffic.packed(v)) for k, v in msg.items()]
        if not per:
            return
        _, frames = traffic.pad_frames(per)
        for cid, data in frames.items():
            self.host.send_frame(cid, data)

    def error(self, conn_id: int, code: str, text: str) -> None:
        """An ``error`` to ``conn_id`` (its ``enter`` was refused)."""
        self.host.send_frame(conn_id, traffic.assemble(
            [("type", traffic.packed("error")), ("code", traffic.packed(code)),
             ("message", traffic.packed(text))], traffic.DOWN_CLASS))
