"""Helpers for Hexenhammer scenario tests: stack a position, play by card spec, let windows
close."""

from __future__ import annotations

from typing import Any

from hexnet.games.hexenhammer import GAME
from hexnet.games.hexenhammer.data import parse_spec
from hexnet.i18n import render

NAMES = ["Anna", "Bob", "Cleo", "Dora", "Emil"]


def start(scenario: dict[str, Any], players: int | None = None, seed: int = 1,
          **options: Any) -> dict[str, Any]:
    """A game stacked from ``scenario`` (players default to the number of villager rows)."""
    n = players or len(scenario["villagers"])
    return GAME.setup(NAMES[:n], seed, {"scenario": scenario, **options})


def card(state: dict[str, Any], seat: int, spec: str) -> str:
    """The id of a card matching ``spec`` in ``seat``'s hand."""
    want = parse_spec(spec)
    for cid in state["hands"][seat]:
        if tuple(state["cards"][cid]) == want:
            return cid
    raise AssertionError(f"seat {seat} holds no {spec}")


def play(state: dict[str, Any], seat: int, spec: str, **fields: Any) -> list[dict]:
    """``seat`` plays its card ``spec`` with ``fields`` (accuser, target, sign, other)."""
    return GAME.apply(state, seat, {"type": "play", "card": card(state, seat, spec), **fields})


def close_window(state: dict[str, Any]) -> None:
    """Everyone still asked in the open reaction window passes."""
    while state["window"] is not None:
        seat = state["window"]["pending"][0]
        GAME.apply(state, seat, {"type": "pass"})


def susp(state: dict[str, Any], vid: str) -> int:
    """A villager's suspicion."""
    return state["villagers"][vid]["suspicion"]


def texts(state: dict[str, Any], seat: int | None = None) -> list[str]:
    """The log sentences ``seat`` sees, in English."""
    return [render("hexenhammer", e, state["players"], "en")
            for e in GAME.view(state, seat)["log"]]


def scenario(rows: list[list[str]], hands: list[list[str]] | None = None, base: int = 2,
             **extra: Any) -> dict[str, Any]:
    """A scenario with every villager on a stake starting at ``base`` (``extra["start"]``
    overrides single villagers), the given hands and the rest of ``extra`` as scenario keys."""
    starts = {vid: base for row in rows for vid in row}
    starts.update(extra.pop("start", {}))
    sc: dict[str, Any] = {"villagers": rows, "start": starts,
                          "hands": hands or [[] for _ in rows]}
    sc.update(extra)
    return sc
