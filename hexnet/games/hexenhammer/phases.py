"""The round's four phases: who acts, drawing, the burning at the end of phase 3, the game's end
and its scoring."""

from __future__ import annotations

from hexnet import rng
from hexnet.engine import State, emit
from hexnet.games.hexenhammer import data
from hexnet.games.hexenhammer.effects import burn, current_witches, living, owners


def _n(state: State) -> int:
    return len(state["players"])


def draw(state: State, seat: int, count: int) -> int:
    """``seat`` draws up to ``count`` cards, reshuffling the discards into an empty pile.

    Returns how many were drawn (fewer only when pile and discards are both empty)."""
    got = 0
    for _ in range(count):
        if not state["deck"]:
            if not state["discard"]:
                break
            state["deck"] = state["discard"]
            state["discard"] = []
            rng.shuffle(state, state["deck"])
            emit(state, "reshuffle")
        cid = state["deck"].pop()
        state["hands"][seat].append(cid)
        kind, value = state["cards"][cid]
        emit(state, "you_draw", to=[seat], kind=kind, value=value)
        got += 1
    if got:
        emit(state, "draws", player=seat, count=got)
    return got


def begin_phase1(state: State, turn: int) -> None:
    """Phase 1, accusation, with ``turn`` to act."""
    state.update(phase=1, turn=turn, accusers_used=[], done=[])
    emit(state, "phase1", round=state["round"], player=turn, phase=1)


def end_turn_phase1(state: State) -> None:
    """The turn player ends the turn: draws one card, and the next seat's turn begins."""
    seat = state["turn"]
    draw(state, seat, 1)
    state["turn"] = (seat + 1) % _n(state)
    state["accusers_used"] = []
    emit(state, "turn", player=state["turn"])


def begin_turn(state: State, seat: int) -> None:
    """A fresh phase-1 turn for ``seat`` (after a Keyne Inquisition)."""
    state["turn"] = seat
    state["accusers_used"] = []
    emit(state, "turn", player=seat)


def begin_phase2(state: State, inquisitor: int) -> None:
    """``inquisitor``'s call stands: phase 2, the panic."""
    state.update(phase=2, inquisitor=inquisitor, accusers_used=[], done=[])
    emit(state, "phase2", player=inquisitor, phase=2)


def begin_phase3(state: State) -> None:
    """Phase 3, the trial: one card each, the inquisitor first. The heavier-scales card goes."""
    prot = state["protected"]
    if prot is not None:
        state["removed"].append(prot["card"])
        state["protected"] = None
        emit(state, "unprotect", villager=prot["villager"],
             owners=owners(state, prot["villager"]))
    inq = state["inquisitor"]
    state.update(phase=3, turn=inq, turns_left=_n(state), accusers_used=[], done=[])
    emit(state, "phase3", player=inq, phase=3)


def advance_phase3(state: State) -> None:
    """The phase-3 turn player is through; next seat, or the burning once all were."""
    state["turns_left"] -= 1
    if state["turns_left"] > 0:
        state["turn"] = (state["turn"] + 1) % _n(state)
        return
    witches = current_witches(state)
    if len(witches) > 1:
        ask_inquisitor(state, witches, "burn", None)
    else:
        burn_and_go_on(state, witches[0], state["inquisitor"])


def ask_inquisitor(state: State, options: list[str], purpose: str, trial: dict | None) -> None:
    """Tie for the current witch: the inquisitor chooses among ``options``."""
    state["choice"] = {"seat": state["inquisitor"], "options": options, "purpose": purpose,
                       "trial": trial}
    emit(state, "tie", villagers=list(options), player=state["inquisitor"],
         owners=owners(state, *options))


def burn_and_go_on(state: State, vid: str, burner: int, drowned: bool = False) -> None:
    """Burn (or drown) ``vid``; the game ends if no more villagers live than there are
    players, else phase 4."""
    burn(state, burner, vid, drowned)
    if len(living(state)) <= _n(state):
        finish(state)
    else:
        begin_phase4(state)


def begin_phase4(state: State) -> None:
    """Phase 4, drawing: the inquisitor first, each discards at will then draws up to six."""
    inq = state["inquisitor"] if state["inquisitor"] is not None else state["turn"]
    state.update(phase=4, turn=inq, turns_left=_n(state), accusers_used=[], done=[])
    emit(state, "phase4", player=inq, hand=data.HAND_SIZE, phase=4)


def phase4_pass(state: State, seat: int) -> None:
    """``seat`` draws up to six; after the last seat a new round begins left of the inquisitor."""
    draw(state, seat, max(0, data.HAND_SIZE - len(state["hands"][seat])))
    state["turns_left"] -= 1
    if state["turns_left"] > 0:
        state["turn"] = (seat + 1) % _n(state)
        return
    state["round"] += 1
    inq = state["inquisitor"] if state["inquisitor"] is not None else seat
    begin_phase1(state, (inq + 1) % _n(state))


def after_card(state: State) -> None:
    """Play goes on after a card (and its answers) is done: in phase 2 everyone is asked again,
    in phase 3 the next seat plays; in phase 1 the turn player goes on."""
    if state["phase"] == 2:
        state["done"] = []
    elif state["phase"] == 3:
        advance_phase3(state)


def scores(state: State) -> list[dict[str, int]]:
    """Each seat's points: pentagrams of its living villagers, matches of villagers it took,
    kept trial cards, and 1 per empty stake in front of each other player."""
    n = _n(state)
    empties = [len(e) for e in state["empty_stakes"]]
    out = []
    for seat in range(n):
        pent = sum(data.VILLAGERS[vid]["pentagrams"] for vid, v in state["villagers"].items()
                   if v["owner"] == seat and v["alive"])
        matches = sum(data.VILLAGERS[vid]["matches"] for vid in state["taken"][seat])
        trials = sum(data.CARDS[state["cards"][c][0]]["vp"] for c in state["kept"][seat])
        stakes = sum(empties) - empties[seat]
        out.append({"pentagrams": pent, "matches": matches, "trials": trials,
                    "empty_stakes": stakes, "total": pent + matches + trials + stakes})
    return out


def finish(state: State) -> None:
    """The game ends: score it, most points win (ties shared)."""
    breakdown = scores(state)
    totals = [b["total"] for b in breakdown]
    best = max(totals)
    winners = [s for s, t in enumerate(totals) if t == best]
    state.update(phase="over", choice=None, window=None)
    state["outcome"] = {"scores": totals, "winners": winners, "breakdown": breakdown,
                        "turns": state["round"]}
    emit(state, "end", count=len(living(state)), scores=list(totals))
    emit(state, "winners", winners=list(winners), count=len(winners))
