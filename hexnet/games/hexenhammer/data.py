"""Hexenhammer as data: the villagers, stakes and accusation cards of ``seeds/hexenhammer.toml``.

Everything here is read once at import and never changes; the engine modules look up villagers
and card kinds by id in the dicts below.
"""

from __future__ import annotations

from typing import Any

from hexnet.engine import IllegalAction
from hexnet.seeds import table

TABLE: dict[str, Any] = table("hexenhammer")
RULES: dict[str, Any] = TABLE["rules"]
HAND_SIZE: int = RULES["hand_size"]
PER_PLAYER: int = RULES["villagers_per_player"]
TOP: int = RULES["stake_top"]

VILLAGERS: dict[str, dict[str, Any]] = {v["id"]: v for v in TABLE["villagers"]}
CARDS: dict[str, dict[str, Any]] = {c["id"]: c for c in TABLE["cards"]}

BROWN = frozenset(k for k, c in CARDS.items() if c["colour"] == "brown")
TRIALS = frozenset(k for k, c in CARDS.items() if c["colour"] == "green")
REACTIONS = frozenset(k for k, c in CARDS.items() if c.get("reaction"))
# cards a seat plays on its own initiative (not in answer to something)
ACTIVE_KINDS = frozenset(k for k in CARDS if k not in REACTIONS)
PHASES: dict[str, frozenset[int]] = {k: frozenset(c["phases"]) for k, c in CARDS.items()}


def villagers_for(players: int) -> list[str]:
    """The villager ids used with ``players`` players, in table order."""
    out: list[str] = []
    for size, ids in sorted(TABLE["sets"].items(), key=lambda kv: int(kv[0])):
        if int(size) <= players:
            out.extend(ids)
    return out


def stake_pool() -> list[int]:
    """The starting values of all 15 stake cards."""
    return [s["start"] for s in TABLE["stakes"] for _ in range(s["copies"])]


def full_deck() -> list[tuple[str, int]]:
    """All 78 accusation cards as (kind, value), in table order."""
    out: list[tuple[str, int]] = []
    for c in TABLE["cards"]:
        for value, copies in zip(c["values"], c["copies"], strict=True):
            out.extend((c["id"], value) for _ in range(copies))
    return out


def parse_spec(spec: str) -> tuple[str, int]:
    """A card spec ``"beweys:2"`` / ``"ableugnung"`` as (kind, signed value).

    The number is the absolute value; kinds with one value may omit it. IllegalAction if
    unknown.
    """
    kind, _, number = spec.partition(":")
    card = CARDS.get(kind)
    if card is None:
        raise IllegalAction("scenario_no_kind", kind=kind)
    values = card["values"]
    if not number:
        if len(values) != 1:
            raise IllegalAction("scenario_value_needed", kind=kind)
        return kind, values[0]
    for v in values:
        if str(abs(v)) == number.lstrip("+-"):
            return kind, v
    raise IllegalAction("scenario_no_value", kind=kind, number=number)
