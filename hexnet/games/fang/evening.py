"""Evening: the duck's announcement, the evening talk, and the seer's and pickpocket's powers."""

from __future__ import annotations

from hexnet import rng
from hexnet.engine import Action, State
from hexnet.games.fang import data
from hexnet.games.fang.common import (
    add_card,
    announce,
    begin,
    cats,
    is_witch,
    new_scene,
    open_confirm,
    remember,
    starter,
    submit,
    tell,
)


@starter("announce")
def start_announce(state: State) -> None:
    """The duck names the new frogs and the restored cats; everyone confirms."""
    today = state["today"]
    turned, restored = today.get("turned", []), today.get("restored", [])
    if restored:
        log_key = "evening_frogs_restored" if turned else "evening_safe_restored"
    else:
        log_key = "evening_frogs" if turned else "evening_safe"
    announce(state, log_key, kind="evening", frogs=list(turned), restored=list(restored))
    remember(state, "evening", frogs=list(turned), restored=list(restored))
    open_confirm(state, "announce", after="talk")


@starter("talk")
def start_talk(state: State) -> None:
    """The evening talk; the seer's and pickpocket's windows open."""
    state["today"]["seer_open"] = True
    state["today"]["thief_open"] = True
    new_scene(state, "talk", cats(state))


def apply_end_talk(state: State, seat: int) -> None:
    """``seat`` is done talking; when every cat is, night falls."""
    submit(state, seat, True)
    if not state["scene"]["need"]:
        close_talk(state)


def close_talk(state: State) -> None:
    """Night: the curse bar starts at 0 (1 under Fluch) and the first chief proposes."""
    state["curse"] = 1 if state["today"].get("fluch") else 0
    begin(state, "proposal")


# --- powers ---------------------------------------------------------------------------------


def legal_power(state: State, seat: int) -> list[Action]:
    """The seer's "see" or the pickpocket's "steal" on another cat in cat form."""
    role = state["roles"][seat]
    kind = "see" if role == data.SEER else "steal"
    return [{"type": kind, "target": t} for t in cats(state) if t != seat]


def apply_see(state: State, seat: int, target: int) -> None:
    """The seer learns (alone) whether ``target`` is a witch; crow and fool read not a witch."""
    result = "witch" if is_witch(state, target) else "no_witch"
    state["today"]["seen"] = True
    state["seer_results"].append([state["day"], target, result])
    tell(state, [seat], "seen_witch" if result == "witch" else "seen_not_witch", kind="seen",
         target=target, result=result)


def apply_steal(state: State, seat: int, target: int) -> None:
    """The pickpocket takes a random ingredient from ``target``; only the thief is told."""
    state["today"]["stolen"] = True
    hand = state["hands"][target]
    if not hand:
        tell(state, [seat], "pockets_empty", kind="stolen", target=target, ingredient=None)
        return
    card = hand.pop(rng.below(state, len(hand)))
    add_card(state, seat, card)
    tell(state, [seat], "stole", kind="stolen", target=target, ingredient=card["ing"])
