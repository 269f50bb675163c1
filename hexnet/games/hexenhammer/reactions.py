"""Reaction windows: after every card (and every call of the Inquisition) each other seat
answers with a fitting ★ card or ``pass``, whether or not it holds one.

A reaction reopens the window for every seat (the reaction itself cannot be answered, but the
card it changed can be answered again); Keyne Inquisition, a trial's twin and Widerruf close it at
once. When every asked seat has passed, the window closes and the card, call or trial takes
effect.
"""

from __future__ import annotations

from hexnet import turns
from hexnet.engine import Action, State, emit
from hexnet.games.hexenhammer import data
from hexnet.games.hexenhammer.effects import accused_bonus, owners, resolve_card
from hexnet.games.hexenhammer.phases import after_card, begin_phase2, begin_turn
from hexnet.games.hexenhammer.trials import cancel_by_twin, resolve_trial


def open_window(state: State, trigger: dict, actor: int) -> None:
    """Ask every seat but ``actor`` to answer ``trigger``. A trial played while a card waits in
    its window sets that window aside until the trial is settled (see :func:`resume`)."""
    if state["window"] is not None:
        state["interrupted"] = state["window"]
    state["windows"] += 1
    state["window"] = turns.open_window(trigger, turns.others_in_order(actor,
                                                                       len(state["players"])))


def resume(state: State) -> None:
    """A trial's twin cancelled it: play goes on as if neither had been played — the window
    it interrupted opens again where it stopped (with a fresh timer), or in phase 2 everyone
    is asked again; in phase 3 the turn player still plays a card or passes."""
    interrupted = state["interrupted"]
    if interrupted is not None:
        state["interrupted"] = None
        state["windows"] += 1
        state["window"] = interrupted
    elif state["phase"] == 2:
        state["done"] = []


def void_interrupted(state: State) -> None:
    """A trial stands: its phase ends at once, and the card waiting in the window it
    interrupted goes to the discard pile without effect (a ruling)."""
    interrupted = state["interrupted"]
    if interrupted is None:
        return
    state["interrupted"] = None
    trigger = interrupted["trigger"]
    state["discard"].append(trigger["card"])
    emit(state, "lapses", kind=trigger["kind"], player=trigger["player"])


def blocked(state: State, trigger: dict, vid: str) -> bool:
    """Whether a brown card may not end on ``vid``: the heavier-scales card protects it in
    phases 1 and 2."""
    prot = state["protected"]
    return (prot is not None and prot["villager"] == vid and state["phase"] in (1, 2)
            and trigger["accuser"] is not None)


def options(state: State, seat: int, only: str | None = None) -> list[Action]:
    """``seat``'s answers to the open window: ``pass`` first, then each fitting card (with
    ``only``, just those of that card)."""
    trigger = state["window"]["trigger"]
    out: list[Action] = [{"type": "pass"}]
    fitting = _fitting(state, seat, trigger)
    if not fitting:
        return out
    answering = trigger["type"]
    phase = state["phase"]
    kind_of = state["cards"]
    for cid in state["hands"][seat] if only is None else [only]:
        kind = kind_of[cid][0]
        if kind not in fitting or phase not in data.PHASES[kind]:
            continue
        if answering == "card":
            out += _card_answers(state, trigger, cid, kind)
        else:
            out.append({"type": "play", "card": cid})
    return out


def may_answer(state: State, seat: int) -> bool:
    """Whether ``seat`` holds a card of a kind that may answer the open window now (each card's
    own conditions, :func:`options`, may still rule it out): without one, its only answer is
    ``pass``."""
    fitting = _fitting(state, seat, state["window"]["trigger"])
    if not fitting:
        return False
    phase, kind_of, phases = state["phase"], state["cards"], data.PHASES
    for cid in state["hands"][seat]:
        kind = kind_of[cid][0]
        if kind in fitting and phase in phases[kind]:
            return True
    return False


def _fitting(state: State, seat: int, trigger: dict) -> frozenset[str]:
    """The kinds of card that may answer ``trigger`` for ``seat`` (none: a cancelled card, or
    the inquisitor asked about a trial)."""
    answering = trigger["type"]
    if answering == "card":
        return frozenset() if trigger["cancelled"] else data.REACTIONS
    if answering == "trial":
        if seat == state["inquisitor"]:
            return frozenset()
        return frozenset({data.CARDS[trigger["kind"]]["twin"]})
    return _CALL_ANSWERS


_CALL_ANSWERS = frozenset({"keyne_inquisition"})


def _card_answers(state: State, trigger: dict, cid: str, kind: str) -> list[Action]:
    accuser, target = trigger["accuser"], trigger["target"]
    if kind == "gegenanklage":
        if accuser is not None and target != accuser and not blocked(state, trigger, accuser):
            return [{"type": "play", "card": cid}]
        return []
    if kind == "widerruf":
        return [{"type": "play", "card": cid}] if trigger["kind"] == "gestaendnis" else []
    if kind in ("verwechslung", "geteyltes_leyd"):
        named = {s[0] for s in trigger["shares"]} if kind == "geteyltes_leyd" else set()
        return [{"type": "play", "card": cid, "other": vid}
                for vid, v in state["villagers"].items()
                if v["alive"] and vid != accuser and vid != target and vid not in named
                and not blocked(state, trigger, vid)]
    return []


def answer(state: State, seat: int, action: Action) -> None:
    """Record ``seat``'s answer; close the window when nobody is left to ask."""
    window = state["window"]
    if action["type"] == "pass":
        turns.answer(window, seat, {"type": "pass"})
        if not window["pending"]:
            close(state)
        return
    cid = action["card"]
    state["hands"][seat].remove(cid)
    trigger = window["trigger"]
    kind = state["cards"][cid][0]
    if trigger["type"] == "call":
        state["discard"].append(cid)
        state["window"] = None
        emit(state, "call_cancelled", player=seat, kind=kind)
        begin_turn(state, seat)
        return
    if trigger["type"] == "trial":
        state["window"] = None
        cancel_by_twin(state, trigger, seat, cid)
        resume(state)
        return
    state["discard"].append(cid)
    if kind == "gegenanklage":
        trigger["bonus"] += accused_bonus(trigger["target"], kind)
        trigger["target"] = trigger["accuser"]
        emit(state, "counter_charge", player=seat, kind=kind, villager=trigger["target"],
             owners=owners(state, trigger["target"]))
    elif kind == "verwechslung":
        trigger["bonus"] += accused_bonus(trigger["target"], kind)
        trigger["target"] = action["other"]
        emit(state, "mistaken", player=seat, kind=kind, villager=action["other"],
             owners=owners(state, action["other"]))
    elif kind == "geteyltes_leyd":
        trigger["shares"].append([action["other"], accused_bonus(trigger["target"], kind)])
        emit(state, "shares_sorrow", player=seat, kind=kind, villager=action["other"],
             owners=owners(state, action["other"]))
    else:
        trigger["cancelled"] = True
        emit(state, "confession_retracted", player=seat, kind=kind)
    window["answers"].append([seat, {"type": "play", "kind": kind}])
    if trigger["cancelled"]:
        close(state)
        return
    state["windows"] += 1
    window["pending"] = turns.clockwise((seat + 1) % len(state["players"]),
                                        len(state["players"]))
    window["order"] = list(window["pending"])  # asked again: everyone


def close(state: State) -> None:
    """Everyone asked has passed: the card, call or trial takes effect."""
    trigger = state["window"]["trigger"]
    state["window"] = None
    if trigger["type"] == "card":
        resolve_card(state, trigger)
        after_card(state)
    elif trigger["type"] == "call":
        begin_phase2(state, trigger["player"])
    else:
        void_interrupted(state)
        resolve_trial(state, trigger)


def expire(state: State) -> None:
    """The window's time ran out: every seat still asked passes."""
    window = state["window"]
    if window["pending"]:
        emit(state, "time_up_pass", seats=list(window["pending"]),
             count=len(window["pending"]))
    for seat in list(window["pending"]):
        turns.answer(window, seat, {"type": "pass"})
    close(state)
