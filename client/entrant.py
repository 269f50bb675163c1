"""``hexnet bot HOST --count N`` against a tournament host: N bot entrants over the network.

Each bot connects with a key of its own (kept for the whole run, so a lost connection or a host
restart finds its place again: the session reconnects by itself), sends ``enter`` and then plays
whatever table the host seats it at, one after another, until the host says the event is over
(a ``tournament`` message with status ``over``, :mod:`protocol.messages`). A seat's play follows
:mod:`client.bot` (answer each new choice once; answer the same choice again after
:data:`client.bot.RETRY_AFTER` seconds if nothing new came, or after ``resend`` seconds without
any answer).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from client.bot import RETRY_AFTER, close_sessions
from client.policy import ask
from client.session import Session, SessionError
from hexnet.policies import Policy, is_builtin, load_policy

MAX_MESSAGES = 5_000_000
FIND_EVENT = 10.0  # seconds to wait for the host's first ``tournament`` message


class NoTournament(SessionError):
    """The host runs no tournament."""


@dataclass
class EntrantsReport:
    """What a run of tournament bots saw: the last ``tournament`` message and the tables each
    bot played."""

    final: dict[str, Any] | None = None
    names: list[str] = field(default_factory=list)
    tables: list[set[int]] = field(default_factory=list)
    actions_sent: int = 0
    rejected: dict[str, int] = field(default_factory=dict)
    reconnects: int = 0
    seconds: float = 0.0


async def find_event(session: Session, seconds: float = FIND_EVENT) -> dict[str, Any]:
    """The host's ``tournament`` message (it comes right after the lobby); NoTournament if
    none comes within ``seconds``."""
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        msg = await session.next_message(left)
        if msg is not None and msg["type"] == "tournament":
            return msg
    raise NoTournament("This host runs no tournament; name a --game to play a table of bots.")


async def run_entrants(host: str, port: int, *, count: int, policy: str = "heuristic",
                       code: str | None = None, config_dir: str | None = None,
                       name: str = "bot", names: list[str] | None = None,
                       identity_file: str | None = None,
                       pinned_fingerprint: str | None = None,
                       timeout: float = 6 * 3600.0, seed: int | None = None,
                       resend: float | None = 5.0,
                       on_message: Callable[[int, dict[str, Any]], None] | None = None
                       ) -> EntrantsReport:
    """Register ``count`` bots with the host's tournament and play until it is over. Their
    names are ``name1``, ``name2``, … or ``names``; their keys are new for the run, or
    (``identity_file``, as ``hexnet join`` keeps one in ``config_dir``) the one kept there."""
    if names is not None:
        count = len(names)
    names = names or [f"{name}{i + 1}"[:24] for i in range(count)]
    report = EntrantsReport()
    started = time.perf_counter()
    sessions: list[Session] = []
    try:
        first = await Session.connect(host, port, name=names[0], code=code,
                                      config_dir=config_dir, accept_new=True,
                                      pinned_fingerprint=pinned_fingerprint,
                                      identity_file=identity_file, reconnect=True)
        sessions.append(first)
        event = await find_event(first)
        choose = load_policy(event["game"], policy)
        own = not is_builtin(policy)
        pinned = first.host_fingerprint
        for i in range(1, count):
            sessions.append(await Session.connect(
                host, port, name=names[i], code=code, config_dir=config_dir,
                accept_new=True, pinned_fingerprint=pinned, identity_file=identity_file,
                reconnect=True))
        for s in sessions:
            await s.send({"type": "enter"})
        report.tables = [set() for _ in sessions]
        report.names = [""] * len(sessions)
        base = seed if seed is not None else random.SystemRandom().getrandbits(32)
        entrants = [_Entrant(i, s, random.Random(base + i), report, choose, own, resend,
                             on_message) for i, s in enumerate(sessions)]
        finals = await asyncio.wait_for(asyncio.gather(*(e.play() for e in entrants)), timeout)
        report.final = finals[0]
    finally:
        await close_sessions(sessions, report, started)
    return report


class _Entrant:
    """One bot entrant at every table the host seats it at: each new choice answered once, the
    same choice again after :data:`client.bot.RETRY_AFTER` seconds if nothing new came, or
    after ``resend`` seconds without any answer."""

    def __init__(self, index: int, session: Session, rng: random.Random,
                 report: EntrantsReport, choose: Policy, own: bool, resend: float | None,
                 on_message: Callable[[int, dict[str, Any]], None] | None) -> None:
        self.index, self.session, self.rng, self.report = index, session, rng, report
        self.choose, self.own, self.resend, self.on_message = choose, own, resend, on_message
        self.answered: dict[int, Any] = {}  # table → the choice (step key, legal) answered
        self.latest: dict[int, dict[str, Any]] = {}  # table → its latest view message
        self.again_at: dict[int, float] = {}  # table → when to answer its choice again

    async def play(self) -> dict[str, Any]:
        """Play until the host says the event is over; its last ``tournament`` message."""
        i, s, report = self.index, self.session, self.report
        answered, latest, again_at = self.answered, self.latest, self.again_at
        for _ in range(MAX_MESSAGES):
            now = time.monotonic()
            wait = max(0.0, min(again_at.values()) - now) if again_at else None
            msg = await s.next_message(wait)
            todo: list[dict[str, Any]] = []
            if msg is None:  # a choice to answer again (see client.bot)
                for tid in [t for t, at in again_at.items() if at <= time.monotonic()]:
                    del again_at[tid]
                    answered.pop(tid, None)
                    if tid in latest:
                        todo.append(latest[tid])
            else:
                if self.on_message is not None:
                    self.on_message(i, msg)
                kind = msg["type"]
                if kind == "tournament":
                    if msg.get("you"):
                        report.names[i] = msg["you"]
                    if msg["status"] == "over":
                        return msg
                elif kind == "error" and msg.get("code") in ("registration_closed",
                                                              "event_full"):
                    raise SessionError(f"host refused: {msg['message']}")
                elif kind == "rejected":
                    report.rejected[msg["code"]] = report.rejected.get(msg["code"], 0) + 1
                    again_at.pop(msg["table"], None)
                    if msg["code"] != "illegal":
                        answered.pop(msg["table"], None)
                    if msg["table"] in latest:
                        todo.append(latest[msg["table"]])
                elif kind == "view":
                    todo.append(msg)
            for view_msg in todo:
                await self.answer(view_msg)
        raise SessionError("too many messages")

    async def answer(self, msg: dict[str, Any]) -> None:
        """Answer the choice of a ``view`` message, unless it was answered already."""
        answered, latest, again_at = self.answered, self.latest, self.again_at
        tid = msg["table"]
        latest[tid] = msg
        self.report.tables[self.index].add(tid)
        if "answered" in msg:
            answered.pop(tid, None)
            again_at.pop(tid, None)
        view, legal = msg["view"], msg["legal"]
        if view.get("outcome") is not None or not legal:
            answered.pop(tid, None)
            again_at.pop(tid, None)
            if view.get("outcome") is not None:
                latest.pop(tid, None)
            return
        choice = ((view.get("deadline") or {}).get("key"), legal)
        if choice == answered.get(tid):
            again_at.setdefault(tid, time.monotonic() + RETRY_AFTER)
            return
        answered[tid] = choice
        if self.resend is not None:
            again_at[tid] = time.monotonic() + self.resend
        action = await ask(self.choose, view, legal, self.rng, own=self.own)
        if action is None:
            self.report.rejected["unsent"] = self.report.rejected.get("unsent", 0) + 1
            return
        self.report.actions_sent += 1
        await self.session.send({"type": "act", "table": tid, "state_id": view["state_id"],
                                 "action": action})
