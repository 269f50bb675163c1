"""The ``search`` bot of Hexenhammer: what :mod:`hexnet.search` needs to know about the game.

Candidates: a play names a card, an accuser and a target, so a hand of six can offer a hundred
plays. Search looks at ``pass``, the Inquisition call, every trial, every discard and answer,
and of the accusations the few that widen the heuristic's margin most (the best per card first).
"""

from __future__ import annotations

import math
import random
from typing import Any

from hexnet.engine import Game
from hexnet.games.hexenhammer import bots, data, legal, phases, reactions
from hexnet.games.hexenhammer.effects import board
from hexnet.games.hexenhammer.game import GAME
from hexnet.search import SearchGame, SearchPolicy

Action = dict[str, Any]
TOP_PLAYS = 6
TOP_OTHERS = 3
HORIZON = 80  # actions a playout runs before it is evaluated (about two rounds)
SCORE_SCALE = 3.0  # points of lead that make a win about three times as likely as a loss


def candidates(game: Game, view: dict[str, Any], legal: list[Action], heuristic: Action,
               rng: random.Random) -> list[Action]:
    """The actions worth a playout (see the module docstring)."""
    table = bots._Table(view)
    hand = {c["id"]: c for c in view["hand"]}
    keep: list[Action] = []
    targeted: list[Action] = []  # plays on a target: ranked by the margin they leave
    others: dict[str, list[tuple[float, Action]]] = {}
    base = table.margin()
    for action in legal:
        if action["type"] != "play":
            keep.append(action)
            continue
        kind = hand[action["card"]]["kind"]
        if kind in data.TRIALS or "target" not in action:
            if "other" in action:  # an answer naming another villager: the likeliest few
                mine = table.owner.get(action["other"]) == table.me
                others.setdefault(action["card"], []).append(
                    (-table.susp.get(action["other"], 0) + (100 if mine else 0), action))
            else:
                keep.append(action)
            continue
        targeted.append(action)
    margins = table.margins_after(hand, targeted)
    scored = [(base - margin, i, action)
              for i, (action, margin) in enumerate(zip(targeted, margins, strict=True))]
    for options in others.values():
        options.sort(key=lambda x: x[0])
        keep.extend(a for _, a in options[:TOP_OTHERS])
    scored.sort(key=lambda x: (x[0], x[1]))
    best_per_card: dict[str, Action] = {}
    for _, _, action in scored:
        best_per_card.setdefault(action["card"], action)
    plays = list(best_per_card.values())[:TOP_PLAYS]
    for _, _, action in scored:
        if len(plays) >= TOP_PLAYS:
            break
        if action not in plays:
            plays.append(action)
    return [heuristic] + keep + plays


def evaluate(game: Game, state: dict[str, Any], seat: int) -> float:
    """An unfinished playout's value for ``seat``: its lead in points now, as a win chance."""
    totals = [b["total"] for b in phases.scores(state)]
    lead = totals[seat] - max(t for s, t in enumerate(totals) if s != seat)
    return 1.0 / (1.0 + math.exp(-lead / SCORE_SCALE))


def rollout_view(state: dict[str, Any], seat: int) -> dict[str, Any]:
    """The parts of ``seat``'s view the heuristic reads, without the log, the card texts and
    the portraits (playouts build one per action): the living villagers' suspicion, start and
    owner as the ``board`` :class:`bots._Table` takes as it is (its ``villagers`` list is left
    out), and of the window's trigger the fields the heuristic reads."""
    cards = state["cards"]
    susp, start, owner, witches = board(state)
    window = state["window"]
    trigger = None if window is None else window["trigger"]
    return {
        "seat": seat, "phase": state["phase"], "inquisitor": state["inquisitor"],
        "board": (susp, start, owner), "current_witches": witches,
        "hand": [{"id": cid, "kind": cards[cid][0], "value": cards[cid][1]}
                 for cid in state["hands"][seat]],
        "window": None if trigger is None else {"trigger": {
            k: trigger[k] for k in bots.TRIGGER_READ[trigger["type"]]}},
        "draw_pile": len(state["deck"]), "discard_size": len(state["discard"]),
    }


def settled(state: dict[str, Any], seat: int) -> Action | None:
    """The heuristic's choice where the state alone shows it, without a view of the whole
    table or a list of every legal play (:attr:`hexnet.search.SearchGame.settled`), in nearly
    nine playout steps of ten: in phase 4 it keeps its cards; in a window, while it holds no trial
    to play (one might be worth playing: the heuristic then decides), it passes when it holds
    no card that could answer, and lets an accusation pass that does not raise one of its own
    living villagers; on its turn in phases 1–3, holding no trial it may play, it calls, plays
    or passes as :func:`bots.turn_choice` finds."""
    if state["choice"] is not None:
        return None
    window = state["window"]
    if window is None:
        phase = state["phase"]
        if phase == 4:
            return bots.PASS
        groups = legal.turn_plays(state, seat, state["hands"][seat])
        if phase != 1:
            trials = data.TRIALS
            for group in groups:
                if group[1] in trials:
                    return None  # (the heuristic looks at its trials first)
        can_call = phase == 1 and not state["accusers_used"]
        if not groups and not can_call:
            return bots.PASS  # (its one legal action)
        return bots.turn_choice(rollout_view(state, seat), groups, can_call)
    if legal.trial_plays(state, seat):  # (in a card's window: one might be worth playing)
        return None
    if not reactions.may_answer(state, seat):
        return bots.PASS
    trigger = window["trigger"]
    if trigger["type"] != "card":
        return None
    villager = state["villagers"].get(trigger["target"])
    if (villager is not None and villager["alive"] and villager["owner"] == seat
            and trigger["value"] > 0):
        return None
    return bots.PASS


SPEC = SearchGame(engine=GAME, rollout=bots.choose_heuristic, candidates=candidates,
                  evaluate=evaluate, horizon=HORIZON, log_keep=0, rollout_view=rollout_view,
                  settled=settled, shared=frozenset({"players", "options", "cards"}))
SEARCH = SearchPolicy(SPEC)
