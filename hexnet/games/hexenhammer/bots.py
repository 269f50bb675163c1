"""Bots for Hexenhammer: ``random`` (uniform over the legal actions), ``heuristic`` and
``choose_normal`` (the ``normal`` level: the heuristic that also refreshes its hand).

The heuristic sees only the view (and the printed card and villager tables). It measures a
position by its *margin*: how far the most suspected opponent villager stands above its own most
suspected villager (the one that would burn). It accuses opponents' villagers with the cards that
widen the margin most, protects its own, reacts when a reaction saves its villager, and calls the
Inquisition when an opponent's villager leads or ties, or when nothing is left to draw. It
cancels a call with Keyne Inquisition only while the draw pile holds cards (see :func:`_react`):
bots that hold their cards must not repeat a lap of phase 1 forever. It keeps its cards in
phase 4, as a beginner hoards them; the ``normal`` level (:func:`choose_normal`) discards there
the cards only phase 1 takes, to draw fresh ones.
"""

from __future__ import annotations

import random
from typing import Any

from hexnet.bots import choose_random
from hexnet.games.hexenhammer import data
from hexnet.games.hexenhammer.legal import CardPlays

Action = dict[str, Any]
PASS: Action = {"type": "pass"}
# the cards only phase 1 takes (+1 and −2): the heuristic plays them only when they change who
# leads, so the normal level discards them in phase 4 to draw fresh ones (at three seats against
# bots that keep them: a 46-50% win rate instead of 30-38%, by seat, 4,500 games)
REFRESHED = frozenset({"verleumdung", "ableugnung"})
# each villager's bonuses as an accuser: by card kind, by target
_ACCUSER_BONUSES = {vid: (v.get("accuser_card_bonus", {}), v.get("accuser_bonus", {}))
                    for vid, v in data.VILLAGERS.items()}
# the fields of a reaction window's trigger the heuristic reads (:func:`_react`), by its type
TRIGGER_READ = {"call": ("type", "player"), "trial": ("type", "player", "kind", "target"),
                "card": ("type", "player", "kind", "value", "accuser", "target")}
BURNING_TRIALS = frozenset({"wasserprobe_schwimmt", "wasserprobe_sinkt", "wiegeprobe_leichter",
                            "teufelsmal_ja"})


class _Table:
    """The suspicion board as the bot sees it."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.me = view["seat"]
        self.inquisitor = view["inquisitor"]
        board = view.get("board")
        if board is not None:  # a playout's view (search.rollout_view): the board ready-made
            self.susp, self.start, self.owner = board
        else:
            self.susp, self.start, self.owner = {}, {}, {}
            for v in view["villagers"]:
                if v["alive"]:
                    self.susp[v["id"]] = v["suspicion"]
                    self.start[v["id"]] = v["start"]
                    self.owner[v["id"]] = v["owner"]
        self.mine: list[str] = []
        self.theirs: list[str] = []
        for vid, o in self.owner.items():
            (self.mine if o == self.me else self.theirs).append(vid)
        self.witches = view["current_witches"]
        self._mine_set = frozenset(self.mine)
        self._leaders_found: tuple[tuple[str | None, int, int],
                                   tuple[str | None, int, int]] | None = None
        self._standing_found: dict[str, tuple[int, int, bool, int]] | None = None

    @property
    def _leaders(self) -> tuple[tuple[str | None, int, int], tuple[str | None, int, int]]:
        """:meth:`_two_best` of the bot's villagers and of the opponents' (read by the margins
        only, so found the first time they ask: a reaction window's answer does without)."""
        if self._leaders_found is None:
            self._leaders_found = self._two_best(self.mine), self._two_best(self.theirs)
        return self._leaders_found

    def _two_best(self, ids: list[str]) -> tuple[str | None, int, int]:
        """The leader of ``ids``, its suspicion, and the best suspicion of the others."""
        lead, best, second = None, -1, -1
        for vid in ids:
            s = self.susp[vid]
            if s > best:
                lead, best, second = vid, s, best
            elif s > second:
                second = s
        return lead, best, second

    def margin(self) -> float:
        """How much safer the bot's villagers are than the opponents' (bigger is better)."""
        if not self.mine:
            return 0.0
        own, opp = self._leaders
        return float(opp[1] - own[1])

    def margins_after(self, hand: dict[str, dict], plays: list[Action]) -> list[float]:
        """:meth:`margin` once each of ``plays`` (cards played on a target villager) moved its
        target by the card's value (its sign, the accuser's bonuses), kept between the
        villager's start and the top — and a little more the further it moved an opponent's
        villager up or the bot's own down (:meth:`margins_of`). All plays in one call, each
        (target, move) worked out once."""
        if not self.mine:
            return [0.0] * len(plays)
        out: list[float] = []
        known: dict[tuple[str, int], float] = {}  # (target, value): plays often share both
        last = None
        for action in plays:
            cid = action["card"]
            if cid != last:  # a card's plays come one after another
                last = cid
                card = hand[cid]
                card_value, kind = card["value"], card["kind"]
            target = action["target"]
            sign = action.get("sign")
            value = card_value if sign is None else card_value * sign
            accuser = action.get("accuser")
            if accuser:
                by_card, by_target = _ACCUSER_BONUSES[accuser]
                value += by_card.get(kind, 0) + by_target.get(target, 0)
            margin = known.get((target, value))
            if margin is None:
                margin = known[(target, value)] = self.margins_of((target,), value)[0]
            out.append(margin)
        return out

    def margins_of(self, targets: tuple[str, ...], value: int) -> list[float]:
        """:meth:`margin` once each of ``targets`` (alone) moved by ``value``, as
        :meth:`margins_after` counts it (the bot must have villagers)."""
        standing, top = self._standing(), data.TOP
        own_best, opp_best = self._leaders[0][1], self._leaders[1][1]
        out: list[float] = []
        for target in targets:
            now, low, mine, rest = standing[target]
            to = now + value  # kept between the villager's start and the top
            if to > top:
                to = top
            if to < low:
                to = low
            high = to if to > rest else rest  # the top of its group once it moved
            if mine:
                out.append((opp_best - high) - 0.05 * (to - now))
            else:
                out.append((high - own_best) + 0.05 * (to - now))
        return out

    def _standing(self) -> dict[str, tuple[int, int, bool, int]]:
        """Each living villager's suspicion, start, whether it is the bot's, and the top of the
        rest of its group (:meth:`margins_of` reads them for every value a card may move it
        by); found the first time they are asked."""
        if self._standing_found is None:
            (own_lead, own_best, own_second), (opp_lead, opp_best, opp_second) = self._leaders
            mine = self._mine_set
            self._standing_found = {
                vid: (now, self.start[vid], vid in mine,
                      (own_second if vid == own_lead else own_best) if vid in mine
                      else (opp_second if vid == opp_lead else opp_best))
                for vid, now in self.susp.items()}
        return self._standing_found

    def threatened(self) -> bool:
        """One of the bot's villagers would burn now (alone or in a tie)."""
        return any(self.owner[w] == self.me for w in self.witches if w in self.owner)


def _best_play(table: _Table, hand: dict[str, dict], legal: list[Action]) -> Action | None:
    """The card play (with a target) that widens the margin most, if any widens it."""
    trials = data.TRIALS
    plays = [a for a in legal if a["type"] == "play" and "target" in a
             and hand[a["card"]]["kind"] not in trials]
    base = table.margin()
    best, best_gain = None, 0.5
    for action, margin in zip(plays, table.margins_after(hand, plays), strict=True):
        gain = margin - base
        if gain > best_gain:
            best, best_gain = action, gain
    return best


def _best_group_play(table: _Table, hand: dict[str, dict],
                     groups: list[CardPlays]) -> Action | None:
    """:func:`_best_play` over a turn's plays grouped by card (:func:`hexnet.games.
    hexenhammer.legal.turn_plays`, in the legal order): the same play, found a row of gains
    (one per play, in order) at a time, without an action per play."""
    if not table.mine:
        return None  # (every margin is 0: nothing widens it)
    base = table.margin()
    rows: dict[tuple[tuple[str, ...], int], list[float]] = {}

    def row(targets: tuple[str, ...], value: int) -> list[float]:
        """The gain of moving each of ``targets`` by ``value``."""
        gains = rows.get((targets, value))
        if gains is None:
            gains = rows[(targets, value)] = [m - base for m in table.margins_of(targets, value)]
        return gains

    best, best_gain = None, 0.5
    for cid, kind, accusers, targets, signed in groups:
        if kind in data.TRIALS or not targets:
            continue
        value = hand[cid]["value"]
        here = tuple(targets)
        # each option's gains in the legal order: (gains, accuser, plays per target)
        options: list[tuple[list[float], str | None, int]] = []
        if accusers is not None:  # a brown card: each accuser adds its bonuses
            for accuser in accusers:
                by_card, by_target = _ACCUSER_BONUSES[accuser]
                moved = value + by_card.get(kind, 0)
                gains = row(here, moved)
                if not by_target.keys().isdisjoint(here):
                    gains = [table.margins_of((t,), moved + by_target[t])[0] - base
                             if t in by_target else g for t, g in zip(here, gains, strict=True)]
                options.append((gains, accuser, 1))
        elif signed:  # each target up, then down
            options.append(([g for pair in zip(row(here, value), row(here, -value), strict=True)
                             for g in pair], None, 2))
        else:
            options.append((row(here, value), None, 1))
        for gains, accuser, per in options:
            top = max(gains)
            if top > best_gain:  # the first play of this best gain, as the one-by-one loop
                best, best_gain = (cid, accuser, here, gains.index(top), per), top
    if best is None:
        return None
    cid, accuser, here, i, per = best
    if accuser is not None:
        return {"type": "play", "card": cid, "accuser": accuser, "target": here[i]}
    if per == 2:
        return {"type": "play", "card": cid, "target": here[i // 2], "sign": 1 - 2 * (i % 2)}
    return {"type": "play", "card": cid, "target": here[i]}


def _trial_play(table: _Table, hand: dict[str, dict], legal: list[Action]) -> Action | None:
    """A trial worth calling: burn or drown an opponent's witch, clear the bot's own. Trials
    may be played at any time in phases 2 and 3, so this is asked in every reaction window the
    bot answers, not only on its own turn."""
    if not table.mine:
        return None
    for action in legal:
        if action["type"] != "play":
            continue
        kind = hand[action["card"]]["kind"]
        if kind not in data.TRIALS:
            continue
        if kind in BURNING_TRIALS and not table.threatened() and table.witches:
            return action
        if kind == "wiegeprobe_schwerer" and table.threatened():
            return action
        if kind == "teufelsmal_nein" and action.get("target") in table.mine and (
                action["target"] in table.witches):
            return action
    return None


def _react(view: dict[str, Any], table: _Table, hand: dict[str, dict],
           legal: list[Action]) -> Action:
    trigger = view["window"]["trigger"]
    plays = [a for a in legal if a["type"] == "play"]
    if not plays:
        return PASS
    if trigger["type"] == "call":
        # with the draw pile empty, the Keyne Inquisition comes straight back to its player on
        # the reshuffle and the same call comes again: cancelling then only repeats the lap
        # (between bots that hold their cards, forever), so the call is let stand
        return plays[0] if (table.threatened() and trigger["player"] != table.me
                            and view["draw_pile"] > 0) else PASS
    if trigger["type"] == "trial":
        if trigger["kind"] in BURNING_TRIALS and table.threatened():
            return plays[0]
        return PASS
    # a trial may come inside the window too: if it stands, the card waiting here lapses
    trial = _trial_play(table, hand, legal)
    if trial is not None:
        return trial
    target = trigger["target"]
    if target not in table.owner or table.owner[target] != table.me or trigger["value"] <= 0:
        return PASS
    # an accusation hits one of ours: turn it away
    by_kind: dict[str, list[Action]] = {}
    for a in plays:
        by_kind.setdefault(hand[a["card"]]["kind"], []).append(a)
    if "widerruf" in by_kind:
        return by_kind["widerruf"][0]
    accuser = trigger["accuser"]
    if "gegenanklage" in by_kind and accuser is not None and table.owner.get(accuser) != table.me:
        return by_kind["gegenanklage"][0]
    if "verwechslung" in by_kind:
        options = [a for a in by_kind["verwechslung"] if table.owner.get(a["other"]) != table.me]
        if options:
            return max(options, key=lambda a: table.susp[a["other"]])
    return PASS


def _refresh(hand: dict[str, dict], legal: list[Action]) -> Action:
    """Phase 4: discard a card of :data:`REFRESHED` (one at a time; the draw up to six
    follows the pass)."""
    for action in legal:
        if action["type"] == "discard" and hand[action["card"]]["kind"] in REFRESHED:
            return action
    return PASS


def _calls(view: dict[str, Any], table: _Table) -> bool:
    """Whether to call the Inquisition on its phase-1 turn: when an opponent's villager leads
    (or ties: the inquisitor breaks a tie), and whenever nothing is left to draw — with the
    draw pile and the discards empty, ending the turn only repeats the lap, and only a call
    ends the phase."""
    if not view["draw_pile"] and not view["discard_size"]:
        return True
    own, opp = table._leaders
    return bool(table.mine) and opp[1] >= own[1]


def choose_heuristic(view: dict[str, Any], legal: list[Action], rng: random.Random, *,
                     refresh: bool = False) -> Action:
    """A sensible move for the seat whose view this is; ``refresh``: discard in phase 4 the
    cards only phase 1 takes (:func:`_refresh`) instead of keeping every card."""
    hand = {c["id"]: c for c in view["hand"]}
    first = legal[0]
    if view["phase"] == 4 and view["window"] is None and first["type"] != "choose":
        return _refresh(hand, legal) if refresh else PASS  # the board does not matter here
    table = _Table(view)
    if first["type"] == "choose":
        return max(legal, key=lambda a: (table.owner.get(a["target"]) != table.me,
                                         data.VILLAGERS[a["target"]]["matches"]))
    if view["window"] is not None:
        return _react(view, table, hand, legal)
    phase = view["phase"]
    if phase == 1 and {"type": "call_inquisition"} in legal and _calls(view, table):
        return {"type": "call_inquisition"}
    if phase in (2, 3):
        trial = _trial_play(table, hand, legal)
        if trial is not None:
            return trial
    play = _best_play(table, hand, legal)
    return play if play is not None else PASS


def turn_choice(view: dict[str, Any], groups: list[CardPlays], can_call: bool) -> Action:
    """:func:`choose_heuristic`'s choice on a turn in phases 1–3 where the seat holds no
    trial it may play, from the turn's plays grouped by card (:func:`hexnet.games.
    hexenhammer.legal.turn_plays`) rather than a list of every play; ``can_call``: the
    Inquisition call is among the legal actions. A playout's turn (search's ``settled``)."""
    table = _Table(view)
    if view["phase"] == 1 and can_call and _calls(view, table):
        return {"type": "call_inquisition"}
    play = _best_group_play(table, {c["id"]: c for c in view["hand"]}, groups)
    return play if play is not None else PASS


def choose_normal(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    """The ``normal`` level: the heuristic, refreshing its hand in phase 4 (:func:`_refresh`)
    where the heuristic keeps every card."""
    return choose_heuristic(view, legal, rng, refresh=True)


POLICIES = {"random": choose_random, "heuristic": choose_heuristic}
