"""The Hranice deck as data (``seeds/hranice.toml``): card kinds and their physical copies.

A card kind is an id of the rules digest (``"kovar"``); a physical card is ``"<kind>-<copy>"``
(``"kovar-2"``). Hands, councils, the pyre and the piles hold physical cards; actions name a
card in hand by its kind and a citizen on the table by its physical id.
"""

from __future__ import annotations

import functools
from typing import Any

from hexnet.seeds import table

TYPES = ("citizen", "action", "reaction")


@functools.cache
def data() -> dict[str, Any]:
    """The parsed ``seeds/hranice.toml`` (shared: never mutate)."""
    return table("hranice")


@functools.cache
def rule(key: str) -> Any:
    """A number from the ``[game]`` table (hand limit, deal, …)."""
    return data()["game"][key]


@functools.cache
def kinds() -> dict[str, dict[str, Any]]:
    """Every card kind by id, each with its ``type`` (citizen / action / reaction)."""
    out: dict[str, dict[str, Any]] = {}
    for type_ in TYPES:
        for row in data()[type_]:
            out[row["id"]] = {**row, "type": type_}
    return out


@functools.cache
def deck() -> tuple[str, ...]:
    """One id per physical card, in table order (60 cards)."""
    return tuple(f"{k}-{i}" for k, row in kinds().items() for i in range(1, row["copies"] + 1))


def kind_of(card: str) -> str:
    """The kind of a physical card (``"kovar-2"`` → ``"kovar"``); a kind maps to itself."""
    kind = _kinds_of().get(card)
    return kind if kind is not None else card.rsplit("-", 1)[0]


@functools.cache
def _kinds_of() -> dict[str, str]:
    # every known id looked up once (this runs for every card of every listing)
    return {**{kind: kind for kind in kinds()}, **{c: c.rsplit("-", 1)[0] for c in deck()}}


@functools.cache
def info(card: str) -> dict[str, Any]:
    """The table row of a card (physical id or kind; shared: never mutate)."""
    return kinds()[kind_of(card)]


def type_of(card: str) -> str:
    """``"citizen"``, ``"action"`` or ``"reaction"``."""
    return info(card)["type"]


@functools.cache  # (asked for every citizen of every council at every step of a playout)
def influence(card: str) -> int:
    """A citizen's influence (= its victory points = its base defence); 0 for other cards."""
    return info(card).get("influence", 0)


@functools.cache
def influences() -> dict[str, int]:
    """:func:`influence` of every physical card and kind, as one table (for the hot loops)."""
    return {card: influence(card) for card in (*kinds(), *deck())}


@functools.cache
def bonuses(key: str) -> dict[str, int]:
    """Every physical card's and kind's ability ``key`` as a number (``defence_bonus``,
    ``accuse_bonus``, …; 0 if none), as one table."""
    return {card: int(ability(card, key)) for card in (*kinds(), *deck())}


@functools.cache
def having(key: str) -> frozenset[str]:
    """The physical cards and kinds whose ability ``key`` is set (``guarded``, a
    ``defence_bonus``, …): one set test in the hot loops instead of a lookup a card."""
    return frozenset(card for card in (*kinds(), *deck()) if ability(card, key))


@functools.cache
def ability(card: str, key: str) -> Any:
    """A citizen's ability value (``defence_bonus``, ``accuse_bonus``, …), 0/False if none."""
    return info(card).get(key, 0)


def target_for(players: int, variant: str = "standard", step: int = 1) -> int:
    """The influence needed to win for ``players`` in ``variant`` (quick/long move by ``step``)."""
    row = data()["variants"][variant]
    if "target" in row:
        return int(row["target"])
    return int(data()["targets"][str(players)]) + int(row["delta"]) * step
