"""The ``search`` bot of Hranice: what :mod:`hexnet.search` needs to know about the game.

Candidates: a turn offers a draw, every citizen in hand, an accusation of every citizen on the
table, cleansings and action cards on each target — search compares the heuristic's choice and
the few others the heuristic scores best. Answers (reactions, Výslech's pick) are all compared.
Playouts stop after about two rounds and are valued by influence: the seat's lead over the best
other seat, an active dominance token counting as a step towards the win.
"""

from __future__ import annotations

import math
import random
from typing import Any

from hexnet import turns
from hexnet.engine import Game
from hexnet.games.hranice import board, bots, reactions, resolve
from hexnet.games.hranice.game import GAME
from hexnet.search import SearchGame, SearchPolicy, trim_log

HORIZON_TURNS = 2  # rounds a playout runs before it is evaluated
INFLUENCE_SCALE = 3.0  # influence lead that makes a win about three times as likely as a loss
TOKEN_BONUS = 2.0  # an active dominance token, in influence
TOP_ACTIONS = 5  # turn actions search compares besides the heuristic's choice
ANCHOR = 1.0  # search leaves the heuristic's choice only for one better by a standard error


def candidates(game: Game, view: dict[str, Any], legal: list[dict[str, Any]],
               heuristic: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """The heuristic's choice and the turn actions it scores best (every answer otherwise)."""
    if view.get("window") is not None or any(a["type"] in ("discard", "flip") for a in legal):
        return list(legal)
    read = bots._Reading(view)
    ranked = sorted(range(len(legal)), key=lambda i: (-bots._score(read, legal[i]), i))
    return [heuristic] + [legal[i] for i in ranked[:TOP_ACTIONS]]


def evaluate(game: Game, state: dict[str, Any], seat: int) -> float:
    """An unfinished playout's value for ``seat``: its influence lead, as a win chance."""
    n = len(state["players"])
    power = [board.influence(state, s) + (TOKEN_BONUS if state["tokens"][s] else 0.0)
             for s in range(n)]
    lead = power[seat] - max(p for s, p in enumerate(power) if s != seat)
    return 1.0 / (1.0 + math.exp(-lead / INFLUENCE_SCALE))


def rollout_view(state: dict[str, Any], seat: int) -> dict[str, Any]:
    """The parts of ``seat``'s view the heuristic reads, without the log and the copies
    (playouts build one per action): on a turn the citizens' defences and every seat's
    influence; in a reaction window influence only for a Protest (whose answer weighs the
    actor's), as no other answer reads either."""
    councils = state["councils"]
    window = state["window"]
    shown = None
    if window is not None and window["pending"]:
        shown = {**window["trigger"], "asked": window["pending"][0], "order": window["order"]}
    view = {
        "seat": seat, "target": state["target"], "hand": state["hands"][seat],
        "hand_sizes": [len(h) for h in state["hands"]], "councils": councils,
        "pyre": state["pyre"], "tokens": state["tokens"], "window": shown,
    }
    if shown is None or shown["event"] == "action":
        view["influence"] = board.influences(state)
    if shown is None:
        view["defence"] = board.defences(councils)
    return view


def passes(state: dict[str, Any], rng: random.Random, keep: int, limit: int) -> int:
    """A playout's passes in a reaction window: while the seat asked holds no reaction that
    answers it, its one legal action is to pass, and the playout loop would play it without a
    view, the policy or a draw from the generator (one seat is asked at a time); played here
    without the legal list, the window closing as :func:`reactions.answer` and
    :func:`resolve.run` close it (:attr:`hexnet.search.SearchGame.forced`). Most of a
    playout's steps."""
    log = state["log"]
    played = 0
    while played < limit and state["outcome"] is None:
        window = state["window"]
        if window is None:
            break
        pending = window["pending"]
        if not pending:
            break
        seat = pending[0]
        if reactions.holds_fitting(state, seat, window["trigger"]["event"]):
            break
        turns.answer(window, seat, {"type": "pass"})
        if not pending:
            resolve.run(state)
        state["version"] += 1
        played += 1
        trim_log(log, keep)
    return played


SPEC = SearchGame(engine=GAME, rollout=bots.choose_heuristic, candidates=candidates,
                  evaluate=evaluate, horizon=60, log_keep=0, rollout_view=rollout_view,
                  anchor=ANCHOR, forced=passes)
SEARCH = SearchPolicy(SPEC)
