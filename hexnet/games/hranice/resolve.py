"""Resolving an action step by step, pausing whenever a seat must answer.

``state["step"]`` is the action under way: ``kind`` (draw, citizen, accuse, cleanse, ignite,
interrogate, confiscate, pass), ``seat`` (the actor), ``stage`` and the action's details. Each
stage either opens a reaction window (and names the stage that reads its answer), waits for the
actor (``choose``, Výslech's pick), or moves on; ``done`` ends the action.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hexnet.engine import State, emit
from hexnet.games.hranice import board, cards, dice, pyre, reactions, turn

Step = dict[str, Any]


def run(state: State) -> None:
    """Carry the game forward until some seat must answer, or the game ends."""
    while state["outcome"] is None:
        window = state["window"]
        if window is not None and window["pending"]:  # (reactions.asked, inline: every step)
            return
        step = state["step"]
        if step is None or step["stage"] in ("choose", "flip"):
            return
        if step["stage"] == "done":
            state["step"] = None
            turn.end_action(state)
            continue
        STAGES[step["stage"]](state, step)


def _protest(state: State, step: Step) -> None:
    reactions.open_window(state, {"event": "action", "actor": step["seat"],
                                  "card": step["card"], "target": step.get("target"),
                                  "player": step.get("player")})
    step["stage"] = "protested"


def _protested(state: State, step: Step) -> None:
    if reactions.take(state) is not None:
        emit(state, "cancelled", kind="cancelled", card=step["card"])
        step["stage"] = "done"
        return
    automatic = cards.info(step["card"]).get("automatic", False)
    step["stage"] = {
        "accuse": "declare", "ignite": "ignite", "interrogate": "look",
        "confiscate": "confiscate", "cleanse": "cleansed" if automatic else "roll",
    }[step["kind"]]


def _declare(state: State, step: Step) -> None:
    target, owner = step["target"], step["owner"]
    emit(state, "accuses", kind="accuse", seat=step["seat"], target=target, owner=owner)
    reactions.open_window(state, {"event": "accused", "actor": step["seat"], "target": target,
                                  "owner": owner, "card": step["card"]})
    step["stage"] = "alibied"


def _alibied(state: State, step: Step) -> None:
    if reactions.take(state) is not None:
        emit(state, "alibi", kind="accusation", success=False, target=step["target"])
        step["stage"] = "done"
    elif step["card"] and cards.info(step["card"]).get("automatic"):
        emit(state, "no_roll", kind="accusation", success=True, card=step["card"],
             target=step["target"])
        step["stage"] = "to_pyre"
    else:
        step["stage"] = "roll"


def _roll(state: State, step: Step) -> None:
    seat, target = step["seat"], step["target"]
    if step["kind"] == "accuse":
        mods = dice.council_mods(state, seat, "accuse_bonus")
        bonus = cards.info(step["card"]).get("roll_bonus", 0) if step["card"] else 0
        if bonus:
            mods.append([step["card"], bonus])
        base, guards = board.defence(state, target)
        check = dice.new_check(state, mods, base, [list(g) for g in guards], strict=False)
    else:
        mods = dice.council_mods(state, seat, "cleanse_bonus")
        check = dice.new_check(state, mods, cards.influence(target), [], strict=True)
    step["check"] = check
    emit(state, "rolls_accusing" if step["kind"] == "accuse" else "rolls_cleansing",
         kind="roll", seat=seat, die=check["die"], target=target)
    reactions.open_window(state, {"event": "roll", "actor": seat, "kind": step["kind"],
                                  "target": target, "owner": step.get("owner"),
                                  "die": check["die"], "total": dice.total(check),
                                  "needed": dice.needed(check), "strict": check["strict"]})
    step["stage"] = "rolled"


def _rolled(state: State, step: Step) -> None:
    check = step["check"]
    played = reactions.take(state)
    if played is not None:
        seat, action = played
        effect = cards.info(action["card"])["effect"]
        if effect == "reroll":
            check["die"] = dice.roll(state)
            check["rolls"].append(check["die"])
        else:
            check["mods"].append([cards.kind_of(action["card"]), action["sign"]])
    success = dice.succeeds(check)
    sums = {"seat": step["seat"], "target": step["target"], "success": success,
            "die": check["die"], "total": dice.total(check), "needed": dice.needed(check),
            "rolls": list(check["rolls"]), "mods": [list(m) for m in check["mods"]],
            "defence": check["defence"],
            "defence_mods": [list(m) for m in check["defence_mods"]],
            "strict": check["strict"]}
    if step["kind"] == "accuse":
        emit(state, "accusation_succeeds" if success else "accusation_fails",
             kind="accusation", owner=step.get("owner"), **sums)
    else:
        emit(state, "cleansing_succeeds" if success else "cleansing_fails", kind="cleansing",
             **sums)
    if not success:
        step["stage"] = "done"
    else:
        step["stage"] = "to_pyre" if step["kind"] == "accuse" else "cleansed"


def _to_pyre(state: State, step: Step) -> None:
    reactions.open_window(state, {"event": "to_pyre", "actor": step["seat"],
                                  "target": step["target"], "owner": step["owner"]})
    step["stage"] = "pyred"


def _pyred(state: State, step: Step) -> None:
    target, owner = step["target"], step["owner"]
    if reactions.take(state) is not None:
        state["councils"][owner].remove(target)
        state["hands"][owner].append(target)
        emit(state, "returned", kind="returned", card=target, seat=owner)
    else:
        pyre.place(state, target, step["seat"])
    step["stage"] = "done"


def _cleansed(state: State, step: Step) -> None:
    target = step["target"]
    state["pyre"].remove(target)
    state["councils"][step["seat"]].append(target)
    emit(state, "cleansed", kind="cleansed", seat=step["seat"], card=target)
    step["stage"] = "done"


def _ignite(state: State, step: Step) -> None:
    if state["pyre"]:
        pyre.ignite(state, step["seat"])
    step["stage"] = "done"


def _look(state: State, step: Step) -> None:
    victim = step["player"]
    hand = state["hands"][victim]
    if not hand:
        emit(state, "nothing_to_look_at", seat=victim)
        step["stage"] = "done"
        return
    emit(state, "peek", to=[step["seat"]], kind="peek", player=victim, cards=",".join(hand))
    step["stage"] = "choose"


def _confiscate(state: State, step: Step) -> None:
    board.steal_random(state, step["seat"], step["player"], step["card"])
    step["stage"] = "done"


def choose_discard(state: State, kind: str) -> None:
    """Výslech's pick: discard a card of ``kind`` from the looked-at hand (shown to all)."""
    step = state["step"]
    card = board.take_from_hand(state, step["player"], kind)
    state["discard"].append(card)
    emit(state, "discards_theirs", kind="discard", card=card, player=step["player"],
         seat=step["seat"])
    step["stage"] = "done"


STAGES: dict[str, Callable[[State, Step], None]] = {
    "protest": _protest, "protested": _protested, "declare": _declare, "alibied": _alibied,
    "roll": _roll, "rolled": _rolled, "to_pyre": _to_pyre, "pyred": _pyred,
    "cleansed": _cleansed, "ignite": _ignite, "look": _look, "confiscate": _confiscate,
}
