"""Hexenhammer views for screen tests and snapshots: hand-written ones (the engine's view
format) and the busiest table, made by the engine from a stacked position."""

from __future__ import annotations

import copy
from typing import Any

from hexnet.games.hexenhammer import GAME, data
from hexnet.games.hexenhammer.view import ABILITY_KEYS

PLAYERS = ["Ada", "Bela", "Cora", "Dan"]

VILLAGERS = [
    ("karl", "Zahnbrecher Karl", 0, 3, 7), ("maria", "Magd Maria", 0, 2, 2),
    ("luitger", "Pfaffe Luitger", 0, 4, 9), ("heinbichl", "Amtmann Heinbichl", 1, 1, 5),
    ("berta", "Hausschwein Berta", 1, 5, 5), ("theresa", "Bettlerin Theresa", 1, 2, 14),
    ("raphael", "Landstreicher Raphael", 2, 3, 3), ("bertram", "Leineweber Bertram", 2, 1, 18),
    ("markwart", "Totengräber Markwart", 2, 4, 6), ("griseldis", "Mädchen Griseldis", 3, 6, 6),
    ("katharina", "Schweinehirtin Katharina", 3, 2, 11), ("tochter", "Tochter des Totengräbers",
                                                          3, 3, 4),
]

def _card(cid: str, kind: str, value: int, colour: str, phases: list[int],
          reaction: bool = False, signed: bool = False) -> dict[str, Any]:
    return {"id": cid, "kind": kind, "value": value, "colour": colour, "phases": phases,
            "reaction": reaction, "signed": signed}


HAND = [
    _card("c3", "verleumdung", 1, "brown", [1]),
    _card("c17", "falsches_zeugnis", 3, "brown", [1, 2, 3]),
    _card("c40", "ableugnung", -2, "brown", [1]),
    _card("c55", "gegenanklage", 0, "yellow", [1, 2, 3], reaction=True),
    _card("c61", "spende", 2, "yellow", [2], signed=True),
    _card("c70", "keyne_inquisition", 0, "yellow", [1], reaction=True),
]

LOG = [  # events as the engine emits them: keys and arguments, worded by the client
    {"n": 0, "key": "phase1", "round": 1, "player": 2, "phase": 1},
    {"n": 1, "key": "resolve_accuses", "accuser": "theresa", "target": "bertram",
     "kind": "verleumdung", "gain": 1, "before": 17, "after": 18,
     "owners": {"theresa": 1, "bertram": 2}},
    {"n": 2, "key": "draws", "player": 2, "count": 1},
    {"n": 3, "key": "resolve_accuses", "accuser": "katharina", "target": "luitger",
     "kind": "falsches_zeugnis", "gain": 3, "before": 6, "after": 9,
     "owners": {"katharina": 3, "luitger": 0}},
]


def villagers() -> list[dict[str, Any]]:
    return [{"id": vid, "owner": owner, "start": start, "suspicion": susp, "alive": True,
             "trial_card": None, "pentagrams": data.VILLAGERS[vid]["pentagrams"],
             "matches": data.VILLAGERS[vid]["matches"]}
            for vid, _name, owner, start, susp in VILLAGERS]


def abilities() -> dict[str, dict[str, Any]]:
    return {vid: {k: data.VILLAGERS[vid][k] for k in ABILITY_KEYS if k in data.VILLAGERS[vid]}
            for vid, *_rest in VILLAGERS}


def scores(rows: list[dict[str, Any]]) -> list[dict[str, int]]:
    """Pentagrams of the living villagers (nothing taken, kept or emptied yet)."""
    out = []
    for seat in range(len(PLAYERS)):
        pent = sum(v["pentagrams"] for v in rows if v["owner"] == seat and v["alive"])
        out.append({"pentagrams": pent, "matches": 0, "trials": 0, "empty_stakes": 0,
                    "total": pent})
    return out


def your_turn_view() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Phase 1, seat 0 (Ada) to act: may play brown cards, call the Inquisition or pass."""
    view: dict[str, Any] = {
        "game": "hexenhammer", "seat": 0, "players": PLAYERS, "state_id": 12, "phase": 1,
        "inquisitor": None, "turn": 0, "active": [0], "villagers": villagers(),
        "abilities": abilities(), "scores": scores(villagers()),
        "hand": copy.deepcopy(HAND), "hand_sizes": [6, 5, 6, 4], "log": copy.deepcopy(LOG),
        "deadline": None, "outcome": None, "current_witches": ["bertram"], "draw_pile": 41,
        "taken": [[], [], [], []], "empty_stakes": [[], [], [], []],
        "kept_trials": [[], [], [], []], "window": None, "done": [], "choice": None,
    }
    legal: list[dict[str, Any]] = []
    mine = ["karl", "maria", "luitger"]
    targets = [v[0] for v in VILLAGERS]
    for card in ("c3", "c17", "c40"):
        for accuser in mine:
            for target in targets:
                legal.append({"type": "play", "card": card, "accuser": accuser,
                              "target": target})
    legal += [{"type": "call_inquisition"}, {"type": "pass"}]
    return view, legal


def reaction_view() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Bela just accused Ada's Karl; Ada may answer with Gegenanklage or pass (timed)."""
    view, _ = your_turn_view()
    view.update(state_id=13, turn=1, active=[0, 2, 3], window={
        "trigger": {"type": "card", "player": 1, "kind": "falsches_zeugnis", "value": 3,
                    "accuser": "heinbichl", "aimed": "karl", "target": "karl", "shares": [],
                    "cancelled": False},
        "pending": [0, 2, 3]},
                deadline={"key": "w13", "seconds": 15, "seats": [0, 2, 3],
                          "on_expiry": "window"})
    view["log"] = view["log"] + [
        {"n": 4, "key": "play_accuses", "player": 1, "kind": "falsches_zeugnis", "value": 3,
         "accuser": "heinbichl", "target": "karl", "owners": {"heinbichl": 1, "karl": 0}}]
    legal = [{"type": "play", "card": "c55"}, {"type": "pass"}]
    return view, legal


def over_view() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The game ended: scores with their breakdown."""
    view, _ = your_turn_view()
    dead = ("bertram", "theresa", "luitger", "katharina", "raphael", "tochter", "heinbichl",
            "griseldis")
    for v in view["villagers"]:
        v["alive"] = v["id"] not in dead
    view.update(state_id=301, active=[], phase="over", inquisitor=1, window=None,
                taken=[["luitger"], ["bertram", "raphael", "katharina", "tochter"], [], []],
                empty_stakes=[[], ["theresa", "heinbichl"], [], ["griseldis"]],
                current_witches=[], outcome={
        "scores": [9, 12, 5, 5], "winners": [1], "result": "", "turns": 57,
        "breakdown": [
            {"pentagrams": 5, "matches": 1, "trials": 0, "empty_stakes": 3, "total": 9},
            {"pentagrams": 0, "matches": 10, "trials": 1, "empty_stakes": 1, "total": 12},
            {"pentagrams": 2, "matches": 0, "trials": 0, "empty_stakes": 3, "total": 5},
            {"pentagrams": 3, "matches": 0, "trials": 0, "empty_stakes": 2, "total": 5},
        ]})
    return view, []


BUSY_PLAYERS = ["Ada", "Bartholomew", "Cora", "Dan", "Eve"]


def busy_view() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The busiest Hexenhammer table, made by the engine: five players (fifteen villagers, the
    longest names), round 2; Bartholomew burned Cora's Raphael earlier and an own villager
    (an empty stake), Cora kept a water trial, the heavier-scales card lies on Bertram; now
    Dan accuses Ada's Karl and Ada is asked out of turn (a two-line prompt with a countdown)."""
    rows = [["karl", "maria", "luitger"], ["heinbichl", "theresa", "berta"],
            ["raphael", "bertram", "markwart"], ["griseldis", "katharina", "tochter"],
            ["burckhardt", "martha", "ottheinrich"]]
    state = GAME.setup(BUSY_PLAYERS, 3, {"scenario": {
        "villagers": rows, "hands": [["gegenanklage", "verwechslung", "falsches_zeugnis:3",
                                      "verleumdung", "spende:2", "ableugnung"], [], [],
                                     ["falsches_zeugnis:4"], []],
        "suspicion": {"bertram": 17, "theresa": 14, "luitger": 9, "karl": 7,
                      "ottheinrich": 12},
        "phase": 1, "turn": 3, "inquisitor": 1}})
    state["round"] = 2
    for vid, burner in (("raphael", 1), ("heinbichl", 1)):
        state["villagers"][vid]["alive"] = False
        (state["taken"] if state["villagers"][vid]["owner"] != burner
         else state["empty_stakes"])[burner].append(vid)
    kept = next(c for c, (k, _v) in state["cards"].items() if k == "wasserprobe_schwimmt")
    state["kept"][2].append(kept)
    scales = next(c for c, (k, _v) in state["cards"].items() if k == "wiegeprobe_schwerer")
    state["protected"] = {"villager": "bertram", "card": scales}
    card = next(c for c in state["hands"][3] if state["cards"][c][0] == "falsches_zeugnis")
    GAME.apply(state, 3, {"type": "play", "card": card, "accuser": "katharina",
                          "target": "karl"})
    return GAME.view(state, 0), GAME.legal_actions(state, 0)
