"""Helpers for Hranice scenario tests: build a stacked position and play it."""

from __future__ import annotations

from typing import Any

from hexnet.games.hranice import GAME
from hexnet.i18n import render

NAMES = ["Anna", "Bedřich", "Cyril", "Dana", "Eva", "Filip"]


def scene(players: int = 2, seed: int = 1, **scenario: Any) -> dict[str, Any]:
    """A game of ``players`` from the scenario fields given (options via ``options=``)."""
    options = dict(scenario.pop("options", {}))
    options["scenario"] = scenario
    return GAME.setup(NAMES[:players], seed, options)


def act(state: dict[str, Any], seat: int, **action: Any) -> None:
    """Apply ``{"type": ..., **fields}`` for ``seat``."""
    GAME.apply(state, seat, action)


def settle(state: dict[str, Any]) -> list[int]:
    """Pass every open reaction prompt; return the seats asked, in order."""
    asked = []
    while state["window"] is not None and state["window"]["pending"]:
        seat = state["window"]["pending"][0]
        asked.append(seat)
        GAME.apply(state, seat, {"type": "pass"})
    return asked


def kinds(cards: list[str]) -> list[str]:
    """Physical ids to kinds (``kovar-2`` → ``kovar``)."""
    return [c.rsplit("-", 1)[0] for c in cards]


def texts(state: dict[str, Any], seat: int | None = None) -> list[str]:
    """The log lines ``seat`` may see (all lines if None), in English."""
    return [render("hranice", e, state["players"], "en") for e in state["log"]
            if seat is None or "to" not in e or seat in e["to"]]
