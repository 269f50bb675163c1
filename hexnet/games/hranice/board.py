"""The table: who holds what, influence and defence, drawing, the hand limit, the token.

Every function here takes the game state and keeps its invariants: each of the 60 cards is in
exactly one place (a hand, a council, the pyre, a player's burned pile, the draw pile or the
discard pile).
"""

from __future__ import annotations

from hexnet import rng
from hexnet.engine import State, emit
from hexnet.games.hranice import cards


def owner_of(state: State, card: str) -> int | None:
    """The seat whose council holds ``card``, or None."""
    for seat, council in enumerate(state["councils"]):
        if card in council:
            return seat
    return None


def influence(state: State, seat: int) -> int:
    """Council influence plus the permanent points of the citizens taken from the pyre."""
    council = sum(map(cards.influence, state["councils"][seat]))
    return council + cards.rule("ignite_points") * len(state["burned"][seat])


def influences(state: State) -> list[int]:
    """Every seat's :func:`influence`, seat by seat (one pass: a playout asks at every turn)."""
    worth = cards.influences().__getitem__
    points = cards.rule("ignite_points")
    burned = state["burned"]
    return [sum(map(worth, council)) + points * len(burned[seat])
            for seat, council in enumerate(state["councils"])]


def count_ability(state: State, seat: int, key: str, besides: str | None = None) -> int:
    """The sum of ``key`` over the seat's council citizens (``besides`` left out)."""
    return sum(int(cards.ability(c, key)) for c in state["councils"][seat] if c != besides)


def defence(state: State, card: str) -> tuple[int, list[tuple[str, int]]]:
    """A council citizen's base defence and the bonuses it gets, by card kind (Kovář: +1 per
    other copy)."""
    seat = owner_of(state, card)
    bonuses: list[tuple[str, int]] = []
    if seat is not None:
        for other in state["councils"][seat]:
            bonus = int(cards.ability(other, "defence_bonus"))
            if other != card and bonus:
                bonuses.append((cards.kind_of(other), bonus))
    return cards.influence(card), bonuses


def defences(councils: list[list[str]]) -> dict[str, int]:
    """Every council citizen's defence with its bonuses (what :func:`defence` says, a council
    at a time: the citizen's influence and the bonuses of the others in the same council)."""
    worth = cards.influences()
    out = {c: worth[c] for council in councils for c in council}
    guards = cards.having("defence_bonus")
    for council in councils:
        if not guards.isdisjoint(council):  # (most councils hold no citizen that guards)
            bonus = cards.bonuses("defence_bonus")
            own = [bonus[c] for c in council]
            total = sum(own)
            for c, mine in zip(council, own, strict=True):
                out[c] += total - mine
    return out


def accusable(state: State, card: str) -> bool:
    """Whether a council citizen may be accused (Rychtář is guarded while not alone)."""
    seat = owner_of(state, card)
    if seat is None:
        return False
    return not (cards.ability(card, "guarded") and len(state["councils"][seat]) > 1)


def take_from_hand(state: State, seat: int, kind: str) -> str:
    """Remove the first card of ``kind`` from the seat's hand and return its id."""
    hand = state["hands"][seat]
    for card in hand:
        if cards.kind_of(card) == kind:
            hand.remove(card)
            return card
    raise KeyError(kind)


def can_draw(state: State) -> bool:
    """Whether a card can be drawn at all (the draw pile, or discards to reshuffle)."""
    return bool(state["pile"] or state["discard"])


def draw(state: State, seat: int, count: int = 1) -> int:
    """Draw up to ``count`` cards for ``seat``; an empty pile is refilled from the discards.

    Returns how many were drawn (fewer only when both piles are empty).
    """
    drawn = 0
    for _ in range(count):
        if not state["pile"]:
            if not state["discard"]:
                emit(state, "nothing_to_draw")
                break
            state["pile"] = state["discard"]
            state["discard"] = []
            rng.shuffle(state, state["pile"])
            emit(state, "reshuffle", kind="reshuffle")
        card = state["pile"].pop(0)
        state["hands"][seat].append(card)
        emit(state, "you_draw", to=[seat], kind="drawn", card=card)
        drawn += 1
    if drawn:
        emit(state, "draws", kind="draw", seat=seat, count=drawn)
    return drawn


def steal_random(state: State, thief: int, victim: int, by: str) -> None:
    """Move a random card of ``victim``'s hand to ``thief``'s (because of card ``by``); only
    those two learn which."""
    hand = state["hands"][victim]
    if not hand:
        emit(state, "no_card_to_take", seat=victim, by=by)
        return
    card = hand.pop(rng.below(state, len(hand)))
    state["hands"][thief].append(card)
    emit(state, "takes_random", kind="steal", seat=thief, victim=victim, by=by)
    emit(state, "took", to=[thief, victim], kind="stolen", card=card, seat=thief,
         victim=victim)


def cut_hands(state: State) -> None:
    """The hand limit: any hand over the limit loses random cards down to it (shown to all)."""
    limit = cards.rule("hand_limit")
    for seat, hand in enumerate(state["hands"]):
        if len(hand) > limit:
            cut = rng.sample(state, hand, len(hand) - limit)
            for card in cut:
                hand.remove(card)
                state["discard"].append(card)
            emit(state, "hand_limit", kind="hand_limit", seat=seat, cards=",".join(cut))


def flip_back(state: State) -> None:
    """Any active dominance token whose owner fell below the target turns back."""
    for seat, active in enumerate(state["tokens"]):
        if active and influence(state, seat) < state["target"]:
            state["tokens"][seat] = False
            emit(state, "token_back", kind="token", seat=seat, active=False,
                 influence=influence(state, seat), target=state["target"])


def may_flip(state: State, seat: int) -> bool:
    """Whether the seat's token may turn active now (inactive, enough influence)."""
    return not state["tokens"][seat] and influence(state, seat) >= state["target"]


def flip(state: State, seat: int) -> None:
    """Turn the seat's dominance token to its active side."""
    state["tokens"][seat] = True
    emit(state, "token_active", kind="token", seat=seat, active=True,
         influence=influence(state, seat), target=state["target"])
