"""Profiles and replays on request (issue 28): the club's answers to a connection.

C→H ``profile {player}`` (a player's handle, :func:`host.club.board.handle`) is answered with
H→C ``profile {player, profile}`` (:func:`host.club.profile.for_wire`: what other players may
see, and the other names a player used only to themselves); C→H ``replay {commitment}`` (a
game a profile lists) with H→C ``replay`` parts (:mod:`host.club.replays`). Refusals are an
``error``: ``no_profile`` (the host keeps no ratings, or does not know the player),
``no_replay``, ``not_public``, ``ask_busy`` and ``ask_too_fast``.

Each answer costs the host a read of its database or of a journal, so it is built in a worker
thread, never on the event loop, and each connection has a budget: one request in flight at a
time, :data:`BURST` at once and then :data:`RATE` a second. Answers are padded like the other
frames a seat gets (:mod:`protocol.traffic`).
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Callable
from typing import Any

from host.club.history import History
from host.club.profile import for_wire, profile, resolve
from host.club.replays import replay_messages
from host.club.store import Club
from host.conn import Conn
from host.limits import TokenBucket
from protocol import traffic

BURST, RATE = 3, 2.0  # requests a connection may make at once, then a second


class Desk:
    """Answers ``profile`` and ``replay`` requests: the connections' budgets and the answers'
    worker threads."""

    def __init__(self, history: History, conns: dict[int, Conn],
                 send: Callable[[int, bytes], None]) -> None:
        self.history = history
        self.conns = conns  # the lobby's (read only here)
        self.send = send
        self.rate, self.burst = RATE, BURST
        self.budgets: dict[int, TokenBucket] = {}
        self.busy: set[int] = set()  # connections with a request in flight
        self._tasks: set[asyncio.Task[None]] = set()

    def install(self, requests: dict[str, Callable[[int, dict[str, Any]], None]]) -> None:
        """Answer the message types this desk knows (the host's ``requests``)."""
        requests["profile"] = self.profile
        requests["replay"] = self.replay

    def profile(self, conn_id: int, msg: dict[str, Any]) -> None:
        """``profile {player}``."""
        asked = msg["player"]

        def work(club: Club, me: str) -> list[dict[str, Any]] | tuple[str, str]:
            key = resolve(club, asked)
            found = profile(club, key) if key is not None else None
            if found is None:
                return ("no_profile", "This host has no ratings of that player.")
            return [{"type": "profile", "player": asked,
                     "profile": for_wire(found, own=key == me)}]
        self._ask(conn_id, work, "no_profile")

    def replay(self, conn_id: int, msg: dict[str, Any]) -> None:
        """``replay {commitment}``."""
        commitment = msg["commitment"]
        self._ask(conn_id, lambda club, me: replay_messages(club, commitment, me), "no_replay")

    # -- the budget and the worker thread -------------------------------------------------
    def _ask(self, conn_id: int, work: Callable[[Club, str], Any], unkept: str) -> None:
        conn = self.conns.get(conn_id)
        if conn is None:
            return
        for gone in [c for c in self.budgets if c not in self.conns]:
            del self.budgets[gone]
        if not self.history.ready:
            self._error(conn_id, unkept, "This host keeps no ratings." if
                        self.history.mode != "club" else
                        "The host is still opening its club database; try again in a moment.")
            return
        if conn_id in self.busy:
            self._error(conn_id, "ask_busy", "One profile or replay at a time: the last one is on "
                                         "its way.")
            return
        budget = self.budgets.setdefault(conn_id, TokenBucket(self.rate, self.burst))
        if not budget.take():
            self._error(conn_id, "ask_too_fast", "Too many profiles or replays asked for; wait a "
                                             "second.")
            return
        self.busy.add(conn_id)
        me = hashlib.sha256(conn.identity).hexdigest()
        task = asyncio.get_running_loop().create_task(self._answer(conn_id, work, me, unkept))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _answer(self, conn_id: int, work: Callable[[Club, str], Any], me: str,
                      unkept: str) -> None:
        try:
            answer = await self.history.in_thread(lambda club: work(club, me))
        except LookupError:
            answer = (unkept, "This host keeps no ratings.")
        except Exception as exc:  # noqa: BLE001 - the asker hears it; the host goes on
            answer = (unkept, f"The host could not read it ({type(exc).__name__}).")
        finally:
            self.busy.discard(conn_id)
        if conn_id not in self.conns:
            return
        if isinstance(answer, tuple):
            self._error(conn_id, *answer)
            return
        for msg in answer:
            self._frame(conn_id, msg)

    def _error(self, conn_id: int, code: str, text: str) -> None:
        self._frame(conn_id, {"type": "error", "code": code, "message": text})

    def _frame(self, conn_id: int, msg: dict[str, Any]) -> None:
        parts = [(k, traffic.packed(v)) for k, v in msg.items()]
        self.send(conn_id, traffic.assemble(parts, traffic.size_class(traffic.needed(parts))))
