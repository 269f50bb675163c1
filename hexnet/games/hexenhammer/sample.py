"""Determinization: a full Hexenhammer state built from one seat's view alone.

Everything on the table is copied from the view (villagers and their stakes, phase, turn, the
open window, kept trials, the scales card, taken villagers, empty stakes). The hidden part — the
other hands, the draw pile, the discards and the cards out of the game — is re-dealt at random
from the cards the seat has not seen, respecting what it did see:

* the cards played or answered since the last reshuffle that the seat's log shows, and its own
  discards, are in the discard pile (a value the log does not name is drawn among the unseen
  copies of that kind);
* a trial answered by its twin put both cards on the discard pile;
* the cards out of the game are trial cards (without VP, or the scales card) as far as possible.

Card ids: the seat's own cards keep theirs; every other card gets one of the remaining ids at
random (ids say nothing about a card, and the view never shows another card's id).
The engine's generator is reseeded from ``rng``: the real one is not in the view.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hexnet.engine import State
from hexnet.games.hexenhammer import data
from hexnet.games.hexenhammer.effects import accused_bonus
from hexnet.rng import seed_state

Card = tuple[str, int]

# in table order (not a set's order, which changes with the process's string hashes: the same
# view and generator must give the same deal in every process, a tournament's workers included)
_OUT_OF_GAME = [k for k in data.CARDS if k in data.TRIALS
                and (not data.CARDS[k].get("vp") or data.CARDS[k]["effect"] == "protect")]

# the deck as a multiset (in table order: a pool's draws follow it) and every card's id
_DECK_COUNT: dict[Card, int] = dict(Counter(data.full_deck()))
_CARD_IDS = [f"c{i + 1}" for i in range(sum(_DECK_COUNT.values()))]


def sample_state(game: Any, view: dict[str, Any], rng: random.Random) -> State:
    """A state whose view for ``view["seat"]`` equals ``view`` (see the module docstring)."""
    seat = view["seat"]
    n = len(view["players"])
    pool = _Pool()
    hands: list[list[str]] = [[] for _ in range(n)]
    cards: dict[str, list[Any]] = {}
    for c in view["hand"]:
        pool.take((c["kind"], c["value"]))
        hands[seat].append(c["id"])
        cards[c["id"]] = [c["kind"], c["value"]]
    kept_cards = [[pool.take_kind(k, rng) for k in kinds] for kinds in view["kept_trials"]]
    protected_vid, protected_card = None, None
    for v in view["villagers"]:
        if v["trial_card"] is not None:
            protected_vid = v["id"]
            protected_card = pool.take_kind(v["trial_card"], rng)
    window = view["window"]
    trigger_card: Card | None = None
    if window is not None and window["trigger"]["type"] in ("card", "trial"):
        t = window["trigger"]
        value = abs(t["value"]) if t["type"] == "card" and data.CARDS[t["kind"]].get(
            "signed") else t.get("value", 0)
        trigger_card = pool.take((t["kind"], value)) if t["type"] == "card" else pool.take_kind(
            t["kind"], rng)
    # the card whose window a trial interrupted (issue 17, correction 1): its card is known too
    interrupted = view.get("interrupted")
    interrupted_card: Card | None = None
    if interrupted is not None:
        t = interrupted["trigger"]
        value = abs(t["value"]) if data.CARDS[t["kind"]].get("signed") else t.get("value", 0)
        interrupted_card = pool.take((t["kind"], value))
    choice = view["choice"]
    choice_trial = None
    if choice is not None and choice["purpose"] == "trial":
        choice_trial = _last_trial(view)
        choice_card = pool.take_kind(choice_trial["kind"], rng)
    discard_known = [c for c in (pool.take_card(k, v, rng)
                                 for k, v in _discarded(view)[:view["discard_size"]])
                     if c is not None]
    # deal the unseen cards: other hands, the pile, the rest of the discards, out of the game
    unseen = pool.rest()
    rng.shuffle(unseen)
    in_play = (sum(view["hand_sizes"]) - len(view["hand"]) + view["draw_pile"]
               + view["discard_size"] - len(discard_known))
    removed_count = max(0, len(unseen) - in_play)
    removed: list[Card] = []
    for kind in _OUT_OF_GAME:
        if len(removed) < removed_count:
            for i, c in enumerate(unseen):
                if c[0] == kind:
                    removed.append(unseen.pop(i))
                    break
    while len(removed) < removed_count:
        removed.append(unseen.pop())
    ids = [cid for cid in _CARD_IDS if cid not in cards]
    rng.shuffle(ids)

    def ident(card: Card) -> str:
        cid = ids.pop()
        cards[cid] = [card[0], card[1]]
        return cid

    for s in range(n):
        if s != seat:
            hands[s] = [ident(unseen.pop()) for _ in range(view["hand_sizes"][s])]
    pile = [ident(unseen.pop()) for _ in range(view["draw_pile"])]
    discard = [ident(c) for c in discard_known] + [ident(unseen.pop()) for _ in range(
        view["discard_size"] - len(discard_known))]
    rng.shuffle(discard)
    removed_ids = [ident(c) for c in removed + unseen]
    kept = [[ident(c) for c in row] for row in kept_cards]
    state: State = {
        "game": view["game"], "players": list(view["players"]),
        "rng": seed_state(rng.getrandbits(64)),
        "version": view["state_id"], "log": [dict(e) for e in view["log"]],
        "options": _options(view),
        "phase": view["phase"], "round": view["round"], "inquisitor": view["inquisitor"],
        "turn": view["turn"] if view["turn"] is not None else (view["inquisitor"] or 0),
        "turns_left": _turns_left(view, n),
        "villagers": {v["id"]: {"owner": v["owner"], "start": v["start"],
                                "suspicion": v["suspicion"], "alive": v["alive"]}
                      for v in view["villagers"]},
        "cards": cards, "hands": hands, "deck": pile, "discard": discard,
        "removed": removed_ids, "kept": kept,
        "taken": [list(t) for t in view["taken"]],
        "empty_stakes": [list(e) for e in view["empty_stakes"]],
        "accusers_used": list(view["accusers_used"]), "done": list(view["done"]),
        "window": None, "interrupted": None, "choice": None, "protected": None,
        "windows": _windows(view), "outcome": view["outcome"],
    }
    # a window's seats as the view shows them: all it asked, the seat itself only while it has
    # not answered (who else has, the view does not say: they are taken to be still asked)
    if interrupted is not None:
        state["interrupted"] = {
            "trigger": _trigger(interrupted["trigger"], interrupted_card, ident),
            "order": list(interrupted["pending"]), "pending": list(interrupted["pending"]),
            "answers": []}
    if protected_vid is not None:
        state["protected"] = {"villager": protected_vid, "card": ident(protected_card)}
    if window is not None:
        state["window"] = {"trigger": _trigger(window["trigger"], trigger_card, ident),
                           "order": list(window["pending"]),
                           "pending": list(window["pending"]), "answers": []}
    if choice is not None:
        trial = None
        if choice_trial is not None:
            trial = {"type": "trial", "card": ident(choice_card), "kind": choice_trial["kind"],
                     "player": choice_trial["player"], "target": None}
        state["choice"] = {"seat": choice["seat"], "options": list(choice["options"]),
                           "purpose": choice["purpose"], "trial": trial}
    return state


class _Pool:
    """The cards not yet placed, as a multiset of (kind, value): at first the whole deck."""

    def __init__(self) -> None:
        self.left: dict[Card, int] = dict(_DECK_COUNT)

    def take(self, card: Card) -> Card:
        if self.left.get(card, 0) > 0:
            self.left[card] -= 1
        return card

    def take_kind(self, kind: str, rng: random.Random) -> Card | None:
        """A copy of ``kind`` with a value drawn among its unplaced copies (None if none)."""
        return self.take_card(kind, None, rng)

    def take_card(self, kind: str, value: int | None, rng: random.Random) -> Card | None:
        """A copy of ``kind`` (of ``value`` if given and left, else of any value left)."""
        if value is not None and self.left.get((kind, value), 0) > 0:
            return self.take((kind, value))
        copies = [c for c, k in self.left.items() if c[0] == kind for _ in range(k)]
        if not copies:
            return None
        return self.take(rng.choice(copies))

    def rest(self) -> list[Card]:
        return [c for c, k in self.left.items() for _ in range(k)]


PLAYS = ("play_accuses", "play_on")
ANSWERS = ("call_cancelled", "counter_charge", "mistaken", "shares_sorrow",
           "confession_retracted")
TRIALS = ("trial", "trial_on")


def _discarded(view: dict[str, Any]) -> list[tuple[str, int | None]]:
    """Cards (kind, value if known) the seat's log shows going to the discard pile since the
    last reshuffle: cards played and answered, a trial and its twin, its own discards."""
    out: list[tuple[str, int | None]] = []
    window = view["window"]
    skip_play = window is not None and window["trigger"]["type"] == "card"
    twin_answered = False
    for event in reversed(view["log"]):
        key = event.get("key")
        if key in ("reshuffle", "begins"):
            break
        kind = event.get("kind")
        if kind not in data.CARDS:
            continue
        if key in PLAYS:
            if skip_play:  # the card still on the table
                skip_play = False
                continue
            value = event.get("value")
            out.append((kind, abs(value) if data.CARDS[kind].get("signed") and isinstance(
                value, int) else value))
        elif key in ANSWERS or key == "you_discard":
            out.append((kind, event.get("value")))
        elif key == "twin":
            twin_answered = True
            out.append((kind, None))
        elif key in TRIALS and twin_answered:
            twin_answered = False
            out.append((kind, None))
    return out


def _last_trial(view: dict[str, Any]) -> dict[str, Any]:
    """The trial waiting for the inquisitor's choice: its kind and who called it."""
    for event in reversed(view["log"]):
        if event.get("key") in TRIALS and event.get("kind") in data.CARDS:
            return {"kind": event["kind"], "player": int(event.get("player", 0))}
    # the log no longer shows it: some trial that burns the chosen villager
    return {"kind": "wasserprobe_schwimmt", "player": 0}


def _trigger(t: dict[str, Any], card: Card | None, ident: Any) -> dict[str, Any]:
    if t["type"] == "call":
        return {"type": "call", "player": t["player"]}
    cid = ident(card) if card is not None else None
    if t["type"] == "trial":
        return {"type": "trial", "card": cid, "kind": t["kind"], "player": t["player"],
                "target": t["target"]}
    extras = t.get("share_extras") or [accused_bonus(t["aimed"], "geteyltes_leyd")
                                       for _ in t["shares"]]
    shares = [[vid, extra] for vid, extra in zip(t["shares"], extras, strict=True)]
    return {"type": "card", "card": cid, "kind": t["kind"], "value": t["value"],
            "player": t["player"], "accuser": t["accuser"], "aimed": t["aimed"],
            "target": t["target"], "bonus": t.get("bonus", 0), "shares": shares,
            "cancelled": t["cancelled"]}


def _turns_left(view: dict[str, Any], n: int) -> int:
    phase, turn, inq = view["phase"], view["turn"], view["inquisitor"]
    if phase in (3, 4) and turn is not None:
        start = inq if inq is not None else turn
        return n - (turn - start) % n
    return n


def _windows(view: dict[str, Any]) -> int:
    d = view.get("deadline")
    if d and str(d["key"]).startswith("react-"):
        return int(d["key"].split("-", 1)[1])
    return 0


def _options(view: dict[str, Any]) -> dict[str, Any]:
    """Timer lengths as the deadline shows them (the rest of the options is not seen)."""
    d = view.get("deadline")
    if not d:
        return {}
    if str(d["key"]).startswith("turn-"):
        return {"turn_seconds": d["seconds"]}
    key = "reaction_seconds" if str(d["key"]).startswith("react-") else "panic_seconds"
    if float(d["seconds"]) == float(data.RULES[key]):
        return {}
    return {key: d["seconds"]}
