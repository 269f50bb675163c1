"""The upstream schedule of secret steps: a client's side of the traffic rule
(:mod:`protocol.traffic`).

While a table's frames say a secret step is open (``secret`` {key, every}), this session sends
to that table on a clock of its own, drawn the same way whatever its seat's role and choice: a
first slot at a uniformly random offset in ``[0, every)`` after the frame that opened the step,
then a slot every ``every`` seconds until a frame shows no step (consecutive steps keep the
clock). Each slot carries the next message waiting — an ``act`` for the table, or a chat line —
else a ``cover`` {table, key}; every frame after auth has the same padded length (256 bytes for
an action, a cover and a short chat line), so a slot says nothing of what it carried.

* An ``act`` for a table in a step waits for the next slot; one still waiting when the step
  closes was chosen in it and is dropped — the session yields a ``rejected`` ``too_late`` for
  it (as the host would have), since sending it after the close would single out a seat that
  acted late at a secret step.
* A slot that cannot be sent (the connection lost, or being made again: nothing after auth goes
  on a connection still shaking hands, :mod:`client.session`) stops the clock; the action it
  carried waits on, and the first frame after the session is back starts the clock again.
* Chat at a step rides in its slots. A line on a private channel (the witches') outside any
  step is held until one opens (the next secret step of the game), so a whisper never leaves
  on its own clock; table chat outside a step goes at once (it is public anyway).
* An emote for a table in a step is never sent (the screens refuse it first, the host would
  too: :mod:`host.emotes`).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from client.errors import SessionError

SLOT_RANGE = (0.05, 2.0)  # the slot periods a client accepts from a host (seconds)


@dataclass
class Step:
    """One table's open secret step: its key and period, and what waits for a slot."""

    key: str
    every: float
    waiting: deque[dict[str, Any]] = field(default_factory=deque)
    task: asyncio.Task[None] | None = None
    open: bool = True


class Slots:
    """A session's secret-step schedules, one per table in a step. ``send`` writes one message
    (padded)."""

    def __init__(self, send: Callable[[dict[str, Any]], Awaitable[None]],
                 rng: random.Random | None = None) -> None:
        self.send = send
        self.rng = rng or random.SystemRandom()
        self.steps: dict[int, Step] = {}
        self.held: list[dict[str, Any]] = []  # private chat waiting for a step to open
        self.tasks: set[asyncio.Task[None]] = set()
        self.sent = 0  # slots sent (covers included): for tests and figures

    def frame(self, table: int, secret: dict[str, Any] | None) -> list[dict[str, Any]]:
        """A ``view`` frame of ``table`` arrived, saying whether a step is open (``secret``);
        the messages it stands for besides its own (a ``rejected`` for an action that came too
        late), to follow them."""
        step = self.steps.get(table)
        if secret is None:
            return self._close(table, step) if step is not None else []
        every = min(max(float(secret["every"]), SLOT_RANGE[0]), SLOT_RANGE[1])
        if step is None:
            step = self.steps[table] = Step(str(secret["key"]), every)
            step.waiting.extend(self.held)
            self.held.clear()
        step.key, step.every = str(secret["key"]), every
        if step.task is None or step.task.done():  # new, or back after a lost connection
            step.task = self._spawn(self._run(table, step))
        return []

    def take(self, msg: dict[str, Any]) -> bool:
        """Whether ``msg`` waits for a slot (or for a step) instead of leaving now."""
        kind = msg.get("type")
        if kind == "emote" and msg.get("table") in self.steps:
            return True  # dropped: never sent in a step (its moment could tell who is awake)
        if kind == "act":
            step = self.steps.get(msg["table"])
            if step is None:
                return False
            step.waiting.append(msg)
            return True
        if kind != "chat" or msg.get("channel") == "lobby":
            return False
        step = next(iter(self.steps.values()), None)  # a player sits at one table
        if step is not None:
            step.waiting.append(msg)
            return True
        if msg.get("channel") != "table":
            self.held.append(msg)
            return True
        return False

    def close(self) -> None:
        """Stop every schedule (the session closes)."""
        for task in list(self.tasks):
            task.cancel()
        self.steps.clear()

    def _close(self, table: int, step: Step) -> list[dict[str, Any]]:
        """The step at ``table`` closed: its clock stops, what still waits is settled."""
        del self.steps[table]
        step.open = False
        late: list[dict[str, Any]] = []
        told: list[dict[str, Any]] = []
        for msg in step.waiting:
            if msg["type"] == "act":
                told.append({"type": "rejected", "table": table, "code": "too_late",
                           "message": "Too late: the step closed before your answer's turn to "
                                      "be sent came.",
                           "reason": {"key": "too_late", "args": {}}})
            elif msg.get("channel") == "table":
                late.append(msg)
            else:
                self.held.append(msg)
        if late:
            self._spawn(self._send_all(late))
        return told

    async def _run(self, table: int, step: Step) -> None:
        """The step's clock: a slot at a random offset, then one every period."""
        loop = asyncio.get_running_loop()
        at = loop.time() + self.rng.uniform(0, step.every)
        with contextlib.suppress(SessionError):
            while step.open:
                await asyncio.sleep(max(0.0, at - loop.time()))
                if not step.open:
                    return
                msg = (step.waiting.popleft() if step.waiting
                       else {"type": "cover", "table": table, "key": step.key})
                try:
                    await self.send(msg)
                except SessionError:
                    if msg["type"] != "cover" and step.open:  # it waits for the slots that
                        step.waiting.appendleft(msg)  # start again once connected again
                    raise
                self.sent += 1
                at += step.every
                behind = loop.time() - at
                if behind > 0:  # (the loop was held up) keep the phase, skip missed slots
                    at += step.every * (behind // step.every + 1)

    async def _send_all(self, msgs: list[dict[str, Any]]) -> None:
        with contextlib.suppress(SessionError):
            for msg in msgs:
                await self.send(msg)

    def _spawn(self, coro: Any) -> asyncio.Task[None]:
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task
