"""Turn order and waiting sets, shared by every game.

Out-of-turn play is a set of seats being waited on, each with its own legal actions — never a
single "current player". A *reaction window* is such a set opened after an event that can be
answered; it lives in the state as a plain dict so it dumps and loads with everything else::

    {"trigger": {...what is being answered...}, "order": [seats in priority order],
     "pending": [seats not yet answered], "answers": [[seat, action], ...]}
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

Window = dict[str, Any]


def clockwise(start: int, n: int) -> list[int]:
    """All ``n`` seats in turn order beginning with ``start``."""
    return [(start + i) % n for i in range(n)]


def next_seat(seat: int, n: int, eligible: Callable[[int], bool] = lambda s: True) -> int | None:
    """The first eligible seat after ``seat`` in turn order (``seat`` itself last), or None."""
    for i in range(1, n + 1):
        candidate = (seat + i) % n
        if eligible(candidate):
            return candidate
    return None


def others_in_order(actor: int, n: int) -> list[int]:
    """Every seat but ``actor``, the one next to play after ``actor`` first."""
    return [(actor + i) % n for i in range(1, n)]


def open_window(trigger: dict[str, Any], seats: Iterable[int]) -> Window:
    """A reaction window over ``seats`` (in priority order) answering ``trigger``."""
    order = list(seats)
    return {"trigger": trigger, "order": order, "pending": list(order), "answers": []}


def answer(window: Window, seat: int, action: dict[str, Any]) -> None:
    """Record ``seat``'s answer (a reaction or a pass) and stop waiting for it."""
    window["pending"].remove(seat)
    window["answers"].append([seat, action])


def first_pending(window: Window) -> list[int]:
    """The seat asked now when answers are taken one at a time in priority order."""
    return window["pending"][:1]


def is_closed(window: Window | None) -> bool:
    """True when nobody is left to answer."""
    return window is None or not window["pending"]
