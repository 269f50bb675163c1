"""The ``search`` bot of Fang die Hexe: what :mod:`hexnet.search` needs to know about the game.

* Determinizations come from :func:`hexnet.games.fang.sample.sample_state`, roles drawn from
  the seat's belief over every role assignment (:mod:`hexnet.games.fang.belief`), so sampled
  worlds follow what the record makes likely. Votes not yet shown and ritual cards already laid
  are then redrawn with the heuristic's eyes (what a seat like that would have done).
* Candidates: a seat that already picked or voted in this scene sends it again (no new
  information has reached it); a proposal is one of a few circles — the root policy's and the
  ones the belief finds most likely clean — rather than every combination; the village's
  banishment vote is the belief's (:mod:`hexnet.games.fang.deduction`).
* Witches coordinate through what their whisper channel would carry, computed alike by every
  witch from what they all know (each other and the public record): they all vote for the same
  cat (the non-witch the village suspects most: the likeliest to fall), and in the witches'
  window each goes to a different busy place (the k-th witch in seat order to the k-th busiest).
"""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import combinations
from typing import Any

from hexnet.engine import Game
from hexnet.games.fang import belief, bots, data, deduction
from hexnet.games.fang import view as engine_view
from hexnet.games.fang.common import CHANGEABLE, apply_confirm, power_seats
from hexnet.games.fang.day import cat_counts_view
from hexnet.games.fang.evening import apply_end_talk
from hexnet.games.fang.game import CONFIRM_SCENES, GAME
from hexnet.games.fang.setup import known_roles
from hexnet.search import SearchGame, SearchPolicy, trim_log

View = dict[str, Any]
Action = dict[str, Any]
ROLLOUT_LOG = 24  # recent events a playout's state keeps
PLACES_AND_CARDS = frozenset({"pick", "guard", "witches", "ritual"})  # scenes that read them
# scenes where the heuristic reads who it knows to be a witch (the attack, proposals, votes)
ROLES_READ = frozenset({"witches", "proposal", "proposal_vote", "vote"})
PROPOSALS = 6  # circles a proposal search compares
ANCHOR = 1.0  # search leaves the heuristic's choice only for one better by a standard error


def rollout_view(state: dict[str, Any], seat: int) -> View:
    """The parts of ``seat``'s view the heuristic reads in the scene it sees (playouts build one
    per choice): who it is, its own choice; whom it knows to be what where it attacks,
    proposes or votes; the ritual's needs, its hand and the cat counts where places are chosen
    or cards laid; the circle where it is voted on or laid for; who voted, the day and the public
    record (uncopied: the heuristic only reads it) in the banishment vote."""
    role = state["roles"][seat]
    name = engine_view.scene_seen(state, seat)
    v: View = {"seat": seat, "role": role, "scene": name,
               "my_choice": engine_view.own_choice(state, seat)}
    if name in ROLES_READ:
        v["roles"] = known_roles(state, seat)
    if role == data.SEER:
        v["seen"] = [list(r) for r in state["seer_results"]]
    if name in PLACES_AND_CARDS:
        v["required"] = list(state["required"])
        v["hand"] = engine_view.own_hand(state, seat)
        v["cat_counts"] = cat_counts_view(state, seat)
    if name in ("proposal_vote", "ritual"):
        v["members"] = engine_view.members(state, name)
    elif name == "vote":
        v["submitted"] = engine_view.public_submitted(state)
        v["day"], v["record"] = state["day"], state.get("record", [])
    return v


def team_witches(view: View) -> list[int]:
    """The witches in cat form, as a witch knows them (seat order)."""
    return [s for s, r in enumerate(view["roles"])
            if r == data.WITCH and view["forms"][s] == "cat"]


def whisper_vote(view: View) -> int | None:
    """The witches' common vote: the non-witch cat the public record makes most suspect (and
    not the likely fool): the vote :func:`hexnet.games.fang.deduction.vote` casts for them."""
    team = set(team_witches(view)) | {view["seat"]}  # never a witch: every witch the same
    legal = [{"type": "vote", "target": s} for s in range(len(view["forms"]))
             if view["forms"][s] == "cat" and s not in team]
    action = deduction.vote(view, legal, random.Random(0))
    return action.get("target")


def whisper_place(view: View, legal: list[Action]) -> Action | None:
    """This witch's place: the k-th busiest for the k-th witch (ties: place order)."""
    counts = view.get("cat_counts") or {}
    places = [a["place"] for a in legal if a["type"] == "witch_place"]
    ranked = sorted(places, key=lambda p: (-counts.get(p, 0), places.index(p)))
    team = team_witches(view)
    if not ranked or view["seat"] not in team:
        return None
    k = team.index(view["seat"]) % len(ranked)
    return {"type": "witch_place", "place": ranked[k]}


def candidates(game: Game, view: View, legal: list[Action], heuristic: Action,
               rng: random.Random) -> list[Action]:
    """The actions worth a playout (see the module docstring)."""
    again = bots._repeat(view, legal)
    if again is not None:
        return [again]
    types = {a["type"] for a in legal}
    witch = view["role"] == data.WITCH
    if witch and ("vote" in types or "abstain" in types):
        target = whisper_vote(view)
        wanted = {"type": "vote", "target": target} if target is not None else None
        return [wanted] if wanted in legal else [heuristic]
    if witch and "witch_place" in types:
        place = whisper_place(view, legal)
        return [place] if place is not None else [heuristic]
    if "propose" in types:
        return _proposals(view, legal, heuristic, rng)
    if not bots.on_witch_side(view) and ("vote" in types or "abstain" in types):
        return [deduction.vote(view, legal, rng)]
    if view["scene"] in ("pick", "guard") and not bots.on_witch_side(view):
        # every village bot optimising its own pick against heuristic cats herds them into one
        # place (the witches' favourite): the day's places stay the heuristic's spread
        return [heuristic]
    return list(legal)


def _proposals(view: View, legal: list[Action], heuristic: Action,
               rng: random.Random) -> list[Action]:
    """The root's circle and the circles most likely clean by the belief (a witch: by the
    public belief, with herself in it)."""
    me = view["seat"]
    size = view["proposal_size"]
    cats = deduction.cats_of(view)
    j = belief.judge_public(view) if bots.on_witch_side(view) else belief.judge(view)
    others = sorted((s for s in cats if s != me), key=lambda s: (j.spoiler(s), s))
    inside = me in cats
    pool = others[:size + 2]
    scored = []
    for combo in combinations(pool, size - (1 if inside else 0)):
        members = sorted([*combo] + ([me] if inside else []))
        scored.append((-j.clean(members), members))
    scored.sort()
    out = [heuristic]
    for _p, members in scored:
        action = {"type": "propose", "members": ",".join(str(s) for s in members)}
        if action in legal and action not in out:
            out.append(action)
        if len(out) >= PROPOSALS:
            break
    return out


def redraw_hidden(game: Game, state: dict[str, Any], seat: int, rng: random.Random) -> None:
    """Votes not yet shown and ritual cards already laid, as the heuristic would have chosen
    them in each seat's place (the sample drew them uniformly)."""
    scene = state["scene"]
    name = scene.get("name")
    if name not in ("proposal_vote", "vote", "ritual"):
        return
    for s, k in enumerate(scene["count"]):
        if s == seat or k == 0:
            continue
        if name == "ritual":
            laid = scene["choice"][s]
            hand = state["hands"][s]
            if bots.on_witch_side({"role": state["roles"][s]}):
                scene["choice"][s] = {"ing": data.fluchkraut(), "spoiled": False}
                continue
            wanted = next((c for c in hand if c["ing"] in state["required"]), None)
            if wanted is not None and laid.get("ing") not in state["required"]:
                hand.remove(wanted)
                scene["choice"][s] = {"ing": wanted["ing"], "spoiled": wanted["spoiled"]}
            continue
        v = rollout_view(state, s)
        v["my_choice"] = None
        legal = game._legal(state, s) if s in game.waiting_for(state) else []
        if name == "proposal_vote":
            scene["choice"][s] = bots._vote_proposal(v)["yes"]
        elif legal:
            action = bots._vote(v, legal, rng)
            scene["choice"][s] = action.get("target")


def confirm_round(state: dict[str, Any], rng: random.Random, keep: int, limit: int) -> int:
    """A playout's round of confirmations (or of ending the talk) while no power is open: every
    seat waited on has that one action, so the actor is drawn from ``need`` as the playout loop
    draws it from the waiting set (the same seats then) and the action applied without a view
    or a policy (:attr:`hexnet.search.SearchGame.forced`). A third of a playout's steps."""
    scene = state["scene"]
    name = scene["name"]
    if name in CONFIRM_SCENES:
        done = apply_confirm
    elif name == "talk":
        done = apply_end_talk
    else:
        return 0
    if state.get("outcome") is not None or power_seats(state):
        return 0
    need, log = scene["need"], state["log"]
    played = 0
    while need and played < limit:  # the last one opens the next scene (or ends the game)
        done(state, need[rng.randrange(len(need))] if len(need) > 1 else need[0])
        state["version"] += 1
        played += 1
        trim_log(log, keep)
    return played


def resend(state: dict[str, Any], seat: int) -> Action | None:
    """The heuristic's choice for a seat that has picked or voted in this scene and is drawn
    again: it re-sends the same (:func:`hexnet.games.fang.bots.repeat_action`) if that is
    legal, unless a power is open to it (the heuristic uses that first); read from the state,
    without a view (:attr:`hexnet.search.SearchGame.settled`). Two playout choices in five at
    12 seats."""
    scene = state["scene"]
    name = scene["name"]
    if name not in CHANGEABLE or not scene["count"][seat]:
        return None
    wanted = bots.repeat_action(name, scene["choice"][seat], True)
    if wanted is None or seat in power_seats(state) or wanted not in GAME._legal(state, seat):
        return None
    return wanted


SPEC = SearchGame(engine=GAME, rollout=bots.choose_heuristic, candidates=candidates,
                  log_keep=ROLLOUT_LOG, rollout_view=rollout_view, refine=redraw_hidden,
                  anchor=ANCHOR, forced=confirm_round, settled=resend,
                  value=lambda outcome, seat: 1.0 if seat in outcome.get("winners", []) else 0.0,
                  shared=frozenset({"players", "options", "roles"}))
SEARCH = SearchPolicy(SPEC)
# the ``hard`` level: the same search, the root judged by the belief's play (``normal``)
HARD = SearchPolicy(replace(SPEC, root=deduction.choose_normal))


class SidePolicy:
    """``search`` for the seats of one side, ``heuristic`` for the others (the role is in the
    seat's own view): ``search-village`` and ``search-witches`` measure one side's search
    against the other side's heuristic."""

    thinks = True

    def __init__(self, side: str, search: SearchPolicy) -> None:
        self.side = side
        self.search = search

    def __repr__(self) -> str:
        return f"SidePolicy({self.side}, {self.search!r})"

    def configured(self, budget: Any) -> SidePolicy:
        """The same with another search budget."""
        return SidePolicy(self.side, self.search.configured(budget))

    def __call__(self, view: View, legal: list[Action], rng: random.Random) -> Action:
        if data.side_of(view["role"]) == self.side:
            return self.search(view, legal, rng)
        return bots.choose_heuristic(view, legal, rng)


SEARCH_VILLAGE = SidePolicy(data.VILLAGE, SEARCH)
SEARCH_WITCHES = SidePolicy(data.WITCHES, SEARCH)
