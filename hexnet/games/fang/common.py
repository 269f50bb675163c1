"""What every scene of Fang shares: who is a cat, scenes as waiting sets, hands, transitions.

A *scene* (``state["scene"]``) is one step of the day that waits for a set of seats:
``need`` are the seats whose input the scene still requires (it closes the moment ``need`` is
empty), ``choice[seat]`` is what a seat submitted, ``count[seat]`` how often it submitted.
In a *changeable* scene (place picks, proposal vote, vote) a seat that already submitted stays
waited on and may submit again — until the scene closes or it has submitted ``max_changes``
times; so every scene ends after at most ``seats × max_changes`` actions.
Optional powers (seer, pickpocket) add their seats to the waiting set without blocking a scene.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hexnet.engine import Event, State, emit
from hexnet.games.fang import data

CHANGEABLE = frozenset({"pick", "proposal_vote", "vote"})
CAT_FORM, FROG, BANISHED = "cat", "frog", "banished"

# scene name -> function that opens it (filled in by the scene modules)
STARTERS: dict[str, Callable[[State], None]] = {}


def starter(name: str) -> Callable[[Callable[[State], None]], Callable[[State], None]]:
    """Register the function that opens scene ``name``."""
    def register(fn: Callable[[State], None]) -> Callable[[State], None]:
        STARTERS[name] = fn
        return fn
    return register


def begin(state: State, name: str) -> None:
    """Open scene ``name`` (unless the game is over)."""
    if state.get("outcome") is None:
        STARTERS[name](state)


# --- who is what ----------------------------------------------------------------------------

def is_cat(state: State, seat: int) -> bool:
    """Whether ``seat`` is in cat form (neither frog nor banished)."""
    return state["form"][seat] == CAT_FORM


def cats(state: State) -> list[int]:
    """Seats in cat form, in seat order."""
    return [s for s, form in enumerate(state["form"]) if form == CAT_FORM]


def frogs(state: State) -> list[int]:
    """Seats that are frogs, in seat order."""
    return [s for s in range(state["n"]) if state["form"][s] == FROG]


def seats_with(state: State, role: str) -> list[int]:
    """Seats dealt ``role``."""
    return [s for s, r in enumerate(state["roles"]) if r == role]


def is_witch(state: State, seat: int) -> bool:
    """Whether ``seat`` is a Hexe (the crow is not)."""
    return state["roles"][seat] == data.WITCH


def holds_fluchkraut(state: State, seat: int) -> bool:
    """Witches and the crow always hold Fluchkraut."""
    return state["roles"][seat] in (data.WITCH, data.CROW)


def role_cat(state: State, role: str) -> int | None:
    """The seat with ``role`` if it is in cat form, else None."""
    form = state["form"]
    for s, r in enumerate(state["roles"]):
        if r == role and form[s] == CAT_FORM:
            return s
    return None


# --- scenes ---------------------------------------------------------------------------------

def new_scene(state: State, name: str, need: list[int], same_step: bool = False,
              **extra: Any) -> dict[str, Any]:
    """Open a scene waiting for ``need``; returns it (``extra`` keys are stored in it).

    ``same_step`` keeps the scene serial (and so the running deadline's key) of the scene
    before: for a step that others must not be able to tell apart from the previous one."""
    if not same_step:
        state["serial"] += 1
    n = state["n"]
    scene = {"name": name, "serial": state["serial"], "need": sorted(need),
             "count": [0] * n, "choice": [None] * n, **extra}
    state["scene"] = scene
    return scene


def submit(state: State, seat: int, choice: Any) -> None:
    """Record ``seat``'s choice in the current scene and stop requiring it."""
    scene = state["scene"]
    scene["choice"][seat] = choice
    scene["count"][seat] += 1
    if seat in scene["need"]:
        scene["need"].remove(seat)


def finalize(state: State, seat: int) -> None:
    """A changeable submission becomes final (the seat is no longer waited on for it)."""
    state["scene"]["count"][seat] = state["cfg"]["max_changes"]


def may_change(state: State, seat: int) -> bool:
    """Whether ``seat`` submitted in a changeable scene and may still change it."""
    scene = state["scene"]
    return (scene["name"] in CHANGEABLE and seat not in scene["need"]
            and 0 < scene["count"][seat] < state["cfg"]["max_changes"])


def power_seats(state: State) -> list[int]:
    """Seats that may use an optional power right now (seer, pickpocket)."""
    today = state["today"]
    seer_open = today.get("seer_open") and not today.get("seen")
    thief_open = today.get("thief_open") and not today.get("stolen")
    if not (seer_open or thief_open):  # most of the day: no power is open
        return []
    if state["form"].count(CAT_FORM) < 2:
        return []
    out = []
    if seer_open:
        seer = role_cat(state, data.SEER)
        if seer is not None:
            out.append(seer)
    if thief_open:
        thief = role_cat(state, data.PICKPOCKET)
        if thief is not None:
            out.append(thief)
    return out


def waiting(state: State) -> list[int]:
    """Every seat the game waits on now, sorted."""
    if state.get("outcome") is not None:
        return []
    scene = state["scene"]
    need = scene["need"]  # kept sorted: opened sorted, seats only leave it
    if scene["name"] in CHANGEABLE:  # and the seats that may still change theirs
        most = state["cfg"]["max_changes"]
        out = [s for s, k in enumerate(scene["count"]) if 0 < k < most or s in need]
    else:
        out = list(need)
    powers = power_seats(state)
    return sorted({*out, *powers}) if powers else out


def open_confirm(state: State, name: str, after: str) -> None:
    """A scene every seat (frogs and banished too) confirms; then scene ``after`` opens."""
    new_scene(state, name, list(range(state["n"])), after=after)


def apply_confirm(state: State, seat: int) -> None:
    """``seat`` confirmed; the last confirmation opens the next scene."""
    submit(state, seat, True)
    if not state["scene"]["need"]:
        begin(state, state["scene"]["after"])


# --- hands ----------------------------------------------------------------------------------

def give_card(state: State, seat: int, ingredient: str, spoiled: bool = False) -> None:
    """Put a fresh ingredient card in ``seat``'s hand; the oldest drops out past the limit."""
    state["next_card"] += 1
    add_card(state, seat, {"id": f"i{state['next_card']}", "ing": ingredient,
                           "spoiled": spoiled})


def add_card(state: State, seat: int, card: dict[str, Any]) -> None:
    """Append ``card`` to ``seat``'s hand, keeping at most ``hand_size`` (oldest drop)."""
    hand = state["hands"][seat]
    hand.append(card)
    del hand[:max(0, len(hand) - state["cfg"]["hand_size"])]


# --- small helpers --------------------------------------------------------------------------

def members_key(seats: list[int]) -> str:
    """The wire form of a set of seats: ``"0,3,5"``."""
    return ",".join(str(s) for s in sorted(seats))


def parse_members(text: str) -> list[int]:
    """The seats of a ``members_key`` string."""
    return [int(x) for x in text.split(",")] if text else []


def announce(state: State, key: str, **fields: Any) -> Event:
    """A public event ``key``; ``kind`` (the event's type, which clients and bots read) is
    the key unless given."""
    fields.setdefault("kind", key)
    return emit(state, key, **fields)


def remember(state: State, kind: str, **fields: Any) -> None:
    """Add an entry to the public record (``state["record"]``): the day's proposals with their
    votes, rituals, banishment votes and evenings, kept for the whole game (the log a view
    carries is only its last events). Entries are never changed once added: views share them."""
    copied = {k: list(v) if isinstance(v, list) else v for k, v in fields.items()}  # own lists:
    # an event made from the same fields must not share one with the state
    state.setdefault("record", []).append({"k": kind, "day": state["day"], **copied})


def tell(state: State, seats: list[int], key: str, **fields: Any) -> Event:
    """A private event ``key`` for ``seats`` only (``kind`` as in :func:`announce`)."""
    fields.setdefault("kind", key)
    return emit(state, key, to=sorted(seats), **fields)

