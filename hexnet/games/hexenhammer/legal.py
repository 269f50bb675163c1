"""Every action a seat may take now, in a stable order (``pass`` first)."""

from __future__ import annotations

from hexnet.engine import Action, IllegalAction, State
from hexnet.games.hexenhammer import data, reactions
from hexnet.games.hexenhammer.effects import free_accusers

PASS: Action = {"type": "pass"}


# A card's own-initiative plays in phases 1–3 (:func:`turn_plays`): the card, its kind, the
# accusers it names (a brown card; None otherwise), its targets (None: a trial without one)
# and whether it is signed (each target once with +1, once with -1).
CardPlays = tuple[str, str, list[str] | None, list[str] | None, bool]


def legal_actions(state: State, seat: int, only: str | None = None) -> list[Action]:
    """The legal actions of ``seat`` (assumed to be waited on); with ``only``, just the passes,
    calls and plays of that one card (what an action naming it can match)."""
    choice = state["choice"]
    if choice is not None:
        return [{"type": "choose", "target": vid} for vid in choice["options"]]
    if state["window"] is not None:
        return reactions.options(state, seat, only) + trial_plays(state, seat, only)
    phase = state["phase"]
    hand = state["hands"][seat] if only is None else [only]
    if phase == 4:
        return [{"type": "pass"}] + [{"type": "discard", "card": cid} for cid in hand]
    out: list[Action] = [{"type": "pass"}]
    if phase == 1 and not state["accusers_used"]:
        out.append({"type": "call_inquisition"})
    for group in turn_plays(state, seat, hand):
        out += plays_of(group)
    return out


def turn_plays(state: State, seat: int, hand: list[str]) -> list[CardPlays]:
    """The plays of the cards of ``hand`` that ``seat`` may play on its turn in phases 1–3 (no
    window open, no tie to break), one group per card, in hand order: what
    :func:`legal_actions` lists after the pass and the call (:func:`plays_of`), in that order."""
    phase = state["phase"]
    living = [vid for vid, v in state["villagers"].items() if v["alive"]]
    prot = state["protected"]
    accusable = living
    if prot is not None and phase in (1, 2):
        accusable = [vid for vid in living if vid != prot["villager"]]
    accusers = None
    cards = state["cards"]
    out: list[CardPlays] = []
    for cid in hand:
        kind = cards[cid][0]
        if phase not in data.PHASES[kind] or kind in data.REACTIONS:
            continue
        if kind in data.BROWN:
            if accusers is None:
                accusers = free_accusers(state, seat)
            out.append((cid, kind, accusers, accusable, False))
        elif kind in data.TRIALS:
            if seat != state["inquisitor"]:
                out.append(_trial(cid, kind, living))
        else:
            out.append((cid, kind, None, living, bool(data.CARDS[kind].get("signed"))))
    return out


def plays_of(group: CardPlays) -> list[Action]:
    """The ``play`` actions of one card's group (:data:`CardPlays`), in the legal order."""
    cid, _kind, accusers, targets, signed = group
    if accusers is not None:
        return [{"type": "play", "card": cid, "accuser": a, "target": t}
                for a in accusers for t in targets or ()]
    if targets is None:
        return [{"type": "play", "card": cid}]
    if signed:
        return [{"type": "play", "card": cid, "target": t, "sign": s}
                for t in targets for s in (1, -1)]
    return [{"type": "play", "card": cid, "target": t} for t in targets]


def play_allowed(state: State, seat: int, action: Action) -> bool:
    """Whether ``action`` — a ``play`` of card ``action["card"]`` (a str in ``seat``'s hand) on
    the seat's own initiative: phases 1–3, no window open, no tie to break, ``seat`` waited
    on — is one of :func:`legal_actions`, checked directly: the same answer (fields, values
    and value types) without listing every play."""
    phase = state["phase"]
    kind = state["cards"][action["card"]][0]
    if phase not in data.PHASES[kind] or kind in data.REACTIONS:
        return False
    villagers = state["villagers"]
    target = action.get("target")
    if "target" in action and not (type(target) is str and target in villagers
                                   and villagers[target]["alive"]):
        return False
    if kind in data.BROWN:
        accuser = action.get("accuser")
        prot = state["protected"]
        return (len(action) == 4 and "target" in action and type(accuser) is str
                and accuser in free_accusers(state, seat)
                and not (prot is not None and phase in (1, 2) and target == prot["villager"]))
    if kind in data.TRIALS:
        if seat == state["inquisitor"]:
            return False
        if data.CARDS[kind]["effect"] == "unmark":
            return len(action) == 3 and "target" in action
        return len(action) == 2
    if data.CARDS[kind].get("signed"):
        sign = action.get("sign")
        return (len(action) == 4 and "target" in action and type(sign) is int
                and sign in (1, -1))
    return len(action) == 3 and "target" in action


def trial_plays(state: State, seat: int, only: str | None = None) -> list[Action]:
    """The trials ``seat`` may play now, whether or not the game waits on it: any time in a
    trial's phases (2, 3), by anyone but the inquisitor — except while another trial waits for
    its twin or the inquisitor breaks a tie (the rules text's ruling)."""
    if (state["phase"] not in (2, 3) or seat == state["inquisitor"]
            or state["choice"] is not None):
        return []
    window = state["window"]
    if window is not None and window["trigger"]["type"] != "card":
        return []
    phase = state["phase"]
    cards = state["cards"]
    living = None
    out: list[Action] = []
    for cid in state["hands"][seat] if only is None else [only]:
        kind = cards[cid][0]
        if kind in data.TRIALS and phase in data.PHASES[kind]:
            if living is None:
                living = [vid for vid, v in state["villagers"].items() if v["alive"]]
            out.extend(plays_of(_trial(cid, kind, living)))
    return out


def _trial(cid: str, kind: str, living: list[str]) -> CardPlays:
    """A trial's group: on a living villager (an unmarking), or on nobody."""
    return (cid, kind, None, living if data.CARDS[kind]["effect"] == "unmark" else None, False)


def why_illegal(state: State, seat: int, action: Action, waited: bool = True) -> IllegalAction:
    """Why ``action`` is refused (it is not among the legal actions), as a catalog key;
    ``waited``: whether the game waits on ``seat`` (else only a trial could have been legal)."""
    kind = action.get("type")
    if state["choice"] is not None:
        return IllegalAction("tie_first" if waited else "not_your_turn")
    hand = state["hands"][seat]
    cid = action.get("card")
    if kind in ("play", "discard") and cid not in hand:
        return IllegalAction("not_in_hand")
    trial = kind == "play" and state["cards"][cid][0] in data.TRIALS
    if trial and seat == state["inquisitor"]:
        return IllegalAction("inquisitor_no_trial")
    window = state["window"]
    if trial and window is not None and window["trigger"]["type"] == "trial":
        return IllegalAction("trial_in_trial_window")
    if not waited and not trial:
        in_phase3 = kind == "play" and state["phase"] == 3 and window is None
        return IllegalAction("phase3_own_turn" if in_phase3 else "not_your_turn")
    if window is not None and not trial:
        return IllegalAction("answer_window")
    phase = state["phase"]
    if kind == "discard":
        return IllegalAction("discard_phase4")
    if kind == "call_inquisition":
        return IllegalAction("call_phase1" if phase != 1 else "call_after_card")
    if kind == "choose":
        return IllegalAction("no_tie")
    if kind != "play":
        return IllegalAction("not_now")
    card = data.CARDS[state["cards"][cid][0]]
    if phase not in data.PHASES[card["id"]]:
        return IllegalAction("wrong_phase", kind=card["id"], phase=phase)
    if card.get("reaction"):
        return IllegalAction("is_reaction", kind=card["id"])
    if phase == 3 and seat != state["turn"] and not trial:
        return IllegalAction("phase3_own_turn")
    accuser = action.get("accuser")
    villagers = state["villagers"]
    if card["colour"] == "brown":
        if accuser not in villagers or villagers[accuser]["owner"] != seat or not villagers[
                accuser]["alive"]:
            return IllegalAction("accuser_yours")
        if data.VILLAGERS[accuser].get("never_accuser"):
            return IllegalAction("never_accuser", villager=accuser)
        if accuser in state["accusers_used"]:
            return IllegalAction("accused_this_turn" if phase == 1 else "accused_this_phase",
                                 villager=accuser)
    target = action.get("target")
    if target is not None and (target not in villagers or not villagers[target]["alive"]):
        return IllegalAction("target_living")
    prot = state["protected"]
    if prot is not None and target == prot["villager"] and card["colour"] == "brown":
        return IllegalAction("protected", villager=target)
    return IllegalAction("bad_play")
