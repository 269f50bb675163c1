"""What a seat sees: the table, its own hand, counts of the others' hands — never another hand's
cards, the draw pile, or the id of any card that can come back into play. Ids only: the names
and texts of cards and villagers are words, chosen by the reader's catalog."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hexnet.engine import State
from hexnet.games.hexenhammer import data
from hexnet.games.hexenhammer.effects import current_witches, free_accusers
from hexnet.games.hexenhammer.phases import scores


def _card_face(kind: str, value: int) -> dict[str, Any]:
    card = data.CARDS[kind]
    return {"kind": kind, "value": value, "colour": card["colour"], "phases": card["phases"],
            "reaction": bool(card.get("reaction")), "signed": bool(card.get("signed"))}


# what never changes about a card face or a villager, built once (views are built per action)
_FACES = {(k, v): _card_face(k, v) for k, v in data.full_deck()}
_PORTRAITS = {vid: (info["pentagrams"], info["matches"]) for vid, info in data.VILLAGERS.items()}
# what each villager's ability adds to a card (public, printed on the villager card): the
# client previews a card's effect with every modifier from these (hexenhammer/preview.py)
ABILITY_KEYS = ("accuser_bonus", "accuser_card_bonus", "accused_card_bonus", "never_accuser")
_ABILITIES = {vid: {k: info[k] for k in ABILITY_KEYS if k in info}
              for vid, info in data.VILLAGERS.items()}


def card_view(state: State, cid: str) -> dict[str, Any]:
    """One card in the seat's own hand."""
    kind, value = state["cards"][cid]
    return {"id": cid, **_FACES[(kind, value)]}


def _villagers(state: State) -> list[dict[str, Any]]:
    prot = state["protected"]
    out = []
    for vid, v in state["villagers"].items():
        pentagrams, matches = _PORTRAITS[vid]
        out.append({"id": vid, "pentagrams": pentagrams, "matches": matches, "owner": v["owner"],
                    "start": v["start"], "suspicion": v["suspicion"], "alive": v["alive"],
                    "trial_card": None})
    if prot is not None:
        for entry in out:
            if entry["id"] == prot["villager"]:
                entry["trial_card"] = state["cards"][prot["card"]][0]
    return out


def asked_as_seen(window: dict[str, Any], seat: int | None) -> list[int]:
    """Who a reaction window waits for, as ``seat`` may know it: everyone it asked (when it
    opened or was opened again), less ``seat`` itself once it has answered — never who else has
    answered already, which would tell how long each took (holding a fitting card or not)."""
    return sorted(s for s in window["order"] if s != seat or s in window["pending"])


def _trigger(window: dict[str, Any] | None, seat: int | None) -> dict[str, Any] | None:
    if window is None:
        return None
    t = window["trigger"]
    public: dict[str, Any] = {"type": t["type"], "player": t["player"]}
    if t["type"] == "card":
        public.update(kind=t["kind"], value=t["value"], accuser=t["accuser"], aimed=t["aimed"],
                      target=t["target"], shares=[s[0] for s in t["shares"]],
                      share_extras=[s[1] for s in t["shares"]], bonus=t["bonus"],
                      cancelled=t["cancelled"])
    elif t["type"] == "trial":
        public.update(kind=t["kind"], target=t["target"])
    return {"trigger": public, "pending": asked_as_seen(window, seat)}


def public(state: State) -> dict[str, Any]:
    """What every seat (and a spectator) sees alike. The log is left to
    :meth:`hexnet.engine.Game.view`, which builds it only when the view is to carry it."""
    phase = state["phase"]
    choice = state["choice"]
    view: dict[str, Any] = {
        "phase": phase,
        "round": state["round"],
        "inquisitor": state["inquisitor"],
        "turn": state["turn"] if phase in (1, 3, 4) else None,
        "villagers": _villagers(state),
        "abilities": {vid: _ABILITIES[vid] for vid in state["villagers"]},
        "scores": scores(state),  # each seat's points so far, as the end would count them
        "current_witches": current_witches(state) if phase != "over" else [],
        "hand_sizes": [len(h) for h in state["hands"]],
        "draw_pile": len(state["deck"]),
        "discard_size": len(state["discard"]),
        "taken": [list(t) for t in state["taken"]],
        "empty_stakes": [list(e) for e in state["empty_stakes"]],
        "kept_trials": [[state["cards"][c][0] for c in k] for k in state["kept"]],
        # who a window waits for, as a spectator sees it: everyone it asked (a seat that has
        # answered sees itself left out: its private overlay, below)
        "window": _trigger(state["window"], None),
        # the card whose window a trial interrupted: it waits until the trial is settled
        "interrupted": _trigger(state["interrupted"], None),
        "done": sorted(state["done"]) if phase == 2 else [],
        "accusers_used": list(state["accusers_used"]),
        "choice": ({"seat": choice["seat"], "options": list(choice["options"]),
                    "purpose": choice["purpose"]} if choice else None),
    }
    if _window_waits(state):
        view["active"] = asked_as_seen(state["window"], None)
    return view


def _window_waits(state: State) -> bool:
    return state["choice"] is None and state["window"] is not None and state["outcome"] is None


def private(state: State, seat: int | None) -> dict[str, Any]:
    """What only ``seat`` sees (None: a spectator, who holds no hand): its hand and the
    accusers it may still name; and, once it has answered an open window, the window without
    itself among those it waits for (everyone else sees every seat asked until it closes)."""
    own: dict[str, Any] = {
        "hand": [card_view(state, c) for c in state["hands"][seat]] if seat is not None else [],
        "free_accusers": (free_accusers(state, seat)
                          if seat is not None and state["phase"] in (1, 2, 3) else []),
    }
    if seat is None:
        return own
    # a window looks otherwise to ``seat`` only once it has answered: asked, no longer pending
    # (:func:`asked_as_seen`)
    for key in ("window", "interrupted"):
        window = state[key]
        if window is not None and _answered(window, seat):
            own[key] = _trigger(window, seat)
    if _window_waits(state) and _answered(state["window"], seat):
        own["active"] = asked_as_seen(state["window"], seat)
    return own


def _answered(window: dict[str, Any], seat: int) -> bool:
    """Whether ``seat`` was asked by ``window`` and has answered it (what it sees of the window
    then differs from everyone else's view: it is left out of those waited for)."""
    return seat in window["order"] and seat not in window["pending"]


def action_label(action: Mapping[str, Any], cards: Mapping[str, Any]) -> dict[str, Any]:
    """An action's label as data (catalog context ``action``). ``cards`` maps card ids to
    ``(kind, value)``: the state's cards, or a seat's own hand from its view."""
    kind = action.get("type")
    card = cards.get(action.get("card")) if isinstance(action.get("card"), str) else None
    if kind == "play" and card is not None:
        played = {"kind": card[0], "value": card[1] * action.get("sign", 1)}
        if "accuser" in action:
            return {"key": "play_accuses", "accuser": action["accuser"],
                    "target": action.get("target"), **played}
        if "other" in action:
            return {"key": "play_names", "other": action["other"], **played}
        if "target" in action:
            return {"key": "play_on", "target": action["target"], **played}
        return {"key": "play", **played}
    if kind == "discard" and card is not None:
        return {"key": "discard", "kind": card[0], "value": card[1]}
    if kind == "choose":
        return {"key": "choose", "villager": action.get("target")}
    return {"key": "call_inquisition" if kind == "call_inquisition" else "pass"}
