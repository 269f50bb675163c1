"""Building Fang positions for tests and driving whole scenes with named choices."""

from __future__ import annotations

from typing import Any

from hexnet.engine import State
from hexnet.games.fang import GAME
from hexnet.games.fang.data import open_places
from hexnet.i18n import render

FIVE = ["hexe", "seherin", "beschuetzer", "dorfkatze", "dorfkatze"]
EIGHT = ["hexe", "hexe", "kraehe", "seherin", "beschuetzer", "kraeuterkundige", "taschendieb",
         "dorfkatze"]
NINE = EIGHT[:-1] + ["narr", "dorfkatze"]


def table(roles: list[str], seed: int = 1, options: dict[str, Any] | None = None,
          **scenario: Any) -> State:
    """A game with ``roles`` per seat at the morning of ``scenario.get('day', 1)``."""
    opts = dict(options or {})
    opts["scenario"] = {"roles": roles, **scenario}
    return GAME.setup([f"p{i}" for i in range(len(roles))], seed, opts)


def act(state: State, seat: int | None, **action: Any) -> None:
    """Apply ``action`` for ``seat`` (must be legal)."""
    GAME.apply(state, seat, action)


def scene(state: State) -> str:
    """The current scene's name."""
    return state["scene"]["name"]


def pick_all(state: State, picks: dict[int, Any] | None = None, default: str = "wald") -> None:
    """Every non-witch picker picks: ``picks[seat]`` is a place, ``("restore", f)`` or
    ``"guard"``; the rest go to ``default``."""
    picks = picks or {}
    for seat in list(state["scene"]["need"]):
        choice = picks.get(seat, default)
        if choice == "guard":
            act(state, seat, type="guard")
        elif isinstance(choice, tuple):
            act(state, seat, type="restore", frog=choice[1])
        else:
            act(state, seat, type="pick", place=choice)


def witch(state: State, seat: int, place: str, spell: str = "none",
          target: int | None = None, target2: int | None = None) -> None:
    """A witch's whole turn in the window."""
    act(state, seat, type="witch_place", place=place)
    act(state, seat, type="spell", spell=spell)
    if target is None:
        act(state, seat, type="no_attack")
        return
    act(state, seat, type="attack", target=target)
    if spell == "doppelschlag":
        if target2 is None:
            act(state, seat, type="no_attack")
        else:
            act(state, seat, type="attack", target=target2)


def witches_idle(state: State, place: str = "muehle") -> None:
    """Every witch still in the window goes to ``place`` without spell or attack."""
    for seat in list(state["scene"]["need"]):
        witch(state, seat, place if place in state_places(state) else "teich")


def state_places(state: State) -> list[str]:
    """Today's open places."""
    return open_places(state["day"])


def confirm_all(state: State) -> None:
    """Everyone confirms the current scene."""
    for seat in list(state["scene"]["need"]):
        act(state, seat, type="confirm")


def end_talk(state: State) -> None:
    """Every cat ends the talk."""
    for seat in list(state["scene"]["need"]):
        act(state, seat, type="end_talk")


def to_night(state: State, picks: dict[int, Any] | None = None) -> None:
    """From the morning's pick scene through a quiet day to the chief's proposal."""
    pick_all(state, picks)
    if scene(state) == "guard":
        act(state, state["scene"]["need"][0], type="guard",
            place=[p for p in state_places(state) if p != state["guard_last"]][0])
    witches_idle(state)
    confirm_all(state)
    end_talk(state)


def members(seats: list[int]) -> str:
    return ",".join(str(s) for s in sorted(seats))


def propose(state: State, seats: list[int]) -> None:
    """The chief proposes ``seats``."""
    act(state, state["scene"]["need"][0], type="propose", members=members(seats))


def vote_proposal(state: State, no: tuple[int, ...] = ()) -> None:
    """Every cat votes on the proposal: yes unless in ``no``."""
    for seat in list(state["scene"]["need"]):
        act(state, seat, type="vote_proposal", yes=seat not in no)


def lay_first(state: State) -> None:
    """Every ritual member lays their first possible card."""
    for seat in list(state["scene"]["need"]):
        act(state, seat, **GAME.legal_actions(state, seat)[0])


def lay(state: State, seat: int, ingredient: str) -> None:
    """``seat`` lays a card of ``ingredient`` (or fluchkraut / empty)."""
    for card in state["hands"][seat]:
        if card["ing"] == ingredient:
            act(state, seat, type="lay", card=card["id"])
            return
    act(state, seat, type="lay", card=ingredient)


def vote(state: State, votes: dict[int, int | None]) -> None:
    """Every cat votes: ``votes[seat]`` a target, None or missing = abstain."""
    for seat in list(state["scene"]["need"]):
        target = votes.get(seat)
        if target is None:
            act(state, seat, type="abstain")
        else:
            act(state, seat, type="vote", target=target)


def pass_pause(state: State) -> None:
    """Let the "who was it?!" pause expire."""
    act(state, None, type="timeout", key=GAME.deadline(state).key)


def absent(state: State, seat: int) -> None:
    """The host marks ``seat`` absent."""
    GAME.apply(state, None, {"type": "absent", "seat": seat})


def timeout(state: State) -> None:
    """The host lets the running deadline expire."""
    GAME.apply(state, None, {"type": "timeout", "key": GAME.deadline(state).key})


def to_vote(state: State, picks: dict[int, Any] | None = None) -> None:
    """Through a quiet day and three rejected proposals (curse bar full) to the vote."""
    to_night(state, picks)
    while scene(state) != "vote":
        act(state, state["scene"]["need"][0], **GAME.legal_actions(
            state, state["scene"]["need"][0])[0])
        vote_proposal(state, no=tuple(range(state["n"])))
        confirm_all(state)


def english(state: State, event: dict[str, Any]) -> str:
    """A log event as an English reader sees it."""
    return render("fang", event, state["players"], "en")
