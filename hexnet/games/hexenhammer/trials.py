"""The six trial cards (green): played on the current witch by anyone but the inquisitor,
cancelled by their twin, otherwise carried out at once."""

from __future__ import annotations

from hexnet.engine import State, emit
from hexnet.games.hexenhammer import data
from hexnet.games.hexenhammer.effects import current_witches, owners, set_suspicion
from hexnet.games.hexenhammer.phases import ask_inquisitor, begin_phase4, burn_and_go_on


def trial_trigger(state: State, seat: int, cid: str, target: str | None) -> dict:
    """The record of a trial card just played (its twin window answers it)."""
    kind = state["cards"][cid][0]
    if target:
        emit(state, "trial_on", player=seat, kind=kind, target=target,
             owners=owners(state, target))
    else:
        emit(state, "trial", player=seat, kind=kind)
    return {"type": "trial", "card": cid, "kind": kind, "player": seat, "target": target}


def cancel_by_twin(state: State, trigger: dict, seat: int, twin: str) -> None:
    """The twin answers the trial: both cards go to the discard, neither has an effect."""
    state["discard"].extend([trigger["card"], twin])
    emit(state, "twin", player=seat, kind=state["cards"][twin][0])


def resolve_trial(state: State, trigger: dict) -> None:
    """An uncancelled trial: find the current witch (the inquisitor breaks a tie), then act."""
    if data.CARDS[trigger["kind"]]["effect"] == "unmark":
        carry_out(state, trigger, trigger["target"])
        return
    witches = current_witches(state)
    if len(witches) > 1:
        ask_inquisitor(state, witches, "trial", trigger)
    else:
        carry_out(state, trigger, witches[0])


def carry_out(state: State, trigger: dict, vid: str) -> None:
    """The trial's effect on ``vid``; the phase ends and play goes on with phase 4 (or the game
    ends after a burning). Cards worth VP are kept by their player, the others leave the game."""
    card = data.CARDS[trigger["kind"]]
    seat, cid = trigger["player"], trigger["card"]
    effect = card["effect"]
    if effect != "protect":
        (state["kept"][seat] if card["vp"] else state["removed"]).append(cid)
    named = {"kind": trigger["kind"], "villager": vid, "owners": owners(state, vid)}
    if effect == "burn":
        emit(state, "trial_burns", player=seat, vp=card["vp"], **named)
        burn_and_go_on(state, vid, state["inquisitor"])
    elif effect == "drown":
        emit(state, "trial_drowns", player=seat, **named)
        burn_and_go_on(state, vid, seat, drowned=True)
    elif effect == "protect":
        state["protected"] = {"villager": vid, "card": cid}
        emit(state, "trial_protects", **named)
        begin_phase4(state)
    else:
        goal = data.TOP if effect == "mark" else state["villagers"][vid]["start"]
        before, after = set_suspicion(state, vid, goal)
        emit(state, "trial_moves", before=before, after=after, **named)
        begin_phase4(state)
