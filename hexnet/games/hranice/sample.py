"""Determinization: a full Hranice state built from one seat's view alone.

The table is public — councils, the pyre, burned citizens, the discard pile, tokens, the turn,
the action under way and its reaction window — and is copied from the view. Hidden are the other
hands and the order of the draw pile: the cards the seat cannot see are dealt at random into the
other hands (their sizes are public) and the pile, except for the cards its log shows in a hand:

* a Výslech look (``peek``) shows a whole hand; a card taken by Hostinský or Zabavení from the
  seat, or by the seat, is known to its thief and its victim; a citizen saved by Přímluva goes
  back to its owner's hand in public;
* a random theft the seat was not part of makes it forget what it knew of the victim's hand.

The engine's generator is reseeded from ``rng``: the real one is not in the view.
"""

from __future__ import annotations

import random
from typing import Any

from hexnet.engine import State
from hexnet.games.hranice import cards
from hexnet.rng import seed_state
from hexnet.search import copy_tree

_DEFAULTS = {"reaction_seconds": cards.rule("reaction_seconds")}


def sample_state(game: Any, view: dict[str, Any], rng: random.Random) -> State:
    """A state whose view for ``view["seat"]`` equals ``view`` (see the module docstring)."""
    seat = view["seat"]
    n = len(view["players"])
    public = set(view["hand"]) | set(view["pyre"]) | set(view["discard"])
    for rows in (view["councils"], view["burned"]):
        for row in rows:
            public.update(row)
    unseen = [c for c in cards.deck() if c not in public]
    hands: list[list[str]] = [[] for _ in range(n)]
    hands[seat] = list(view["hand"])
    known = _known_hands(view)
    peek = view.get("peek")
    if peek is not None:
        known[peek["player"]] = list(peek["hand"])
    free = set(unseen)
    for s in range(n):
        if s == seat:
            continue
        for c in known.get(s, []):
            if c in free and len(hands[s]) < view["hand_sizes"][s]:
                hands[s].append(c)
                free.discard(c)
    rest = [c for c in unseen if c in free]
    rng.shuffle(rest)
    for s in range(n):
        if s != seat:
            missing = view["hand_sizes"][s] - len(hands[s])
            hands[s].extend(rest[:missing])
            del rest[:missing]
            if peek is None or peek["player"] != s:
                rng.shuffle(hands[s])
    state: State = {
        "game": view["game"], "players": list(view["players"]),
        "rng": seed_state(rng.getrandbits(64)),
        "version": view["state_id"], "log": [dict(e) for e in view["log"]],
        "options": _options(view),
        "hands": hands, "councils": [list(c) for c in view["councils"]],
        "burned": [list(b) for b in view["burned"]], "pyre": list(view["pyre"]),
        "pile": rest, "discard": list(view["discard"]), "tokens": list(view["tokens"]),
        "dice": [], "target": view["target"], "turn": view["turn"],
        "actions_left": view["actions_left"], "turns": view["turns"],
        "first_player": view["first_player"], "step": copy_tree(view["step"]),
        "window": _window(view), "window_serial": _serial(view), "outcome": view["outcome"],
    }
    return state


def _known_hands(view: dict[str, Any]) -> dict[int, list[str]]:
    """Cards the seat's log places in another seat's hand, oldest knowledge first."""
    me = view["seat"]
    known: dict[int, list[str]] = {}
    theft: tuple[int, int] | None = None
    for event in view["log"]:
        kind = event.get("kind")
        if kind == "steal":
            thief, victim = event.get("seat"), event.get("victim")
            if me in (thief, victim):
                theft = (thief, victim)
            else:  # a random card left the victim's hand: what was known of it is not
                known.pop(victim, None)
                theft = None
        elif kind == "stolen" and theft is not None:
            thief, victim = theft
            card = event.get("card")
            if card in known.get(victim, []):
                known[victim].remove(card)
            if thief != me:
                known.setdefault(thief, []).append(card)
            theft = None
        elif kind == "peek" and event.get("cards") is not None:
            known[event["player"]] = [c for c in str(event["cards"]).split(",") if c]
        elif kind == "returned":
            known.setdefault(event["seat"], []).append(event["card"])
    return known


def _window(view: dict[str, Any]) -> dict[str, Any] | None:
    """The open reaction window: those before the asked seat have passed."""
    w = view["window"]
    if w is None:
        return None
    trigger = {k: copy_tree(v) for k, v in w.items() if k not in ("asked", "order")}
    order = list(w["order"])
    at = order.index(w["asked"])
    return {"trigger": trigger, "order": order, "pending": order[at:],
            "answers": [[s, {"type": "pass"}] for s in order[:at]]}


def _serial(view: dict[str, Any]) -> int:
    d = view.get("deadline")
    if d and str(d["key"]).startswith("react-"):
        return int(str(d["key"]).split("-")[1])
    return 0


def _options(view: dict[str, Any]) -> dict[str, Any]:
    """The options the view shows: manual flip, the reaction timer, the turn timer (while it
    runs), whether only holders are asked (a window that skips a seat with cards)."""
    opts: dict[str, Any] = {}
    if view["manual_flip"]:
        opts["manual_flip"] = True
    d = view.get("deadline")
    if d and str(d["key"]).startswith("turn-"):
        opts["turn_seconds"] = d["seconds"]
    if view["window"] is not None:
        seconds = d["seconds"] if d else 0
        if seconds != _DEFAULTS["reaction_seconds"]:
            opts["reaction_seconds"] = seconds
        w = view["window"]
        if w["event"] != "accused":
            everyone = [s for s in range(len(view["players"])) if view["hand_sizes"][s]]
            if len(w["order"]) < len(everyone):
                opts["ask_holders_only"] = True
    return opts
