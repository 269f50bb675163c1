"""The actions of a turn: what the player on turn may do, and how each one starts.

Actions (flat dicts; ``card`` names a card in hand by kind, ``target`` a citizen by its id):
``draw`` · ``citizen`` (card[, player: Hostinský's victim]) · ``accuse`` (target) · ``cleanse``
(target on the pyre) · ``action`` (card[, target | player]) · ``pass`` (only when nothing else
is legal). Starting an action spends its cost; its resolution (windows, dice) lives in
:mod:`resolve`.
"""

from __future__ import annotations

import functools

from hexnet import turns
from hexnet.engine import Action, State, emit
from hexnet.games.hranice import board, cards


def _others_with_cards(state: State, seat: int) -> list[int]:
    n = len(state["players"])
    return [p for p in turns.others_in_order(seat, n) if state["hands"][p]]


@functools.cache
def _table_order() -> dict[str, int]:
    """Each card kind's place in the card table (the order a turn's actions list them in)."""
    return {kind: i for i, kind in enumerate(cards.kinds())}


def accusable(state: State) -> list[str]:
    """Every citizen in any council that may be accused now, seat by seat (as
    :func:`board.accusable` says, without looking up each citizen's owner again)."""
    guarded = cards.having("guarded")
    return [c for council in state["councils"] for c in council
            if len(council) == 1 or c not in guarded]


@functools.cache
def _plays() -> dict[str, tuple[str, bool, int, str]]:
    """Each card kind as a turn reads it: type, whether it steals as it enters, an action's
    cost and effect."""
    return {kind: (row["type"], bool(cards.ability(kind, "enter_steal")), row.get("cost", 0),
                   row.get("effect", "")) for kind, row in cards.kinds().items()}


def legal(state: State, seat: int) -> list[Action]:
    """The turn actions of ``seat`` in a stable order (draw first; pass only if nothing else)."""
    out: list[Action] = []
    hand = state["hands"][seat]
    held = sorted({cards.kind_of(c) for c in hand}, key=_table_order().__getitem__)
    if len(hand) < cards.rule("hand_limit") and board.can_draw(state):
        out.append({"type": "draw"})
    plays = _plays()
    victims = _others_with_cards(state, seat)
    for kind in held:
        type_, steals, _, _ = plays[kind]
        if type_ != "citizen":
            continue
        if steals and victims:
            out += [{"type": "citizen", "card": kind, "player": p} for p in victims]
        else:
            out.append({"type": "citizen", "card": kind})
    targets = accusable(state)
    pyre = state["pyre"]
    out += [{"type": "accuse", "target": t} for t in targets]
    out += [{"type": "cleanse", "target": t} for t in pyre]
    for kind in held:
        type_, _, cost, effect = plays[kind]
        if type_ != "action" or cost > state["actions_left"]:
            continue
        if effect == "accuse":
            out += [{"type": "action", "card": kind, "target": t} for t in targets]
        elif effect == "cleanse":
            out += [{"type": "action", "card": kind, "target": t} for t in pyre]
        elif effect == "ignite" and pyre:
            out.append({"type": "action", "card": kind})
        elif effect in ("interrogate", "confiscate"):
            out += [{"type": "action", "card": kind, "player": p} for p in victims]
    if not out:
        out.append({"type": "pass"})
    return out


def begin(state: State, seat: int, action: Action) -> None:
    """Spend the action's cost and start it: either done at once or a step for :mod:`resolve`."""
    kind = action["type"]
    step = {"kind": kind, "seat": seat, "stage": "done"}
    if kind == "draw":
        state["actions_left"] -= 1
        board.draw(state, seat)
    elif kind == "pass":
        state["actions_left"] -= 1
        emit(state, "passes", kind="pass", seat=seat)
    elif kind == "citizen":
        state["actions_left"] -= 1
        _play_citizen(state, seat, action)
    elif kind == "accuse":
        state["actions_left"] -= 1
        step.update(target=action["target"], owner=board.owner_of(state, action["target"]),
                    card=None, stage="declare")
    elif kind == "cleanse":
        state["actions_left"] -= 1
        step.update(target=action["target"], card=None, stage="roll")
    else:
        step = _play_action(state, seat, action)
    state["step"] = step


def _play_citizen(state: State, seat: int, action: Action) -> None:
    card = board.take_from_hand(state, seat, action["card"])
    state["councils"][seat].append(card)
    emit(state, "plays_citizen", kind="citizen", seat=seat, card=card,
         influence=cards.influence(card))
    if cards.ability(card, "enter_draw"):
        board.draw(state, seat, int(cards.ability(card, "enter_draw")))
    if cards.ability(card, "enter_steal") and "player" in action:
        board.steal_random(state, seat, action["player"], cards.kind_of(card))


def _play_action(state: State, seat: int, action: Action) -> dict:
    card = board.take_from_hand(state, seat, action["card"])
    row = cards.info(card)
    state["discard"].append(card)
    state["actions_left"] -= row["cost"]
    step = {"kind": row["effect"], "seat": seat, "card": row["id"], "stage": "protest"}
    args = {"kind": "action", "seat": seat, "card": card, "cost": row["cost"]}
    if "target" in action:
        owner = board.owner_of(state, action["target"])
        step.update(target=action["target"], owner=owner)
        if owner is None:
            emit(state, "plays_on_pyre", target=action["target"], **args)
        else:
            emit(state, "plays_on_citizen_both" if row["cost"] > 1 else "plays_on_citizen",
                 target=action["target"], owner=owner, **args)
    elif "player" in action:
        step["player"] = action["player"]
        emit(state, "plays_on_player", player=action["player"], **args)
    else:
        emit(state, "plays_action", **args)
    return step
