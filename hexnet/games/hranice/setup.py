"""Setting up a game: the deal, the target, the options, and test scenarios.

``options["scenario"]`` stacks a position instead of the random deal (see the rules text,
"Scenarios"): named card kinds are taken from the deck copy by copy, the rest is shuffled.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hexnet import rng
from hexnet.engine import IllegalAction, State, emit
from hexnet.games.hranice import cards

SEAT_LISTS = ("hands", "councils", "burned")


# each option's default (from the seed table), given the state
_DEFAULTS: dict[str, Callable[[State], Any]] = {
    "variant": lambda state: "standard",
    "variant_step": lambda state: 1,
    "manual_flip": lambda state: False,
    "reaction_seconds": lambda state: cards.rule("reaction_seconds"),
    "turn_seconds": lambda state: 0,
    "ask_holders_only": lambda state: False,
    "turn_cap": lambda state: cards.rule("turn_cap_rounds") * len(state["players"]),
}
_FLAGS = frozenset({"manual_flip", "ask_holders_only"})


def option(state: State, key: str) -> Any:
    """One option, its default filled in (``options_of(state)[key]`` without the others)."""
    opts = state["options"]
    value = opts[key] if key in opts else _DEFAULTS[key](state)
    return bool(value) if key in _FLAGS else value


def options_of(state: State) -> dict[str, Any]:
    """The options with their defaults filled in."""
    return {key: option(state, key) for key in _DEFAULTS}


def _check_options(state: State) -> None:
    opts = options_of(state)
    if opts["variant"] not in cards.data()["variants"]:
        raise IllegalAction("no_variant", variant=str(opts["variant"]),
                            variants=list(cards.data()["variants"]))
    if opts["variant_step"] not in (1, 2):
        raise IllegalAction("variant_step")
    if not isinstance(opts["turn_cap"], int) or opts["turn_cap"] < 1:
        raise IllegalAction("turn_cap_positive")


def setup(state: State) -> None:
    """Fill a fresh ``state`` (players, rng, options already set) with a dealt game."""
    _check_options(state)
    n = len(state["players"])
    opts = options_of(state)
    scenario = state["options"].get("scenario")
    state.update({
        "hands": [[] for _ in range(n)], "councils": [[] for _ in range(n)],
        "burned": [[] for _ in range(n)], "pyre": [], "pile": [], "discard": [],
        "tokens": [False] * n, "dice": [],
        "target": cards.target_for(n, opts["variant"], opts["variant_step"]),
        "turn": 0, "actions_left": 0, "turns": 0, "first_player": 0,
        "step": None, "window": None, "window_serial": 0, "outcome": None,
    })
    if scenario is None:
        pile = list(cards.deck())
        rng.shuffle(state, pile)
        state["pile"] = pile
        for seat in range(n):
            state["hands"][seat] = pile[:cards.rule("deal")]
            del pile[:cards.rule("deal")]
        first = rng.below(state, n)
    else:
        first = _stack(state, scenario, n)
    state["first_player"] = first
    emit(state, "setup", kind="setup", count=n, target=state["target"], first=first)


def _stack(state: State, scenario: dict[str, Any], n: int) -> int:
    """Build the scenario's position; return the first player."""
    free = list(cards.deck())

    def take(kind: str) -> str:
        for card in free:
            if cards.kind_of(card) == kind:
                free.remove(card)
                return card
        raise IllegalAction("scenario_no_copy", kind=str(kind))

    for key in SEAT_LISTS:
        rows = scenario.get(key, [])
        if len(rows) > n:
            raise IllegalAction("scenario_too_many_seats", key=key)
        for seat, kinds in enumerate(rows):
            for kind in kinds:
                card = take(kind)
                if key != "hands" and cards.type_of(card) != "citizen":
                    raise IllegalAction("scenario_not_citizen", kind=str(kind))
                state[key][seat].append(card)
    state["pyre"] = [take(k) for k in scenario.get("pyre", [])]
    if any(cards.type_of(c) != "citizen" for c in state["pyre"]):
        raise IllegalAction("scenario_pyre")
    state["discard"] = [take(k) for k in scenario.get("discard", [])]
    top = [take(k) for k in scenario.get("pile", [])]
    rng.shuffle(state, free)
    rest = scenario.get("rest", "pile")
    if rest == "pile":
        state["pile"] = top + free
    elif rest == "discard":
        state["pile"] = top
        state["discard"] += free
    elif rest == "box":
        state["pile"] = top
        state["box"] = sorted(free)
    else:
        raise IllegalAction("scenario_rest")
    if "hands" not in scenario:
        for seat in range(n):
            state["hands"][seat] = state["pile"][:cards.rule("deal")]
            del state["pile"][:cards.rule("deal")]
    state["tokens"] = [bool(t) for t in scenario.get("tokens", [False] * n)][:n]
    state["tokens"] += [False] * (n - len(state["tokens"]))
    state["dice"] = [int(d) for d in scenario.get("dice", [])]
    first = scenario.get("first_player", 0)
    if not isinstance(first, int) or not 0 <= first < n:
        raise IllegalAction("scenario_first_player")
    return first
