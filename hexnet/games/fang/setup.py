"""Setting up a table: options, the role deal, who knows whom, scenarios and the ready scene."""

from __future__ import annotations

from typing import Any

from hexnet import rng
from hexnet.engine import Action, IllegalAction, State
from hexnet.games.fang import data
from hexnet.games.fang.common import (
    BANISHED,
    CAT_FORM,
    FROG,
    begin,
    new_scene,
    seats_with,
    starter,
    submit,
    tell,
)


def config(players: int, options: dict[str, Any]) -> dict[str, Any]:
    """The table's numbers: the band for ``players`` with the host's overrides applied."""
    deal = str(options.get("deal", data.default_deal()))
    if deal not in data.deals():
        raise IllegalAction("unknown_deal")
    row = data.band(players, deal)
    cfg = {
        "seals": int(options.get("seals", row["seals"])),
        "knights_day": int(options.get("knights_day", row["knights_day"])),
        "curse_bar": int(options.get("curse_bar", row["curse_bar"])),
        "circle": [int(x) for x in options.get("circle", row["circle"])],
        "hand_size": int(options.get("hand_size", data.tab()["game"]["hand_size"])),
        "max_changes": max(1, int(options.get("max_changes",
                                              data.tab()["game"]["max_changes"]))),
        "time_limits": bool(options.get("time_limits", False)),
        "deal": deal,
        "timers": {k: float(options.get(f"{k}_seconds", data.timer_default(k)))
                   for k in data.TIMER_KEYS},
    }
    if cfg["seals"] < 1 or cfg["knights_day"] < 1 or cfg["curse_bar"] < 1 or not cfg["circle"]:
        raise IllegalAction("numbers_positive")
    return cfg


def role_list(players: int, options: dict[str, Any]) -> list[str]:
    """The roles to deal: the host's list (padded with Dorfkatzen) or the table's role table
    (option ``deal``: see ``[deals]`` in ``seeds/fang.toml``)."""
    chosen = options.get("roles")
    if chosen is None:
        return data.deal_for(players, str(options.get("deal", data.default_deal())))
    roles = list(chosen)
    unknown = [r for r in roles if r not in data.role_ids()]
    if unknown or len(roles) > players:
        raise IllegalAction("unusable_roles")
    roles += [data.CAT] * (players - len(roles))
    if data.WITCH not in roles:
        raise IllegalAction("roles_need_witch")
    return roles


def setup_state(state: State) -> None:
    """Fill a fresh ``state`` (players, rng, options already there) and open the first scene."""
    n = len(state["players"])
    options = state["options"]
    scenario: dict[str, Any] = dict(options.get("scenario") or {})
    state.update({
        "n": n, "cfg": config(n, options), "form": [CAT_FORM] * n, "hands": [[] for _ in range(n)],
        "next_card": 0, "day": 0, "seals": 0, "failed": 0, "curse": 0, "chief": n - 1,
        "required": [], "guard_last": None, "serial": 0, "scene": {}, "today": {},
        "seer_results": [], "outcome": None, "record": [], "lays": [[] for _ in range(n)],
    })
    if "roles" in scenario:
        roles = list(scenario["roles"])
        if len(roles) != n or any(r not in data.role_ids() for r in roles):
            raise IllegalAction("scenario_roles")
    else:
        roles = role_list(n, options)
        rng.shuffle(state, roles)
    state["roles"] = roles
    _apply_scenario(state, scenario)
    _tell_roles(state)
    if scenario and not scenario.get("ready", False):
        begin(state, "morning")
    else:
        begin(state, "ready")


def _apply_scenario(state: State, scenario: dict[str, Any]) -> None:
    for seat in scenario.get("frogs", []):
        state["form"][seat] = FROG
    for seat in scenario.get("banished", []):
        state["form"][seat] = BANISHED
    for seat, hand in enumerate(scenario.get("hands", [])):
        for item in hand:
            spoiled = item.endswith("*")
            ingredient = item.rstrip("*")
            if ingredient not in data.ingredient_ids():
                raise IllegalAction("scenario_ingredient", ingredient=ingredient)
            state["next_card"] += 1
            state["hands"][seat].append({"id": f"i{state['next_card']}", "ing": ingredient,
                                         "spoiled": spoiled})
    for key in ("seals", "failed", "guard_last"):
        if key in scenario:
            state[key] = scenario[key]
    if "chief" in scenario:  # the chief before the first proposal of the scenario
        state["chief"] = int(scenario["chief"])
    state["day"] = int(scenario.get("day", 1)) - 1
    state["scenario_required"] = list(scenario.get("required", []))


def _tell_roles(state: State) -> None:
    witches = seats_with(state, data.WITCH)
    for seat, role in enumerate(state["roles"]):
        tell(state, [seat], "role", seat=seat, role=role)
    knowers = witches + seats_with(state, data.CROW)
    if knowers:
        tell(state, knowers, "witches", witches=witches)


def known_roles(state: State, viewer: int | None) -> list[str | None]:
    """Each seat's role as ``viewer`` may know it (None where hidden)."""
    roles = state["roles"]
    if state.get("outcome") is not None:
        return list(roles)
    if viewer is not None and roles[viewer] in (data.WITCH, data.CROW):
        out = [r if f == BANISHED or r == data.WITCH else None
               for r, f in zip(roles, state["form"], strict=True)]
    else:
        out = [r if f == BANISHED else None for r, f in zip(roles, state["form"], strict=True)]
    if viewer is not None:
        out[viewer] = roles[viewer]
    return out


# --- the ready scene ------------------------------------------------------------------------

@starter("ready")
def start_ready(state: State) -> None:
    """Everyone checks their role and taps ready."""
    new_scene(state, "ready", list(range(state["n"])))


def legal_ready(state: State, seat: int) -> list[Action]:
    """Only "ready"."""
    return [{"type": "ready"}] if seat in state["scene"]["need"] else []


def apply_ready(state: State, seat: int, action: Action) -> None:
    """Mark ``seat`` ready; when all are, day 1 begins."""
    submit(state, seat, True)
    if not state["scene"]["need"]:
        begin(state, "morning")
