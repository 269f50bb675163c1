"""Reaction windows: after an event a reaction can answer, seats are asked one at a time.

Every seat that could play a fitting reaction by the event's public facts is asked in the
rulebook's priority order ("Přednost má hráč, který je nebo bude dříve na tahu": the acting
player first, then the others in turn order) — whether or not it holds one, so that being asked
reveals nothing (a ruling, see the rules text). Seats with an empty hand are
skipped, and so is the player of an action card when Protest is the question: nobody protests
their own card. Each answers ``pass`` or a fitting reaction; the first reaction closes the
window. There is no reaction to a reaction. The option ``ask_holders_only`` asks only seats
that hold a fitting reaction (faster, but being asked then tells the table you hold one).
"""

from __future__ import annotations

import functools
from typing import Any

from hexnet import turns
from hexnet.engine import Action, State, emit
from hexnet.games.hranice import board, cards
from hexnet.games.hranice.setup import option

PASS: Action = {"type": "pass"}


def fits(kind: str, event: str) -> bool:
    """Whether reaction ``kind`` answers ``event`` (accused / roll / to_pyre / action)."""
    row = cards.info(kind)
    return row["type"] == "reaction" and row["event"] == event


@functools.cache
def fitting_cards(event: str) -> frozenset[str]:
    """The physical cards of the reactions that answer ``event``."""
    return frozenset(c for c in cards.deck() if fits(cards.kind_of(c), event))


def holds_fitting(state: State, seat: int, event: str) -> bool:
    """Whether the seat holds a reaction that answers ``event`` (else it can only pass)."""
    return not fitting_cards(event).isdisjoint(state["hands"][seat])


def open_window(state: State, trigger: dict[str, Any]) -> None:
    """Open the window for ``trigger`` (its ``event``; for ``accused`` only the owner is asked)."""
    hands = state["hands"]
    event = trigger["event"]
    n = len(state["players"])
    if event == "accused":
        order = [trigger["owner"]]
    elif event == "action":  # Protest: the others, the next on turn first
        order = turns.others_in_order(state["turn"], n)
    else:  # the one on turn first, then who comes sooner
        order = turns.clockwise(state["turn"], n)
    order = [s for s in order if hands[s]]
    if option(state, "ask_holders_only"):
        order = [s for s in order if holds_fitting(state, s, event)]
    state["window_serial"] += 1
    state["window"] = turns.open_window(trigger, order)


def asked(state: State) -> list[int]:
    """The seat asked now (a one-element list), or [] when no window waits."""
    window = state["window"]
    if window is None:
        return []
    return turns.first_pending(window)


def legal(state: State, seat: int) -> list[Action]:
    """Pass, then each fitting reaction the seat holds (Falešný svědek as +1 and −1)."""
    out: list[Action] = [dict(PASS)]
    fit = fitting_cards(state["window"]["trigger"]["event"])
    hand = state["hands"][seat]
    if fit.isdisjoint(hand):
        return out
    for kind in sorted({cards.kind_of(c) for c in hand if c in fit}):
        if cards.info(kind)["effect"] == "nudge":
            out.append({"type": "react", "card": kind, "sign": 1})
            out.append({"type": "react", "card": kind, "sign": -1})
        else:
            out.append({"type": "react", "card": kind})
    return out


def answer(state: State, seat: int, action: Action) -> None:
    """Record the seat's answer; a reaction is discarded from hand and closes the window."""
    window = state["window"]
    turns.answer(window, seat, action)
    if action["type"] != "react":
        return
    card = board.take_from_hand(state, seat, action["card"])
    state["discard"].append(card)
    sign = action.get("sign")
    emit(state, "reacts" if sign is None else "reacts_sign", kind="react", seat=seat, card=card,
         sign=sign)
    window["pending"] = []


def take(state: State) -> tuple[int, Action] | None:
    """Close the finished window; return ``(seat, reaction)`` if one was played, else None."""
    window = state["window"]
    state["window"] = None
    if window is None:
        return None
    for seat, action in window["answers"]:
        if action["type"] == "react":
            return seat, action
    return None
