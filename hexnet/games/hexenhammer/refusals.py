"""Why a card of the hand cannot be used now — worked out from the seat's view alone, for the
player who presses Enter on it ("You cannot use that card now" said nothing of why). The reasons
are the host's own refusals (:func:`hexnet.games.hexenhammer.legal.why_illegal`), in the game's
catalog, context ``reason``; the view holds all they need (phase, window, who is waited on, the
free accusers, who is done panicking)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hexnet.engine import IllegalAction
from hexnet.games.hexenhammer import data


def unusable(view: Mapping[str, Any], card: Mapping[str, Any]) -> IllegalAction:
    """Why ``card`` (a card of the view's hand) is not among the seat's legal actions now."""
    kind = str(card.get("kind"))
    phase, seat = view.get("phase"), view.get("seat")
    reaction = kind in data.REACTIONS
    if view.get("outcome"):
        return IllegalAction("game_over")
    if view.get("choice"):
        return IllegalAction("tie_first")
    if view.get("window"):
        if reaction:
            return IllegalAction("reaction_not_fitting", kind=kind)
        return IllegalAction("answer_window")
    if phase not in data.PHASES.get(kind, ()):
        return IllegalAction("wrong_phase", kind=kind, phase=phase)
    if reaction:
        return IllegalAction("is_reaction", kind=kind)
    if kind in data.TRIALS and seat == view.get("inquisitor"):
        return IllegalAction("inquisitor_no_trial")
    if seat in (view.get("done") or []):
        return IllegalAction("done_panicking")
    if seat not in (view.get("active") or []):
        return IllegalAction("phase3_own_turn" if phase == 3 else "not_your_turn")
    if kind in data.BROWN and not view.get("free_accusers"):
        return IllegalAction("no_free_accuser")
    return IllegalAction("bad_play")
