"""Morning and day: required ingredients, place picks, the protector's guard, the witches'
window and the end of the day (attack, restoration, hand-out, win check)."""

from __future__ import annotations

from hexnet import rng
from hexnet.engine import Action, State
from hexnet.games.fang import data
from hexnet.games.fang.common import (
    CAT_FORM,
    FROG,
    announce,
    begin,
    cats,
    finalize,
    frogs,
    give_card,
    is_cat,
    is_witch,
    new_scene,
    starter,
    submit,
    tell,
)
from hexnet.games.fang.wins import check_end_of_day

# --- morning --------------------------------------------------------------------------------


@starter("morning")
def start_morning(state: State) -> None:
    """A new day: the duck announces tonight's ingredients; then the cats pick places."""
    state["day"] += 1
    state["today"] = {"fluch": False, "seer_open": False, "thief_open": False,
                      "seen": False, "stolen": False, "proposals": 0}
    state["curse"] = 0
    fixed = state.pop("scenario_required", [])
    if fixed:
        state["required"] = list(fixed)
    else:
        circle = state["cfg"]["circle"]
        size = min(circle[min(state["day"], len(circle)) - 1], len(cats(state)))
        pool = [data.ingredient_at(p) for p in data.open_places(state["day"])]
        state["required"] = [rng.choice(state, pool) for _ in range(size)]
    knights = state["day"] == state["cfg"]["knights_day"]
    announce(state, "morning_knights" if knights else "morning", kind="morning",
             day=state["day"], required=list(state["required"]))
    begin(state, "pick")


# --- place picks ----------------------------------------------------------------------------


def guard_places(state: State) -> list[str]:
    """Places the protector may guard today (not yesterday's guarded place)."""
    return [p for p in data.open_places(state["day"]) if p != state["guard_last"]]


@starter("pick")
def start_pick(state: State) -> None:
    """Every cat in cat form but the witches picks a place (hidden, changeable)."""
    need = [s for s in cats(state) if not is_witch(state, s)]
    new_scene(state, "pick", need)
    if not need:
        close_pick(state)


def legal_pick(state: State, seat: int) -> list[Action]:
    """Places; the herbalist may restore a frog; the protector may choose to guard."""
    out: list[Action] = [{"type": "pick", "place": p} for p in data.open_places(state["day"])]
    role = state["roles"][seat]
    if role == data.HERBALIST:
        out += [{"type": "restore", "frog": f} for f in frogs(state) if f != seat]
    if role == data.PROTECTOR and guard_places(state):
        out.append({"type": "guard"})
    return out


def apply_pick(state: State, seat: int, action: Action) -> None:
    """Record (or change) a pick; the scene closes when every picker has picked. The
    protector's *guard* is final once sent (the rulebook: "nicht mehr, nachdem der Beschützer
    'Bewachen' abgeschickt hat"); a place may still be changed to *guard*."""
    kind = action["type"]
    if kind == "pick":
        submit(state, seat, {"place": action["place"]})
    elif kind == "restore":
        submit(state, seat, {"restore": action["frog"]})
    else:
        submit(state, seat, {"guard": True})
        finalize(state, seat)
    if not state["scene"]["need"]:
        close_pick(state)


def default_pick(state: State, seat: int) -> None:
    """Timeout or absent: a random place for a seat that has not picked."""
    place = rng.choice(state, data.open_places(state["day"]))
    submit(state, seat, {"place": place})
    finalize(state, seat)


def timeout_pick(state: State) -> None:
    """At 0 s every cat without a pick gets a random place."""
    for seat in list(state["scene"]["need"]):
        default_pick(state, seat)
    close_pick(state)


def close_pick(state: State) -> None:
    """Picks are final: the guarding protector picks next, else the witches' window opens."""
    choices = state["scene"]["choice"]
    state["today"]["picks"] = choices
    guard = [s for s, c in enumerate(choices) if c and c.get("guard")]
    begin(state, "guard" if guard else "witches")


def counts_per_place(state: State, with_pond: bool) -> dict[str, int]:
    """Cats per place from today's non-witch picks (no names)."""
    places = data.open_places(state["day"]) + ([data.pond()] if with_pond else [])
    counts = dict.fromkeys(places, 0)
    for seat, where in enumerate(locations(state)):
        if where in counts and not is_witch(state, seat):
            counts[where] += 1
    return counts


def locations(state: State) -> list[str | None]:
    """Where each seat is today (place, the pond for a restoring herbalist, None)."""
    today = state["today"]
    out: list[str | None] = [None] * state["n"]
    for seat, choice in enumerate(today.get("picks") or []):
        if not choice:
            continue
        if "place" in choice:
            out[seat] = choice["place"]
        elif "restore" in choice:
            out[seat] = data.pond()
        elif today.get("guard"):
            out[seat] = today["guard"]
    for seat, witch in enumerate(today.get("witches") or []):
        if witch and witch.get("place"):
            out[seat] = witch["place"]
    return out


# --- the guarding protector -----------------------------------------------------------------


@starter("guard")
def start_guard(state: State) -> None:
    """The guarding protector picks last, seeing only the cats per place."""
    seat = next(s for s, c in enumerate(state["today"]["picks"]) if c and c.get("guard"))
    # to everyone else this still looks like the place pick (same serial, same timer)
    new_scene(state, "guard", [seat], same_step=True)


def legal_guard(state: State, seat: int) -> list[Action]:
    """Every open place but yesterday's guarded one."""
    return [{"type": "guard", "place": p} for p in guard_places(state)]


def apply_guard(state: State, seat: int, action: Action) -> None:
    """The guard is set; the witches' window opens."""
    submit(state, seat, action["place"])
    state["today"]["guard"] = action["place"]
    begin(state, "witches")


def default_guard(state: State, seat: int) -> None:
    """Timeout or absent: a random allowed place."""
    apply_guard(state, seat, {"type": "guard", "place": rng.choice(state, guard_places(state))})


# --- the witches' window --------------------------------------------------------------------


@starter("witches")
def start_witches(state: State) -> None:
    """Everyone is collecting; the witches pick place → spell → attack target."""
    need = [s for s in cats(state) if is_witch(state, s)]
    state["today"]["witches"] = [None] * state["n"]
    for s in need:
        state["today"]["witches"][s] = {"place": None, "spell": None, "targets": [],
                                        "stage": "place"}
    announce(state, "collecting")
    new_scene(state, "witches", need)
    if not need:
        end_of_day(state)


def witch_places(state: State) -> list[str]:
    """Where a witch may go: the open places and the pond."""
    return data.open_places(state["day"]) + [data.pond()]


def legal_witch(state: State, seat: int) -> list[Action]:
    """The witch's next step: place, then spell, then target(s)."""
    me = state["today"]["witches"][seat]
    stage = me["stage"]
    if stage == "place":
        return [{"type": "witch_place", "place": p} for p in witch_places(state)]
    if stage == "spell":
        return [{"type": "spell", "spell": s}
                for s in [data.NO_SPELL, *data.spells_unlocked(state["failed"])]]
    targets = [t for t in cats(state) if t != seat and t not in me["targets"]]
    return [{"type": "attack", "target": t} for t in targets] + [{"type": "no_attack"}]


def apply_witch(state: State, seat: int, action: Action) -> None:
    """Advance the witch's choices; the day ends when every witch is done."""
    me = state["today"]["witches"][seat]
    kind = action["type"]
    if kind == "witch_place":
        me["place"], me["stage"] = action["place"], "spell"
    elif kind == "spell":
        me["spell"], me["stage"] = action["spell"], "target"
    elif kind == "attack":
        me["targets"].append(action["target"])
        second = me["spell"] == data.DOPPELSCHLAG and len(me["targets"]) == 1
        me["stage"] = "target2" if second else "done"
    else:
        me["stage"] = "done"
    if me["stage"] == "done":
        submit(state, seat, True)
        if not state["scene"]["need"]:
            end_of_day(state)


def default_witch(state: State, seat: int) -> None:
    """Time is up for this witch: random place if none yet, no spell, no (further) attack."""
    me = state["today"]["witches"][seat]
    if me["place"] is None:
        me["place"] = rng.choice(state, witch_places(state))
    if me["spell"] is None:
        me["spell"] = data.NO_SPELL
    me["stage"] = "done"
    submit(state, seat, True)


def timeout_witches(state: State) -> None:
    """At 15 s the witches' choices are completed automatically and the day ends."""
    for seat in list(state["scene"]["need"]):
        default_witch(state, seat)
    end_of_day(state)


# --- end of the day -------------------------------------------------------------------------


def end_of_day(state: State) -> None:
    """(1) attack, (2) restoration, (3) hand-out, (4) win check; then the evening."""
    today = state["today"]
    where = locations(state)
    guard = today.get("guard")
    witches = [(s, w) for s, w in enumerate(today["witches"]) if w]
    turned: list[int] = []
    for _seat, w in witches:
        for target in w["targets"]:
            if where[target] == w["place"] and w["place"] != guard and target not in turned:
                turned.append(target)
    for seat in turned:
        state["form"][seat] = FROG
    restored: list[int] = []
    for seat, choice in enumerate(today["picks"]):
        if choice and "restore" in choice and seat not in turned:
            frog = choice["restore"]
            if state["form"][frog] == FROG:
                state["form"][frog] = CAT_FORM
                restored.append(frog)
    spoiled_at = {w["place"] for _s, w in witches if w["spell"] == data.VERDERBEN}
    for seat in range(state["n"]):
        place = where[seat]
        ingredient = data.ingredient_at(place) if place else None
        guarding = today["picks"][seat] and today["picks"][seat].get("guard")
        if ingredient and is_cat(state, seat) and seat not in turned and not guarding:
            give_card(state, seat, ingredient, spoiled=place in spoiled_at)
    for seat in range(state["n"]):
        pick = today["picks"][seat] or {}
        telling = bool(today["witches"][seat]) or "restore" in pick or bool(pick.get("guard"))
        key, args = _day_summary(state, seat, where[seat], turned)
        tell(state, [seat], key, kind="day_summary", names_role=telling, **args)
    state["guard_last"] = guard
    today["fluch"] = any(w["spell"] == data.FLUCH for _s, w in witches)
    today["turned"], today["restored"] = sorted(turned), restored
    if check_end_of_day(state):
        return
    begin(state, "announce")


def _day_summary(state: State, seat: int, place: str | None, turned: list[int]
                 ) -> tuple[str, dict]:
    """One private event for every seat (so the log's numbering tells nobody who did what):
    its key names the whole message — what the seat did, then whether it was turned into a
    frog or what it collected."""
    today = state["today"]
    pick = today["picks"][seat] or {}
    me = (today.get("witches") or [None] * state["n"])[seat]
    frog = seat in turned
    collected = bool(place and data.ingredient_at(place) and not pick.get("guard")
                     and not frog)
    args: dict = {"place": place}
    if collected:
        args["ingredient"] = data.ingredient_at(place)
    if me:
        args.update(spell=me["spell"], targets=list(me["targets"]))
        log_key = ("day_witch_frog" if frog else "day_witch_collected" if collected
                   else "day_witch")
    elif pick.get("guard"):
        log_key = "day_guard_frog" if frog else "day_guard"
    elif "restore" in pick:
        args["frog"] = pick["restore"]
        log_key = "day_restore_frog" if frog else "day_restore"
    elif place is None:
        log_key = "day_pond"
    else:
        log_key = "day_frog" if frog else "day_collected"
    return log_key, args


def cat_counts_view(state: State, seat: int | None) -> dict[str, int] | None:
    """The cats-per-place window: the witches in their window, the guarding protector."""
    scene = state.get("scene") or {}
    if seat is None or state.get("outcome") is not None:
        return None
    if scene.get("name") == "witches" and is_witch(state, seat) and is_cat(state, seat):
        return counts_per_place(state, with_pond=True)
    if scene.get("name") == "guard" and seat in scene["need"]:
        return counts_per_place(state, with_pond=False)
    return None
