"""Determinization: a full Fang state built from one seat's view alone.

Copied from the view: the day, seals, curse, failed rituals, forms, the scene and who it still
needs, proposal members, the seat's own role, hand, pick or vote, the seer's own findings, the
protector's last guard, the witches' own choices and the cats per place they see.

Dealt at random, consistent with what the seat knows:

* roles — see :mod:`hexnet.games.fang.belief` (witches by suspicion, the game still running);
* other hands — sizes are secret too: each seat collected one ingredient of an open place per
  finished day (the last three kept) and gave one up for each ritual it sat in;
* hidden choices of the current scene — picks and the witches' choices, votes not yet shown,
  ritual cards already laid — drawn among the legal ones (``hexnet.games.fang.search`` may
  redraw them with the heuristic's eyes);
* a seer the seat is not: one finding per finished evening; the powers used today;
* spoiled marks: none (nobody sees them; the witches' own Verderben is not tracked).

Ids of other seats' cards are fresh (they are never shown). The engine's generator is reseeded
from ``rng``: the real one is not in the view.
"""

from __future__ import annotations

import random
from typing import Any

from hexnet.engine import State
from hexnet.games.fang import belief, data
from hexnet.games.fang.common import BANISHED, CAT_FORM, CHANGEABLE, FROG
from hexnet.rng import seed_state

View = dict[str, Any]

AFTER = {"announce": "talk", "ritual_result": "pause", "vote_result": "morning"}
EVENING = ("announce", "talk", "proposal", "proposal_vote", "proposal_result", "ritual",
           "ritual_result", "pause", "vote", "vote_result")


def sample_state(game: Any, view: View, rng: random.Random) -> State:
    """A state whose view for ``view["seat"]`` equals ``view`` (see the module docstring)."""
    n = len(view["players"])
    roles = belief.deal_roles(view, rng, _day_constraint(view))
    state: State = {
        "game": view["game"], "players": list(view["players"]),
        "rng": seed_state(rng.getrandbits(64)),
        "version": view["state_id"], "log": [dict(e) for e in view["log"]], "options": {},
        "n": n, "cfg": _config(view, n), "form": list(view["forms"]),
        "hands": _hands(view, roles, rng), "next_card": 0, "day": view["day"],
        "seals": view["seals"], "failed": view["failed_rituals"], "curse": view["curse"],
        "chief": _chief(view), "required": list(view["required"]),
        "guard_last": _guard_last(view, rng), "serial": _serial(view), "scene": {},
        "today": {}, "seer_results": [], "outcome": view["outcome"], "roles": roles,
        "record": list(view["record"]),
        "lays": [[list(x) for x in view["my_lays"]] if s == view["seat"] else []
                 for s in range(n)],
    }
    state["next_card"] = _next_card(state)
    if view["scene"] == "ready":
        state["scenario_required"] = []
    state["today"] = _today(view, state, rng)
    state["seer_results"] = _seer_results(view, state, rng)
    state["scene"] = _scene(view, state, rng)
    return state


def _day_constraint(view: View) -> Any:
    """What the cats per place a witch or a guarding protector sees demand of the roles."""
    counts = view.get("cat_counts")
    if counts is None or view["outcome"] is not None:
        return None
    forms = view["forms"]
    me = view["seat"]
    cats = [s for s in range(len(forms)) if forms[s] == CAT_FORM]
    frogs = [s for s in range(len(forms)) if forms[s] == FROG]

    def herbalist(roles: list[str]) -> bool:  # a herbalist in cat form who can restore a frog
        return any(roles[s] == data.HERBALIST and s != me and [f for f in frogs if f != s]
                   for s in cats)

    if view["scene"] == "witches":
        return herbalist if counts.get(data.pond(), 0) else None
    # the guarding protector: the cats he does not see counted are witches or a restorer
    uncounted = len(cats) - 1 - sum(counts.values())

    def accept(roles: list[str]) -> bool:
        witches = sum(1 for s in cats if roles[s] == data.WITCH)
        return witches <= uncounted <= witches + (1 if herbalist(roles) else 0)
    return accept


# --- numbers ----------------------------------------------------------------------------------

def _config(view: View, n: int) -> dict[str, Any]:
    row = data.band(n, view["deal"])
    timers = {k: data.timer_default(k) for k in data.TIMER_KEYS}
    d = view.get("deadline")
    if d:
        timers[str(d["key"]).rsplit(":", 1)[1]] = float(d["seconds"])
    return {"seals": view["seals_needed"], "knights_day": view["knights_day"],
            "curse_bar": view["curse_bar"], "circle": list(row["circle"]),
            "hand_size": data.tab()["game"]["hand_size"],
            "max_changes": data.tab()["game"]["max_changes"],
            "time_limits": view["time_limits"], "deal": view["deal"], "timers": timers}


def _serial(view: View) -> int:
    d = view.get("deadline")
    if d:
        return int(str(d["key"]).split(":")[1])
    return 0


def _chief(view: View) -> int:
    """The last chief: shown during proposals, announced in the log, else the start value."""
    if view["chief"] is not None:
        return view["chief"]
    for event in reversed(view["log"]):
        if event.get("kind") == "chief":
            return int(event["chief"])
        if event.get("kind") == "morning" and event.get("day") == 1:
            break
    return len(view["players"]) - 1


def _guard_last(view: View, rng: random.Random) -> str | None:
    if view["role"] == data.PROTECTOR:
        return view.get("guard_last")
    if view["day"] <= 1:
        return None
    return rng.choice([None, *data.open_places(view["day"] - 1)])


def _seer_results(view: View, state: State, rng: random.Random) -> list[list[Any]]:
    """The seer's findings: this seat's own if it is her, else one look per evening."""
    if view["role"] == data.SEER:
        return [list(r) for r in view.get("seen") or []]
    roles, forms = state["roles"], state["form"]
    seers = [s for s, r in enumerate(roles) if r == data.SEER]
    if not seers:
        return []
    seer = seers[0]
    days = list(range(1, view["day"])) + ([view["day"]] if state["today"].get("seen") else [])
    out: list[list[Any]] = []
    for day in days:
        targets = [s for s in range(len(roles)) if s != seer and forms[s] != BANISHED]
        if targets:
            t = rng.choice(targets)
            out.append([day, t, "witch" if roles[t] == data.WITCH else "no_witch"])
    return out


# --- hands ------------------------------------------------------------------------------------

def _hands(view: View, roles: list[str], rng: random.Random) -> list[list[dict[str, Any]]]:
    """The seat's own hand; every other hand collected day by day, less its ritual cards."""
    n = len(view["players"])
    size = data.tab()["game"]["hand_size"]
    done = view["day"] - (0 if view["scene"] in EVENING else 1)
    laid = _rituals_sat(view)
    out: list[list[dict[str, Any]]] = []
    serial = 1000
    for s in range(n):
        if s == view["seat"]:
            out.append([{"id": c["id"], "ing": c["ing"], "spoiled": False}
                        for c in view["hand"]])
            continue
        hand: list[dict[str, Any]] = []
        for day in range(max(1, done - size - 2), done + 1):
            if day < 1:
                continue
            if view["forms"][s] != CAT_FORM and rng.random() < 0.5:
                continue
            serial += 1
            hand.append({"id": f"i{serial}", "ing": data.ingredient_at(
                rng.choice(data.open_places(day))), "spoiled": False})
            del hand[:max(0, len(hand) - size)]
        for _ in range(laid.get(s, 0) if roles[s] not in (data.WITCH, data.CROW) else 0):
            if hand:
                hand.pop(rng.randrange(len(hand)))
        out.append(hand)
    return out


def _rituals_sat(view: View) -> dict[int, int]:
    """How many rituals each seat sat in, as far as the log shows."""
    out: dict[int, int] = {}
    members: list[int] = []
    for event in view["log"]:
        if event.get("kind") == "proposal":
            members = list(event.get("members") or [])
        elif event.get("kind") == "ritual":
            for s in members:
                out[s] = out.get(s, 0) + 1
    return out


def _next_card(state: State) -> int:
    numbers = [int(c["id"][1:]) for hand in state["hands"] for c in hand
               if c["id"][1:].isdigit()]
    return max(numbers, default=0)


# --- today ------------------------------------------------------------------------------------

def _today(view: View, state: State, rng: random.Random) -> dict[str, Any]:
    if view["day"] == 0:
        return {}
    name = view["scene"]
    n = len(view["players"])
    proposals = _chiefs_today(view)
    talked = name in EVENING[1:]
    today: dict[str, Any] = {
        "fluch": False, "seer_open": talked and name not in ("vote", "vote_result"),
        "thief_open": name == "talk" or (name == "proposal" and proposals <= 1),
        "seen": False, "stolen": False, "proposals": proposals,
    }
    if talked:
        if view["role"] == data.SEER:
            today["seen"] = any(r[0] == view["day"] for r in view.get("seen") or [])
        else:
            today["seen"] = rng.random() < (0.5 if name == "talk" else 0.9)
        if view["role"] == data.PICKPOCKET:
            today["stolen"] = _stole_today(view)
        else:
            today["stolen"] = rng.random() < (0.5 if name == "talk" else 0.9)
    if view["members"]:
        today["members"] = list(view["members"])
    elif name in ("proposal_result", "ritual"):
        today["members"] = _last_members(view)
    if name in ("pick", "guard", "witches"):
        _day_choices(view, state, today, rng)
    if name in EVENING:
        evening = _last(view, "evening")
        today["turned"] = list(evening.get("frogs") or []) if evening else []
        today["restored"] = list(evening.get("restored") or []) if evening else []
        today["picks"] = [None] * n
        today["witches"] = [None] * n
    return today


def _chiefs_today(view: View) -> int:
    count = 0
    for event in reversed(view["log"]):
        if event.get("kind") == "morning":
            break
        if event.get("kind") == "chief":
            count += 1
    return count


def _stole_today(view: View) -> bool:
    for event in reversed(view["log"]):
        if event.get("kind") == "morning":
            return False
        if event.get("kind") == "stolen":
            return True
    return False


def _last(view: View, kind: str) -> dict[str, Any] | None:
    for event in reversed(view["log"]):
        if event.get("kind") == kind:
            return event
    return None


def _last_members(view: View) -> list[int]:
    event = _last(view, "proposal")
    return list(event.get("members") or []) if event else []


def _pickers(view: View, state: State) -> list[int]:
    """The cats that pick a place today (every cat in cat form but the witches)."""
    roles, forms = state["roles"], state["form"]
    return [s for s in range(len(roles)) if forms[s] == CAT_FORM and roles[s] != data.WITCH]


def _guard_step(view: View, state: State, rng: random.Random) -> int | None:
    """Who guards now if the protector's step is running (None if the pick still is): the seat
    itself in its ``guard`` scene; for a seat that picked and is no longer asked, maybe the
    protector it cannot see (or the seat used up its changes)."""
    me = view["seat"]
    if view["scene"] == "guard":
        return me
    if view["scene"] != "pick" or view["my_choice"] is None or me in view["active"]:
        return None
    hidden = [s for s in _pickers(view, state)
              if s != me and state["roles"][s] == data.PROTECTOR]
    return hidden[0] if hidden and rng.random() < 0.5 else None


def _day_choices(view: View, state: State, today: dict[str, Any], rng: random.Random) -> None:
    """The day's picks once the pick is over (the guard step, the witches' window) and the
    witches' choices. What the seat sees of them — its own pick, the cats per place — holds."""
    me, roles, forms = view["seat"], state["roles"], state["form"]
    n = len(roles)
    places = data.open_places(view["day"])
    pickers = _pickers(view, state)
    frogs = [s for s in range(n) if forms[s] == FROG]
    guard_seat = _guard_step(view, state, rng)
    if view["scene"] == "pick" and guard_seat is None:
        return  # the others' picks are still to come (in the playout)
    picks: list[dict[str, Any] | None] = [None] * n
    guard_place = None
    counts = view.get("cat_counts")
    if counts is not None:
        slots = [p for p, k in counts.items() for _ in range(k)]
        rng.shuffle(slots)
        others = [s for s in pickers if s != guard_seat]
        herb = [s for s in others if roles[s] == data.HERBALIST and [f for f in frogs if f != s]]
        restoring = herb[:1] if (data.pond() in slots or len(others) > len(slots)) else []
        if data.pond() in slots:
            slots.remove(data.pond())
        for s in restoring:
            picks[s] = {"restore": rng.choice([f for f in frogs if f != s])}
        rest = [s for s in others if s not in restoring]
        for s, where in zip(rest, slots, strict=False):
            if (guard_seat is None and roles[s] == data.PROTECTOR and guard_place is None
                    and where != state["guard_last"] and rng.random() < 0.5):
                picks[s], guard_place = {"guard": True}, where
            else:
                picks[s] = {"place": where}
        for s in rest[len(slots):]:
            picks[s] = {"place": rng.choice(places)}
    else:
        for s in pickers:
            pick = _random_pick(s, roles, frogs, places, state, rng)
            if pick.get("guard") and (guard_place is not None or view["scene"] == "pick"):
                pick = {"place": rng.choice(places)}
            elif pick.get("guard"):
                guard_place = rng.choice([p for p in places if p != state["guard_last"]]
                                         or places)
            picks[s] = pick
    if guard_seat is not None:
        picks[guard_seat] = {"guard": True}
        guard_place = None
    mine = view["my_choice"]
    if isinstance(mine, dict) and me in pickers and guard_seat != me:
        picks[me] = dict(mine)
    today["picks"] = picks
    if view["scene"] == "witches":
        if guard_place is not None:
            today["guard"] = guard_place
        today["witches"] = [None] * n
        for s in range(n):
            if forms[s] == CAT_FORM and roles[s] == data.WITCH:
                today["witches"][s] = {"place": None, "spell": None, "targets": [],
                                       "stage": "place"}
        own = view.get("witch")
        if own is not None:
            today["witches"][me] = {"place": own["place"], "spell": own["spell"],
                                    "targets": list(own["targets"]), "stage": own["stage"]}


def _random_pick(seat: int, roles: list[str], frogs: list[int], places: list[str],
                 state: State, rng: random.Random) -> dict[str, Any]:
    role = roles[seat]
    if role == data.HERBALIST and [f for f in frogs if f != seat] and rng.random() < 0.5:
        return {"restore": rng.choice([f for f in frogs if f != seat])}
    if role == data.PROTECTOR and rng.random() < 0.5 and [
            p for p in places if p != state["guard_last"]]:
        return {"guard": True}
    return {"place": rng.choice(places)}


# --- the scene --------------------------------------------------------------------------------

def _scene(view: View, state: State, rng: random.Random) -> dict[str, Any]:
    """The current scene: who it needs, what was submitted (the hidden parts drawn)."""
    me, n = view["seat"], len(view["players"])
    name = view["scene"]
    scene: dict[str, Any] = {"name": name, "serial": state["serial"], "need": [],
                             "count": [0] * n, "choice": [None] * n}
    if name in ("pick", "guard", "witches"):
        return _day_scene(view, state, scene, rng)
    count, choice = scene["count"], scene["choice"]
    cats = [s for s in range(n) if state["form"][s] == CAT_FORM]
    submitted = set(view["submitted"])
    # the others the seat sees waited on are needed; the seat itself may be waited on for a
    # power (seer, pickpocket) or a change, so whether it is needed follows from the scene
    scene["need"] = sorted([s for s in view["active"] if s != me and s not in submitted]
                           + ([me] if me not in submitted and _needed(view, me) else []))
    if name in AFTER:
        scene["after"] = AFTER[name]
    elif name == "proposal_result":
        result = _last(view, "proposal_result")
        scene["after"] = "ritual" if result and result.get("passed") else "proposal"
    elif name == "proposal":
        scene["size"] = view["proposal_size"]
    for s in submitted:
        count[s] = 1
        if name == "proposal_vote":
            choice[s] = rng.random() < 0.5
        elif name == "vote":
            choice[s] = rng.choice([t for t in cats if t != s] + [None])
        elif name == "ritual":
            choice[s] = _laid(state, s, rng)
        else:
            choice[s] = True
    if me in submitted:
        if name in CHANGEABLE:
            count[me] = 1 if me in view["active"] else state["cfg"]["max_changes"]
            choice[me] = view["my_choice"]
        elif name == "ritual":
            laid = _last(view, "laid")
            choice[me] = {"ing": laid.get("ingredient") if laid else data.EMPTY_HAND,
                          "spoiled": False}
    return scene


def _needed(view: View, me: int) -> bool:
    """Whether the current (non-secret) scene asks the seat itself, before it answers."""
    name = view["scene"]
    cat = view["forms"][me] == CAT_FORM
    if name == "proposal":
        return view["chief"] == me
    if name == "ritual":
        return me in view["members"]
    if name in ("talk", "proposal_vote", "vote"):
        return cat
    return name in ("ready", "announce", "proposal_result", "ritual_result", "vote_result")


def _laid(state: State, seat: int, rng: random.Random) -> dict[str, Any]:
    if state["roles"][seat] in (data.WITCH, data.CROW) and rng.random() < 0.8:
        return {"ing": data.fluchkraut(), "spoiled": False}
    options = [{"ing": c["ing"], "spoiled": c["spoiled"]} for c in state["hands"][seat]]
    return rng.choice(options) if options else {"ing": data.EMPTY_HAND, "spoiled": False}


def _day_scene(view: View, state: State, scene: dict[str, Any],
               rng: random.Random) -> dict[str, Any]:
    me, n = view["seat"], len(view["players"])
    today = state["today"]
    if view["scene"] == "witches":
        scene["need"] = [s for s in range(n) if today["witches"][s] is not None
                         and today["witches"][s]["stage"] != "done"]
        for s in range(n):
            if today["witches"][s] is not None and s not in scene["need"]:
                scene["count"][s], scene["choice"][s] = 1, True
        return scene
    if "picks" in today:  # the protector's guard step (same serial as the pick)
        guard = next(s for s, p in enumerate(today["picks"]) if p and p.get("guard"))
        return {**scene, "name": "guard", "need": [guard]}
    pickers = _pickers(view, state)
    mine = view["my_choice"]
    need = [s for s in pickers if s != me]
    if me in pickers:
        if mine is None:
            need.append(me)
        else:
            scene["count"][me] = 1 if me in view["active"] else state["cfg"]["max_changes"]
            scene["choice"][me] = dict(mine)
    # the others have not picked yet (their picks come in the playout)
    scene["need"] = sorted(need)
    return scene
