"""What one seat may see of a Fang table — the only place secrets are filtered.

Never in a view: other seats' roles (except witches for witches and the crow, the banished,
and everything once the game is over), places picked, who was where, the witches' choices,
other hands (not even their sizes), laid ritual cards, spoiled marks (not even to the holder),
the seer's results (only to the seer), thefts, and how anyone voted before all have voted.
"""

from __future__ import annotations

from typing import Any

from hexnet.engine import State
from hexnet.games.fang import data
from hexnet.games.fang.common import CHANGEABLE, is_cat
from hexnet.games.fang.day import cat_counts_view
from hexnet.games.fang.setup import known_roles


def scene_seen(state: State, seat: int | None) -> str | None:
    """The scene as ``seat`` sees it: the guarding protector's turn looks like picking to
    everyone else."""
    name = state["scene"].get("name")
    if name == "guard" and seat not in state["scene"]["need"]:
        return "pick"
    return name


def public(state: State) -> dict[str, Any]:
    """What every seat (and a spectator) sees alike: the scene as all but its actor see it,
    and the roles everyone knows."""
    v = _table(state)
    v["roles"] = known_roles(state, None)
    v["role"] = None
    v["scene"] = scene_seen(state, None)
    return v


def _table(state: State) -> dict[str, Any]:
    """The public parts but the roles and the scene (which a seat may see otherwise)."""
    cfg = state["cfg"]
    scene = state["scene"]
    name = scene_seen(state, None)
    return {
        "day": state["day"],
        "knights_day": cfg["knights_day"],
        "days_to_knights": max(0, cfg["knights_day"] - state["day"]),
        "seals": state["seals"],
        "seals_needed": cfg["seals"],
        "curse": state["curse"],
        "curse_bar": cfg["curse_bar"],
        "failed_rituals": state["failed"],
        "spells_unlocked": data.spells_unlocked(state["failed"]),
        "required": list(state["required"]),
        "open_places": data.open_places(max(state["day"], 1)),
        "forms": list(state["form"]),
        "chief": state["chief"] if name in ("proposal", "proposal_vote") else None,
        "members": members(state, name),
        "proposal_size": scene.get("size"),
        "submitted": public_submitted(state),
        "time_limits": cfg["time_limits"],
        "deal": cfg["deal"],
        # the public record of the whole game (the log is only its last events): entries are
        # never changed, so the list is copied and they are shared
        "record": list(state.get("record") or []),
    }


def members(state: State, name: str | None) -> list[int]:
    """The proposed circle, while it is voted on, announced and at its ritual (``name``: the
    scene as everyone sees it)."""
    if name in ("proposal_vote", "proposal_result", "ritual"):
        return list(state["today"].get("members", []))
    return []


def own_hand(state: State, seat: int) -> list[dict[str, Any]]:
    """``seat``'s ingredient cards as it sees them: never whether one is spoiled."""
    return [{"id": c["id"], "ing": c["ing"]} for c in state["hands"][seat]]


def private(state: State, seat: int | None) -> dict[str, Any]:
    """What only ``seat`` sees, or sees otherwise: its role and the roles it knows, the scene
    where it sees it otherwise (the protector its guard), its hand, choice, counts and its
    role's findings (a spectator: nothing)."""
    if seat is None:
        return {}
    v = _own(state, seat)
    if v["scene"] == scene_seen(state, None):
        del v["scene"]  # as everyone sees it
    return v


def _own(state: State, seat: int) -> dict[str, Any]:
    """``seat``'s own parts, the scene as it sees it among them."""
    role = state["roles"][seat]
    name = scene_seen(state, seat)
    v: dict[str, Any] = {"roles": known_roles(state, seat), "role": role, "scene": name,
                         "hand": own_hand(state, seat),
                         "fluchkraut": role in (data.WITCH, data.CROW),
                         "my_choice": own_choice(state, seat),
                         "my_lays": [list(x) for x in
                                     (state.get("lays") or [[]] * state["n"])[seat]],
                         "cat_counts": cat_counts_view(state, seat)}
    if role == data.SEER:
        v["seen"] = [list(r) for r in state["seer_results"]]
    if role == data.PROTECTOR:
        v["guard_last"] = state["guard_last"]
    me = (state["today"]["witches"][seat]
          if role == data.WITCH and name == "witches" and is_cat(state, seat) else None)
    if me is not None:  # None: a frog when the window opened, restored at its end of day
        v["witch"] = {"place": me["place"], "spell": me["spell"],
                      "targets": list(me["targets"]), "stage": me["stage"]}
    return v


def build(state: State, seat: int | None) -> dict[str, Any]:
    """The game-specific part of ``seat``'s view: the public parts with the seat's own over
    them (built once each: search's playouts ask for it at every step)."""
    if seat is None:
        return public(state)
    return {**_table(state), **_own(state, seat)}


def public_submitted(state: State) -> list[int]:
    """Who has voted/confirmed/laid so far (never how); nothing in the secret day scenes."""
    scene = state["scene"]
    if scene.get("name") in ("pick", "guard", "witches", None):
        return []
    return [s for s, k in enumerate(scene["count"]) if k > 0]


def own_choice(state: State, seat: int) -> Any:
    """What ``seat`` itself submitted in the current scene (picks and votes)."""
    scene = state["scene"]
    name = scene.get("name")
    if name == "guard" and seat not in scene["need"]:
        return state["today"]["picks"][seat]
    if name in CHANGEABLE or name == "guard":
        return scene["choice"][seat]
    return None


def action_label(action: dict[str, Any], hand: list[dict[str, Any]]) -> dict[str, Any]:
    """An action's label as data (catalog context ``action``); ``hand`` is the seat's own
    ingredient cards (``{"id", "ing"}``), for naming what a ``lay`` lays."""
    kind = action.get("type")
    if kind in ("pick", "witch_place"):
        return {"key": "pick" if kind == "pick" else "witch_place", "place": action.get("place")}
    if kind == "guard":
        if "place" in action:
            return {"key": "guard_place", "place": action["place"]}
        return {"key": "guard"}
    if kind == "restore":
        return {"key": "restore", "frog": action.get("frog")}
    if kind == "spell":
        return {"key": "spell", "spell": action.get("spell")}
    if kind in ("attack", "vote"):
        return {"key": "attack" if kind == "attack" else "vote", "target": action.get("target")}
    if kind in ("see", "steal"):
        return {"key": "see" if kind == "see" else "steal", "target": action.get("target")}
    if kind == "propose":
        return {"key": "propose", "members": action.get("members")}
    if kind == "vote_proposal":
        return {"key": "vote_yes" if action.get("yes") else "vote_no"}
    if kind == "lay":
        card = action.get("card")
        held = next((c["ing"] for c in hand if c.get("id") == card), card)
        return {"key": "lay", "ingredient": held}
    if kind == "no_attack":
        return {"key": "no_attack"}
    if kind == "abstain":
        return {"key": "abstain"}
    if kind == "ready":
        return {"key": "ready"}
    if kind == "confirm":
        return {"key": "confirm"}
    return {"key": "end_talk"}
