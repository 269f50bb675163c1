"""The ``search`` bot of Fang die Hexe: what :mod:`hexnet.search` needs to know about the game.

* Determinizations come from :func:`hexnet.games.fang.sample.sample_state`, roles dealt by
  suspicion (:mod:`hexnet.games.fang.belief`): the village side tracks votes, proposals, failed
  rituals and its seer's findings there. Votes not yet shown and ritual cards already laid are
  then redrawn with the heuristic's eyes (what a seat like that would have done).
* Candidates: a seat that already picked or voted in this scene sends it again (no new
  information has reached it); a proposal is one of a few circles — the heuristic's and the ones
  made of the cats the seat trusts most — rather than every combination.
* Witches coordinate through what their whisper channel would carry, computed alike by every
  witch from what they all know (each other and the public record): they all vote for the same
  cat (the non-witch the village suspects most: the likeliest to fall), and in the witches'
  window each goes to a different busy place (the k-th witch in seat order to the k-th busiest).
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from hexnet.engine import Game, visible
from hexnet.games.fang import belief, bots, data
from hexnet.games.fang import view as engine_view
from hexnet.games.fang.game import GAME
from hexnet.search import SearchGame, SearchPolicy

View = dict[str, Any]
Action = dict[str, Any]
ROLLOUT_LOG = 24  # recent events the rollout view keeps (the heuristic reads the last few)
PROPOSALS = 6  # circles a proposal search compares
ODDS_DEALS = 100  # role deals behind a seat's witch odds
VOTE_CONFIDENCE = 0.8  # the village votes for a cat it finds a witch at least this often
ANCHOR = 1.0  # search leaves the heuristic's choice only for one better by a standard error


def rollout_view(state: dict[str, Any], seat: int) -> View:
    """``seat``'s view as the heuristic reads it: the game's part of the view and the seat's
    recent events (uncopied: the heuristic only reads them)."""
    v = engine_view.build(state, seat)
    v["seat"] = seat
    v["log"] = [e for e in state["log"][-ROLLOUT_LOG:] if visible(e, seat)]
    return v


def team_witches(view: View) -> list[int]:
    """The witches in cat form, as a witch knows them (seat order)."""
    return [s for s, r in enumerate(view["roles"])
            if r == data.WITCH and view["forms"][s] == "cat"]


def whisper_vote(view: View) -> int | None:
    """The witches' common vote: the non-witch cat the public record makes most suspect."""
    score = belief.public_suspicion(view)
    witches = set(team_witches(view))
    targets = [s for s in range(len(view["forms"]))
               if view["forms"][s] == "cat" and s not in witches]
    if not targets:
        return None
    return max(targets, key=lambda s: (score[s], -s))


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
        return [_village_vote(view, legal, heuristic, rng)]
    if view["scene"] in ("pick", "guard") and not bots.on_witch_side(view):
        # every village bot optimising its own pick against heuristic cats herds them into one
        # place (the witches' favourite): the day's places stay the heuristic's spread
        return [heuristic]
    return list(legal)


def witch_odds(view: View, rng: random.Random, deals: int = 0) -> list[float]:
    """How often each seat is a witch among ``deals`` role deals consistent with the view
    (the seat's suspicion, made a probability)."""
    deals = deals or ODDS_DEALS
    counts = [0] * len(view["forms"])
    for _ in range(deals):
        for s, role in enumerate(belief.deal_roles(view, rng)):
            counts[s] += role == data.WITCH
    return [c / deals for c in counts]


def _village_vote(view: View, legal: list[Action], heuristic: Action,
                  rng: random.Random) -> Action:
    """The cat most likely a witch if the odds are high enough, else the heuristic's vote.
    (Searching the vote with playouts made every village bot banish its own suspect, and the
    scattered votes helped the witches: the village agrees through the public record.)"""
    odds = witch_odds(view, rng)
    targets = [a for a in legal if a["type"] == "vote"]
    if not targets:
        return heuristic
    best = max(targets, key=lambda a: (odds[a["target"]], -a["target"]))
    return best if odds[best["target"]] >= VOTE_CONFIDENCE else heuristic


def _proposals(view: View, legal: list[Action], heuristic: Action,
               rng: random.Random) -> list[Action]:
    """The heuristic's circle and those of the cats the seat trusts most."""
    me = view["seat"]
    size = view["proposal_size"]
    trust = belief.suspicion(view)
    for s, is_witch in belief.seer_findings(view).items():
        trust[s] += 50.0 if is_witch else -50.0
    own_side = set(team_witches(view)) if view["role"] in (data.WITCH, data.CROW) else set()
    cats = [s for s in range(len(view["forms"])) if view["forms"][s] == "cat"]
    # a witch wants herself (or a fellow witch) in the circle; the village wants no witch
    ranked = sorted(cats, key=lambda s: (s != me, -(s in own_side), trust[s], s))
    out = [heuristic]
    pool = ranked[:size + 2]
    for combo in combinations(pool, size):
        if me in combo or me not in cats:
            action = {"type": "propose", "members": ",".join(str(s) for s in sorted(combo))}
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


SPEC = SearchGame(engine=GAME, rollout=bots.choose_heuristic, candidates=candidates,
                  log_keep=ROLLOUT_LOG, rollout_view=rollout_view, refine=redraw_hidden,
                  anchor=ANCHOR,
                  value=lambda outcome, seat: 1.0 if seat in outcome.get("winners", []) else 0.0,
                  shared=frozenset({"players", "options", "roles"}))
SEARCH = SearchPolicy(SPEC)


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
