"""Fang die Hexe as data: the tables of ``seeds/fang.toml`` and the lookups the rules need."""

from __future__ import annotations

import functools
from typing import Any

from hexnet.seeds import table

GAME_ID = "fang"
TIMER_KEYS = ("pick", "witches", "talk", "proposal", "proposal_vote", "vote", "pause")
ALWAYS_TIMED = ("witches", "pause")

VILLAGE, WITCHES, FOOL = "village", "witches", "fool"
WITCH, CROW, FOOL_ROLE = "hexe", "kraehe", "narr"
SEER, PROTECTOR, HERBALIST, PICKPOCKET, CAT = (
    "seherin", "beschuetzer", "kraeuterkundige", "taschendieb", "dorfkatze")
VERDERBEN, FLUCH, DOPPELSCHLAG = "verderben", "fluch", "doppelschlag"
NO_SPELL = "none"
EMPTY_HAND = "empty"


def tab() -> dict[str, Any]:
    """The parsed ``seeds/fang.toml``."""
    return table(GAME_ID)


def fluchkraut() -> str:
    """The name of the witches' unlimited sabotage herb."""
    return tab()["game"]["fluchkraut"]


def role_ids() -> list[str]:
    """Every role id."""
    return list(tab()["roles"])


def side_of(role: str) -> str:
    """``village``, ``witches`` or ``fool``."""
    return tab()["roles"][role]["side"]


def role_name(role: str) -> str:
    """The role's German name."""
    return tab()["roles"][role]["name"]


def deals() -> list[str]:
    """The role tables a table may deal by (option ``deal``), in the file's order."""
    return list(tab()["deals"])


def default_deal() -> str:
    """The role table a table deals by unless it chooses another (``[game] deal``)."""
    return str(tab()["game"]["deal"])


def _changes(deal: str) -> dict[str, Any]:
    """What role table ``deal`` changes from Part B's (``[deals.<deal>]``: ``roles`` and
    ``numbers`` by player count; only the counts it changes)."""
    return tab()["deals"].get(deal, {})


def deal_for(players: int, deal: str | None = None) -> list[str]:
    """The full role list for ``players`` seats (specials first, then Dorfkatzen) by the role
    table ``deal`` (table option ``deal``; default :func:`default_deal`): ``[deal]`` with the
    role lists of ``[deals.<deal>.roles]``, which lists only the player counts it changes."""
    changed = _changes(deal or default_deal()).get("roles", {})
    special = list(changed.get(str(players), tab()["deal"][str(players)]))
    return special + [CAT] * (players - len(special))


def band(players: int, deal: str | None = None) -> dict[str, Any]:
    """Seals, knights' day, curse bar and circle sizes for ``players`` seats by the role table
    ``deal``: the ``[[bands]]`` row with the numbers ``[deals.<deal>.numbers.<players>]``
    changes."""
    for row in tab()["bands"]:
        if players in row["players"]:
            changed = _changes(deal or default_deal()).get("numbers", {})
            return {**row, **changed.get(str(players), {})}
    raise KeyError(players)


def places() -> list[dict[str, Any]]:
    """All places in opening order."""
    return tab()["places"]


def place_ids() -> list[str]:
    """All place ids in opening order."""
    return [p["id"] for p in places()]


def open_places(day: int) -> list[str]:
    """The places open on ``day`` (1-based)."""
    return list(_open_places(day))


@functools.lru_cache(maxsize=64)
def _open_places(day: int) -> tuple[str, ...]:
    counts = tab()["opening"]["open_places"]
    return tuple(place_ids()[:counts[min(day, len(counts)) - 1]])


def ingredient_at(place: str) -> str | None:
    """The ingredient collected at ``place`` (None for the pond)."""
    return _ingredients().get(place)


@functools.cache
def _ingredients() -> dict[str, str]:
    return {p["id"]: p["ingredient"] for p in places()}


def ingredient_ids() -> list[str]:
    """Every collectable ingredient, in place order."""
    return [p["ingredient"] for p in places()]


def pond() -> str:
    """The pond's id."""
    return tab()["pond"]["id"]


def spells_unlocked(failed_rituals: int) -> list[str]:
    """The spells open after ``failed_rituals`` rituals failed at the ritual, in table order."""
    return list(_spells_unlocked(failed_rituals))


@functools.lru_cache(maxsize=64)
def _spells_unlocked(failed_rituals: int) -> tuple[str, ...]:
    return tuple(s["id"] for s in tab()["spells"] if failed_rituals >= s["unlock"])


def timer_default(key: str) -> float:
    """The default length of timer ``key`` in seconds."""
    return float(tab()["timers"][key])
