"""Night: the chief's proposal, the proposal vote and the curse bar, the ritual, the
"who was it?!" pause and the banishment vote."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from itertools import combinations
from typing import Any

from hexnet import rng
from hexnet.engine import Action, State
from hexnet.games.fang import data
from hexnet.games.fang.common import (
    BANISHED,
    announce,
    begin,
    cats,
    finalize,
    holds_fluchkraut,
    is_cat,
    members_key,
    new_scene,
    open_confirm,
    parse_members,
    remember,
    starter,
    submit,
    tell,
)
from hexnet.games.fang.wins import check_after_ritual, check_after_vote
from hexnet.turns import next_seat

# --- proposal -------------------------------------------------------------------------------


def curse_full(state: State) -> bool:
    """Whether today's curse bar is full."""
    return state["curse"] >= state["cfg"]["curse_bar"]


@starter("proposal")
def start_proposal(state: State) -> None:
    """The next cat in cat form after the last chief proposes exactly as many cats as needed."""
    if curse_full(state):
        announce(state, "curse_full")
        begin(state, "vote")
        return
    living = cats(state)
    if len(living) < len(state["required"]):
        state["required"] = state["required"][:len(living)]
        announce(state, "circle_shrinks", size=len(living), required=list(state["required"]))
    chief = next_seat(state["chief"], state["n"], lambda s: is_cat(state, s))
    state["chief"] = chief
    state["today"]["proposals"] += 1
    announce(state, "chief", chief=chief, count=len(state["required"]))
    new_scene(state, "proposal", [chief], size=len(state["required"]))


def legal_proposal(state: State, seat: int) -> list[Action]:
    """Every set of exactly ``size`` cats in cat form (the chief may include himself)."""
    # cats come in seat order, so each combination is already the sorted wire form
    names = [str(s) for s in cats(state)]
    return [{"type": "propose", "members": ",".join(c)}
            for c in combinations(names, state["scene"]["size"])]


def proposal_allowed(state: State, action: Mapping[str, Any]) -> bool:
    """Whether ``action`` is one of :func:`legal_proposal` (same fields, value and type),
    checked without listing them: ``members`` names ``size`` distinct cats in cat form in
    the wire form of :func:`members_key`."""
    members = action.get("members")
    if len(action) != 2 or type(members) is not str:
        return False
    try:
        seats = parse_members(members)
    except ValueError:
        return False
    chosen = set(seats)
    return (members_key(seats) == members and len(chosen) == len(seats)
            == state["scene"]["size"] and chosen <= set(cats(state)))


def apply_proposal(state: State, seat: int, action: Action) -> None:
    """The proposal is made; the proposal vote opens."""
    submit(state, seat, action["members"])
    state["today"]["members"] = parse_members(action["members"])
    announce(state, "proposal", chief=seat, members=list(state["today"]["members"]))
    begin(state, "proposal_vote")


def default_proposal(state: State, seat: int) -> None:
    """Timeout or absent chief: a random proposal."""
    members = rng.sample(state, cats(state), state["scene"]["size"])
    apply_proposal(state, seat, {"type": "propose", "members": members_key(members)})


# --- proposal vote --------------------------------------------------------------------------


@starter("proposal_vote")
def start_proposal_vote(state: State) -> None:
    """Every cat in cat form votes yes/no; the pickpocket's window closes."""
    state["today"]["thief_open"] = False
    new_scene(state, "proposal_vote", cats(state))


def legal_proposal_vote(state: State, seat: int) -> list[Action]:
    """Yes or no."""
    return [{"type": "vote_proposal", "yes": True}, {"type": "vote_proposal", "yes": False}]


def apply_proposal_vote(state: State, seat: int, action: Action) -> None:
    """Record (or change) a vote; when all have voted the result is shown with names."""
    submit(state, seat, action["yes"])
    if not state["scene"]["need"]:
        close_proposal_vote(state)


def default_proposal_vote(state: State, seat: int) -> None:
    """Timeout or absent: a missing vote counts yes."""
    submit(state, seat, True)
    finalize(state, seat)


def timeout_proposal_vote(state: State) -> None:
    """At 0 s every missing vote is yes."""
    for seat in list(state["scene"]["need"]):
        default_proposal_vote(state, seat)
    close_proposal_vote(state)


def close_proposal_vote(state: State) -> None:
    """Majority yes passes (tie fails); a failure fills the curse bar by one."""
    choice = state["scene"]["choice"]
    voters = cats(state)
    yes = [s for s in voters if choice[s] is True]
    no = [s for s in voters if choice[s] is False]
    passed = len(yes) > len(no)
    remember(state, "proposal", chief=state["chief"], members=list(state["today"]["members"]),
             yes=yes, no=no)
    announce(state, "proposal_passes" if passed else "proposal_fails", kind="proposal_result",
             passed=passed, yes=yes, no=no)
    if passed:
        open_confirm(state, "proposal_result", after="ritual")
        return
    state["curse"] += 1
    announce(state, "curse", curse=state["curse"], bar=state["cfg"]["curse_bar"])
    open_confirm(state, "proposal_result", after="proposal")


# --- ritual ---------------------------------------------------------------------------------


@starter("ritual")
def start_ritual(state: State) -> None:
    """Each member lays one ingredient face down."""
    new_scene(state, "ritual", list(state["today"]["members"]))


def legal_lay(state: State, seat: int) -> list[Action]:
    """Each card in hand (oldest first), Fluchkraut for witches and the crow, else empty hand."""
    out: list[Action] = [{"type": "lay", "card": c["id"]} for c in state["hands"][seat]]
    if holds_fluchkraut(state, seat):
        out.append({"type": "lay", "card": data.fluchkraut()})
    return out or [{"type": "lay", "card": data.EMPTY_HAND}]


def apply_lay(state: State, seat: int, action: Action) -> None:
    """The card leaves the hand face down; when all have laid, only the result is told."""
    card_id = action["card"]
    hand = state["hands"][seat]
    card = next((c for c in hand if c["id"] == card_id), None)
    if card is not None:
        hand.remove(card)
        laid = {"ing": card["ing"], "spoiled": card["spoiled"]}
    else:
        laid = {"ing": card_id, "spoiled": False}
    submit(state, seat, laid)
    state.setdefault("lays", [[] for _ in range(state["n"])])[seat].append(
        [state["day"], laid["ing"]])
    tell(state, [seat], "laid", ingredient=laid["ing"])
    if not state["scene"]["need"]:
        close_ritual(state)


def ritual_succeeds(laid: list[dict], required: list[str]) -> bool:
    """The laid ingredients equal the required ones as a multiset, none spoiled."""
    if any(card["spoiled"] for card in laid):
        return False
    return Counter(card["ing"] for card in laid) == Counter(required)


def close_ritual(state: State) -> None:
    """Success: +1 seal (maybe the win). Failure: +1 towards the witches' spells."""
    laid = [c for c in state["scene"]["choice"] if c is not None]
    success = ritual_succeeds(laid, state["required"])
    remember(state, "ritual", members=list(state["today"]["members"]), success=success,
             required=list(state["required"]))
    if success:
        state["seals"] += 1
        announce(state, "ritual_succeeded", kind="ritual", success=True, seals=state["seals"],
                 needed=state["cfg"]["seals"])
        if check_after_ritual(state):
            return
    else:
        state["failed"] += 1
        announce(state, "ritual_failed", kind="ritual", success=False, failed=state["failed"])
    open_confirm(state, "ritual_result", after="pause")


@starter("pause")
def start_pause(state: State) -> None:
    """"Who was it?!" — a short timed quarrel before the vote; nobody must act."""
    new_scene(state, "pause", [])


# --- vote -----------------------------------------------------------------------------------


@starter("vote")
def start_vote(state: State) -> None:
    """Every cat in cat form votes for another cat in cat form or abstains."""
    state["today"]["seer_open"] = False
    state["today"]["thief_open"] = False
    final = state["day"] >= state["cfg"]["knights_day"]
    announce(state, "final_vote" if final else "vote", kind="vote_open", final=final)
    new_scene(state, "vote", cats(state))


def legal_vote(state: State, seat: int) -> list[Action]:
    """Another cat in cat form, or abstain."""
    return [{"type": "vote", "target": t} for t in cats(state) if t != seat] + [
        {"type": "abstain"}]


def apply_vote(state: State, seat: int, action: Action) -> None:
    """Record (or change) a vote; when all have voted it is counted."""
    submit(state, seat, action.get("target"))
    if not state["scene"]["need"]:
        close_vote(state)


def default_vote(state: State, seat: int) -> None:
    """Timeout or absent: a missing vote is an abstention."""
    submit(state, seat, None)
    finalize(state, seat)


def timeout_vote(state: State) -> None:
    """At 0 s every missing vote abstains."""
    for seat in list(state["scene"]["need"]):
        default_vote(state, seat)
    close_vote(state)


def tally(choices: list[int | None]) -> int | None:
    """The seat with the most votes; a tie for most, or no votes, banishes nobody."""
    counts = Counter(c for c in choices if c is not None)
    if not counts:
        return None
    top = max(counts.values())
    leaders = [s for s, k in counts.items() if k == top]
    return leaders[0] if len(leaders) == 1 else None


def close_vote(state: State) -> None:
    """Banish the most voted cat (role shown), run the checks, else confirm → next morning."""
    choice = state["scene"]["choice"]
    voters = cats(state)
    announce(state, "vote_result", votes=[[s, choice[s]] for s in voters])
    banished = tally([choice[s] for s in voters])
    remember(state, "vote", votes=[[s, choice[s]] for s in voters], banished=banished,
             role=state["roles"][banished] if banished is not None else None)
    if banished is None:
        announce(state, "nobody_banished", kind="banished", seat=None, role=None)
    else:
        state["form"][banished] = BANISHED
        role = state["roles"][banished]
        announce(state, "banished", seat=banished, role=role)
    if check_after_vote(state, banished):
        return
    open_confirm(state, "vote_result", after="morning")
