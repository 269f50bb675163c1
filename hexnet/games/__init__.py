"""The registry of games: ``get_game("hexenhammer")`` returns its engine."""

from __future__ import annotations

import importlib

from hexnet.engine import Game

# name -> module; each module defines GAME (its engine instance) and POLICIES (name -> choose).
_MODULES = {
    "hexenhammer": "hexnet.games.hexenhammer",
    "fang": "hexnet.games.fang",
    "hranice": "hexnet.games.hranice",
}


def names() -> list[str]:
    """Every game hexnet knows, by id."""
    return list(_MODULES)


def available() -> list[str]:
    """The games whose engine is installed and imports."""
    out = []
    for name in _MODULES:
        try:
            importlib.import_module(_MODULES[name])
        except ModuleNotFoundError:
            continue
        out.append(name)
    return out


def get_game(name: str) -> Game:
    """The engine of game ``name``; KeyError with the known names if there is none."""
    if name not in _MODULES:
        raise KeyError(f"No game called {name!r}; hexnet has: {', '.join(_MODULES)}.")
    return importlib.import_module(_MODULES[name]).GAME


def get_policy(game: str, policy: str):
    """A bot policy ``choose(view, legal_actions, rng) -> action`` for ``game``; ``tutorial``
    is the tutorials' predictable bots (:func:`hexnet.tutorial.tutorial_policy`).

    ``policy`` is a name (``heuristic``) or, for a policy with a budget, name and budget:
    ``search@0.5s`` (think time) or ``search@200p`` (playouts, reproducible). (``:`` is taken:
    ``MODULE:FUNCTION`` names a user's own policy, see :mod:`hexnet.policies`.)"""
    if policy == "tutorial" and game in _MODULES:
        from hexnet.tutorial import tutorial_policy

        return tutorial_policy(game, get_policy(game, "heuristic"))
    module = importlib.import_module(_MODULES[game])
    policies = module.POLICIES
    name, _, budget = policy.partition("@")
    if name not in policies:
        raise KeyError(f"No bot policy {name!r} for {game}; there are: {', '.join(policies)}.")
    chosen = policies[name]
    if not budget:
        return chosen
    if not hasattr(chosen, "configured"):
        raise KeyError(f"The {name!r} bot takes no budget (only search does).")
    from hexnet.search import parse_budget

    try:
        return chosen.configured(parse_budget(budget))
    except ValueError as exc:
        raise KeyError(f"Bad bot budget in {policy!r}: {exc}.") from None
