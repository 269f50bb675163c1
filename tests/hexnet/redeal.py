"""Differential leak checks: re-deal what a seat must not know, and compare what it is shown.

A view leaks if it changes when only hidden information changes. For one seat (or the watcher,
``None``) :func:`redeal` returns a copy of a real game state in which everything that seat may
not know is dealt or rolled anew — other seats' hands and the draw pile, roles it has no right
to, secret picks and votes, the generator's state, the private log lines of other seats — while
everything it does know stays put: its own hand and role, what its role revealed, and the
public history. :func:`packed` is what the seat receives from the engine (its view, log
included, and its legal actions) as msgpack bytes; a leak-free engine gives the same bytes for
the state and for every re-deal of it.

The re-deals are written from the rules (``seeds/rules/*.md``), not from the engines' view
code: a test must not ask the code under test what is secret. They know each game's state
layout, so a change to that layout shows up here as a KeyError, not as a silent pass.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterator
from typing import Any

import msgpack

from hexnet.engine import Game, State
from hexnet.games import get_game

Redeal = Callable[[State, "int | None", random.Random], State]


# --- what every game shares -----------------------------------------------------------------------

def packed(game: Game, state: State, seat: int | None) -> bytes:
    """What ``seat`` receives from the engine now — its view (log included) and its legal
    actions — as msgpack bytes (so key order and types count, as on the wire)."""
    legal = game.legal_actions(state, seat) if seat is not None else []
    return msgpack.packb([game.view(state, seat), legal], use_bin_type=True)


def reroll(value: Any, rnd: random.Random) -> Any:
    """The same shape with fresh random leaves (the generator's state, whatever its form)."""
    if isinstance(value, bool):
        return rnd.random() < 0.5
    if isinstance(value, int):
        return rnd.getrandbits(max(value.bit_length(), 64))
    if isinstance(value, bytes):
        return rnd.randbytes(len(value))
    if isinstance(value, list):
        return [reroll(v, rnd) for v in value]
    if isinstance(value, dict):
        return {k: reroll(v, rnd) for k, v in value.items()}
    raise TypeError(f"cannot re-roll a generator state holding {type(value).__name__}")


def _visible(event: dict[str, Any], seat: int | None) -> bool:
    # the rule, restated: an event with an audience reaches only the seats in it
    to = event.get("to")
    return to is None or (seat is not None and seat in to)


def scramble_unseen_log(state: State, seat: int | None, rnd: random.Random) -> None:
    """Rewrite every log event ``seat`` may not see: same index and audience, other content
    (other words, another extra field), so a view that shows one of them differs."""
    for i, event in enumerate(state["log"]):
        if _visible(event, seat):
            continue
        state["log"][i] = {"n": event["n"], "to": event["to"],
                           "text": f"secret {rnd.getrandbits(48):x}",
                           f"x{rnd.randrange(1000)}": rnd.getrandbits(16)}


def clone(state: State) -> State:
    """A deep copy of a state (msgpack by the contract: faster than ``copy.deepcopy``)."""
    return msgpack.unpackb(msgpack.packb(state, use_bin_type=True), raw=False,
                           strict_map_key=True)


def _common(state: State, seat: int | None, rnd: random.Random) -> State:
    out = clone(state)
    out["rng"] = reroll(out["rng"], rnd)  # the generator's state: the future draws
    scramble_unseen_log(out, seat, rnd)
    return out


def _others(state: State, seat: int | None) -> list[int]:
    return [s for s in range(len(state["players"])) if s != seat]


def _deal_into(slots: list[list[Any]], pool: list[Any], rnd: random.Random) -> None:
    """Shuffle ``pool`` back into ``slots`` (lists, in place), keeping every slot's size."""
    rnd.shuffle(pool)
    at = 0
    for slot in slots:
        slot[:] = pool[at:at + len(slot)]
        at += len(slot)


# --- Hexenhammer ----------------------------------------------------------------------------------

def redeal_hexenhammer(state: State, seat: int | None, rnd: random.Random) -> State:
    """Other hands and the draw pile are dealt anew, in ids *and* kinds: the cards there (by id)
    are shuffled over those places (every hand keeps its size), and the card kinds behind those
    ids are shuffled among them. Own hand, the table, kept trials, the discard pile, removed
    and protected cards stay as they are."""
    out = _common(state, seat, rnd)
    slots = [out["hands"][s] for s in _others(out, seat)] + [out["deck"]]
    pool = [cid for slot in slots for cid in slot]
    _deal_into(slots, pool, rnd)
    faces = [out["cards"][cid] for cid in pool]
    rnd.shuffle(faces)
    for cid, face in zip(pool, faces, strict=True):
        out["cards"][cid] = face
    return out


# --- Hranice --------------------------------------------------------------------------------------

def redeal_hranice(state: State, seat: int | None, rnd: random.Random) -> State:
    """Other hands and the pile are dealt anew (every hand keeps its size); stacked dice are
    rolled anew. While ``seat`` picks the card Výslech discards, the hand it looks at is known
    to it and stays."""
    out = _common(state, seat, rnd)
    step = out["step"]
    peeked = (step["player"] if step is not None and step.get("stage") == "choose"
              and step.get("seat") == seat and seat is not None else None)
    slots = [out["hands"][s] for s in _others(out, seat) if s != peeked] + [out["pile"]]
    _deal_into(slots, [c for slot in slots for c in slot], rnd)
    out["dice"] = [rnd.randint(1, 6) for _ in out["dice"]]
    return out


# --- Fang die Hexe --------------------------------------------------------------------------------

FANG_WITCH, FANG_CROW, FANG_SEER = "hexe", "kraehe", "seherin"
FANG_SECRET_SCENES = ("pick", "guard", "witches")  # even who is asked is secret there


def fang_known_seats(state: State, seat: int | None) -> set[int]:
    """Seats whose role ``seat`` knows, by the rules: its own, every banished cat's (shown at
    the banishment), the witches if it is a witch or the crow, the seer's looks (which side the
    seen seat is on) — and every role once the game is over."""
    n = state["n"]
    if state["outcome"] is not None:
        return set(range(n))
    known = {s for s in range(n) if state["form"][s] == "banished"}
    if seat is None:
        return known
    known.add(seat)
    role = state["roles"][seat]
    if role in (FANG_WITCH, FANG_CROW):
        known |= {s for s in range(n) if state["roles"][s] == FANG_WITCH}
    if role == FANG_SEER:
        known |= {target for _day, target, _result in state["seer_results"]}
    return known


def redeal_fang(state: State, seat: int | None, rnd: random.Random) -> State:
    """Roles ``seat`` does not know are dealt anew among the seats holding them (among cats
    and among frogs separately: forms are public), each role taking its seat's secret day along
    (today's pick, a witch's choices, and in the secret scenes whether the seat is still asked
    and what it chose). Every other hand is dealt anew — contents and sizes, both secret — and
    every spoiled mark is rolled anew, the seat's own included (not even the holder knows it).
    Votes and laid ritual cards of others in the scene now open are changed (who has voted is
    public, how is not); the seer's results are rolled anew unless ``seat`` is the seer."""
    out = _common(state, seat, rnd)
    if out["outcome"] is not None:
        return out
    n = out["n"]
    known = fang_known_seats(out, seat)
    scene = out["scene"]
    secret_scene = scene.get("name") in FANG_SECRET_SCENES
    bundles = {s: _fang_bundle(out, s, secret_scene) for s in range(n)}
    for form in ("cat", "frog"):
        hidden = [s for s in range(n) if s not in known and out["form"][s] == form]
        moved = hidden[:]
        rnd.shuffle(moved)
        for src, dst in zip(hidden, moved, strict=True):
            _fang_place_bundle(out, dst, bundles[src], secret_scene)
    _fang_redeal_hands(out, seat, rnd)
    if scene.get("name") in ("proposal_vote", "vote", "ritual"):
        _fang_change_choices(out, seat, rnd)
    if seat is None or out["roles"][seat] != FANG_SEER:
        out["seer_results"] = [[day, rnd.randrange(n), rnd.choice(["witch", "not a witch"])]
                               for day, _t, _r in out["seer_results"]]
    return out


def _fang_bundle(state: State, s: int, secret_scene: bool) -> dict[str, Any]:
    today, scene = state["today"], state["scene"]
    bundle: dict[str, Any] = {"role": state["roles"][s]}
    for key in ("picks", "witches"):
        if today.get(key) is not None:
            bundle[key] = copy.deepcopy(today[key][s])
    if secret_scene:
        bundle["asked"] = s in scene["need"]
        bundle["choice"] = copy.deepcopy(scene["choice"][s])
        bundle["count"] = scene["count"][s]
    return bundle


def _fang_place_bundle(state: State, s: int, bundle: dict[str, Any], secret_scene: bool) -> None:
    today, scene = state["today"], state["scene"]
    state["roles"][s] = bundle["role"]
    for key in ("picks", "witches"):
        if key in bundle:
            today[key][s] = bundle[key]
    if secret_scene:
        need = set(scene["need"]) - {s}
        if bundle["asked"]:
            need.add(s)
        scene["need"] = sorted(need)
        scene["choice"][s] = bundle["choice"]
        scene["count"][s] = bundle["count"]


def _fang_redeal_hands(state: State, seat: int | None, rnd: random.Random) -> None:
    limit = state["cfg"]["hand_size"]
    others = _others(state, seat)
    pool = [card for s in others for card in state["hands"][s]]
    kinds = [card["ing"] for card in pool]
    rnd.shuffle(kinds)
    for card, ing in zip(pool, kinds, strict=True):
        card["ing"] = ing
    rnd.shuffle(pool)
    hands: dict[int, list[dict[str, Any]]] = {s: [] for s in others}
    for card in pool:  # every card into a random other hand with room: sizes change too
        hands[rnd.choice([s for s in others if len(hands[s]) < limit])].append(card)
    for s in others:
        state["hands"][s] = hands[s]
    for hand in state["hands"]:
        for card in hand:
            card["spoiled"] = rnd.random() < 0.5


def _fang_change_choices(state: State, seat: int | None, rnd: random.Random) -> None:
    scene = state["scene"]
    name = scene["name"]
    voters = [s for s in _others(state, seat) if scene["count"][s] > 0]
    if name == "ritual":
        laid = [scene["choice"][s] for s in voters]
        rnd.shuffle(laid)
        for s, card in zip(voters, laid, strict=True):
            scene["choice"][s] = card
        return
    cats = [s for s in range(state["n"]) if state["form"][s] == "cat"]
    for s in voters:
        if name == "proposal_vote":
            scene["choice"][s] = rnd.random() < 0.5
        else:
            scene["choice"][s] = rnd.choice([*(t for t in cats if t != s), None])


REDEALS: dict[str, Redeal] = {
    "hexenhammer": redeal_hexenhammer,
    "fang": redeal_fang,
    "hranice": redeal_hranice,
}


# --- positions from random play -------------------------------------------------------------------

def random_positions(game_name: str, players: int, seed: int, every: int, copies: bool = True,
                     options: dict[str, Any] | None = None) -> Iterator[State]:
    """Every ``every``-th state of one uniform-random game (the host's timeouts included),
    and its last state; each a copy (``copies=False``: the live state, to read only)."""
    game = get_game(game_name)
    keep = clone if copies else (lambda s: s)
    state = game.setup([f"p{i}" for i in range(players)], seed, options or {})
    rnd = random.Random(seed)
    for step in range(50_000):
        if step % every == 0:
            yield keep(state)
        if game.outcome(state) is not None:
            if step % every:
                yield keep(state)
            return
        waiting = game.waiting_for(state)
        if not waiting:
            deadline = game.deadline(state)
            assert deadline is not None, "a game waits for nobody and times nothing"
            game.apply(state, None, {"type": "timeout", "key": deadline.key})
            continue
        seat = rnd.choice(waiting)
        game.apply(state, seat, rnd.choice(game.legal_actions(state, seat)))
    raise AssertionError(f"{game_name} seed {seed} did not end")


def sampled_positions(game_name: str, players: int, seed: int, count: int) -> list[State]:
    """``count`` positions spread evenly over one uniform-random game, its last one included."""
    states = list(random_positions(game_name, players, seed, 1, copies=False))
    total = len(states)
    # the live state moved on: replay to each chosen step instead of keeping every copy
    wanted = sorted({round(i * (total - 1) / max(count - 1, 1)) for i in range(count)})
    out = []
    for i, state in enumerate(random_positions(game_name, players, seed, 1, copies=False)):
        if i in wanted:
            out.append(clone(state))
    return out


def differences(game_name: str, state: State, seat: int | None, rnd: random.Random,
                tries: int = 3) -> list[str]:
    """For ``tries`` re-deals of ``state`` for ``seat``: a line for each whose view or legal
    actions differ from the real state's (empty: no leak found)."""
    game = get_game(game_name)
    base = packed(game, state, seat)
    found = []
    for _ in range(tries):
        other = REDEALS[game_name](state, seat, rnd)
        if packed(game, other, seat) == base:
            continue
        mine, theirs = game.view(state, seat), game.view(other, seat)
        where = (first_difference(mine, theirs) if msgpack.packb(mine) != msgpack.packb(theirs)
                 else "its legal actions")
        found.append(f"{game_name}: what seat {seat} receives at state {state['version']} "
                     f"changes with hidden information: {where}")
    return found


def first_difference(a: Any, b: Any, path: str = "view") -> str:
    """Where two view trees first differ (for a readable failure)."""
    if type(a) is not type(b):
        return f"{path}: {a!r} != {b!r}"
    if isinstance(a, dict):
        if list(a) != list(b):
            return f"{path} keys: {sorted(set(a) ^ set(b)) or 'order'}"
        for k in a:
            if a[k] != b[k] or type(a[k]) is not type(b[k]):
                return first_difference(a[k], b[k], f"{path}.{k}")
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: length {len(a)} != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y or type(x) is not type(y):
                return first_difference(x, y, f"{path}[{i}]")
    return f"{path}: {a!r} != {b!r}"
