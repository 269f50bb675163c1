"""Guided first games: ``hexnet play GAME --tutorial``.

A tutorial is data and two small functions:

- ``seeds/tutorials/<game>.toml`` — the table: how many seats, which one is yours, the seed, the
  options (a stacked position, ``scenario``, and timers long enough to read the hints) and, per
  bot seat, a few scripted choices (``[script.<seat>]``: an action type → the fields that
  action takes when it is legal, e.g. ``pick = {place = "wald"}``).
- ``hexnet.games.<game>.tutorial.hint(view, legal)`` — the hint for the player's view now: a
  message key of the game's catalog (context ``hint``) and its arguments, or None. Hints are
  worked out from the view and its log (the events), never from the screen, so every table
  screen shows them alike and they read in every language the catalogs speak. At the end the
  hint explains the scoring from the outcome.

The position is stacked by the host's own code (a local option: a networked table can never
ask for one). The bots play predictably: a scripted choice where the tutorial gives one, else
the game's heuristic with a generator seeded from the seat and the position — the same game
every time the player makes the same choices.
"""

from __future__ import annotations

import functools
import importlib
import random
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from hexnet import i18n

Action = dict[str, Any]
Policy = Callable[[Mapping[str, Any], list[Action], random.Random], Action]
CONTEXT = "hint"  # the catalogs' context of tutorial hints


@dataclass(frozen=True)
class Tutorial:
    """One game's tutorial table (``seeds/tutorials/<game>.toml``)."""

    game: str
    seats: int
    seat: int  # the player's
    seed: int
    options: dict[str, Any]
    script: dict[int, dict[str, dict[str, Any]]] = field(default_factory=dict)


def available() -> list[str]:
    """The games that have a tutorial."""
    folder = resources.files("seeds").joinpath("tutorials")
    return sorted(p.name.removesuffix(".toml") for p in folder.iterdir()
                  if p.name.endswith(".toml"))


@functools.cache
def load(game: str) -> Tutorial:
    """The tutorial of ``game`` (FileNotFoundError if it has none)."""
    text = resources.files("seeds").joinpath("tutorials", f"{game}.toml").read_text("utf-8")
    raw = tomllib.loads(text)
    return Tutorial(game=game, seats=int(raw["seats"]), seat=int(raw.get("seat", 0)),
                    seed=int(raw["seed"]), options=dict(raw.get("options", {})),
                    script={int(k): dict(v) for k, v in raw.get("script", {}).items()})


def hint_function(game: str) -> Callable[[Mapping[str, Any], list[Action]], Any]:
    """``hexnet.games.<game>.tutorial.hint``."""
    return importlib.import_module(f"hexnet.games.{game}.tutorial").hint


def hint(game: str, view: Mapping[str, Any], legal: list[Action]) -> dict[str, Any] | None:
    """The hint for ``view`` (the player's) with its ``legal`` actions, as data:
    ``{"key": ..., **args}``; None where there is nothing to say."""
    try:
        return hint_function(game)(view, legal)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        return None  # a view the hints did not foresee: say nothing rather than fail


def hint_text(game: str, view: Mapping[str, Any], legal: list[Action],
              lang: str | None = None) -> str:
    """The hint in words (the reader's language), "" if there is none."""
    found = hint(game, view, legal)
    if not found:
        return ""
    return i18n.fill(game, CONTEXT, found.get("key"), found, view.get("players") or [], lang)


def say(key: str, **args: Any) -> dict[str, Any]:
    """A hint: the catalog key (context ``hint``) and its arguments. The catalog check finds
    the keys of every ``say("…")`` in a game's ``tutorial.py``."""
    return {"key": key, **args}


def steady_rng(view: Mapping[str, Any]) -> random.Random:
    """A generator for one decision, seeded from the seat and the position only (so the bots
    choose alike however the player's and their own moves interleave in time)."""
    return random.Random(f"{view.get('game')}/{view.get('seat')}/{view.get('state_id')}")


def tutorial_policy(game: str, heuristic: Policy) -> Policy:
    """The tutorial bots of ``game``: the script's choice where one is legal, else
    ``heuristic`` (the game's) with a :func:`steady_rng`."""
    try:
        script = load(game).script
    except FileNotFoundError:
        script = {}

    def choose(view: Mapping[str, Any], legal: list[Action], rng: random.Random) -> Action:
        mine = script.get(view.get("seat"), {})  # type: ignore[arg-type]
        for action in legal:
            wanted = mine.get(str(action.get("type")))
            if wanted is not None and all(action.get(k) == v for k, v in wanted.items()):
                return action
        return heuristic(view, legal, steady_rng(view))

    return choose
