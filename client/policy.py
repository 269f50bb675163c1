"""Asking a bot client's policy for its choice.

A built-in policy is called directly. A policy from the user's own module (``--policy
MODULE:FUNCTION``) runs in a thread of its own, so a slow one does not stall the connection (its
heartbeat goes on, the host's timers run as for any player, and a late answer is refused as
stale); it is shown a copy of the seat's view, and an answer that raised or cannot be sent as an
action is reported on stderr and not sent (the seat then waits, as a player who did not answer).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import random
import sys
import threading
from collections.abc import Callable
from typing import Any

from hexnet.engine import IllegalAction, check_action_shape
from hexnet.policies import Policy


def _in_thread(fn: Callable[[], Any]) -> asyncio.Future[Any]:
    """``fn()`` in a daemon thread (one that never returns cannot keep the bot from exiting)."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[Any] = loop.create_future()

    def settle(result: Any, error: BaseException | None) -> None:
        if future.done():
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)

    def work() -> None:
        try:
            result, error = fn(), None
        except Exception as exc:  # noqa: BLE001 - handed to the waiting coroutine
            result, error = None, exc
        with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits any more
            loop.call_soon_threadsafe(settle, result, error)

    threading.Thread(target=work, daemon=True, name="hexnet-policy").start()
    return future


async def ask(choose: Policy, view: dict[str, Any], legal: list[dict[str, Any]],
              rng: random.Random, *, own: bool,
              say: Callable[[str], None] | None = None) -> dict[str, Any] | None:
    """The policy's action, or None when it raised or answered something that is no action."""
    if not own:
        return choose(view, legal, rng)
    say = say or (lambda line: print(line, file=sys.stderr, flush=True))
    shown, options = copy.deepcopy(view), copy.deepcopy(legal)
    try:
        action = await _in_thread(lambda: choose(shown, options, rng))
    except Exception as exc:  # noqa: BLE001 - the user's code: report, do not crash the bot
        say(f"hexnet bot: the policy raised {type(exc).__name__}: {exc}")
        return None
    try:
        check_action_shape(action)
    except IllegalAction as exc:
        say(f"hexnet bot: the policy's answer {action!r:.80} is no action ({exc.reason}); "
            "not sent")
        return None
    return dict(action)
