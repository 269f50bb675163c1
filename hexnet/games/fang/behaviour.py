"""How each kind of seat behaves, as the belief reads it: the behaviour model of Fang's roles.

The belief (:mod:`hexnet.games.fang.belief`) weighs every role assignment by how likely the
public record is under it: a "yes" on a circle, a ritual that failed, a vote, a frog. Those
likelihoods are per *class* of seat — village (every village role), witch, crow, fool — and are
fitted from selfplay (:func:`fit`, ``python -m hexnet.games.fang.behaviour``) into
``seeds/fang_behaviour.toml``; clipped away from 0 and 1 so that a seat playing unlike the
bots (a person) bends the belief instead of breaking it.
"""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hexnet import seeds

VILLAGE, WITCH, CROW, FOOL = 0, 1, 2, 3
CLASSES = ("village", "witch", "crow", "fool")
FLOOR = 0.02  # no behaviour is certain
FILE = "fang_behaviour"


def clip(p: float) -> float:
    """``p`` kept inside [FLOOR, 1 − FLOOR]."""
    return min(1.0 - FLOOR, max(FLOOR, p))


@functools.cache
def model() -> dict[str, Any]:
    """The fitted model: for each class, ``yes_clean`` / ``yes_dirty`` (a "yes" on a circle
    without / with a witch or the crow in it), ``spoils`` (a ritual member whose card fails
    it), ``abstains`` and ``votes_witch`` (a banishment vote: abstained; else, for a witch),
    ``turned`` (made a frog on a given day)."""
    raw = seeds.table(FILE)
    return {name: {k: clip(float(v)) for k, v in raw[name].items()} for name in CLASSES}


def table(key: str) -> list[float]:
    """One behaviour by class index (village, witch, crow, fool)."""
    m = model()
    return [m[name][key] for name in CLASSES]


# --- fitting from selfplay ----------------------------------------------------------------

KEYS = ("yes_clean", "yes_dirty", "spoils", "abstains", "votes_witch", "turned")


def count_game(record: list[dict[str, Any]], roles: list[str],
               tally: dict[str, dict[str, list[int]]]) -> None:
    """Add one finished game's record (true roles known) to ``tally[class][key] = [hits,
    trials]``; the laid cards come from each member's own entry in ``lays``."""
    from hexnet.games.fang import data

    cls = [class_of(r) for r in roles]

    def add(seat: int, key: str, hit: bool) -> None:
        cell = tally[CLASSES[cls[seat]]][key]
        cell[0] += hit
        cell[1] += 1

    forms = ["cat"] * len(roles)
    for entry in record:
        kind = entry["k"]
        if kind == "proposal":
            dirty = any(cls[m] in (WITCH, CROW) for m in entry["members"])
            for v in entry["yes"] + entry["no"]:
                if v != entry["chief"]:
                    add(v, "yes_dirty" if dirty else "yes_clean", v in entry["yes"])
        elif kind == "ritual" and "laid" in entry:
            for seat, ingredient in entry["laid"]:
                add(seat, "spoils", ingredient not in entry["required"] or ingredient == (
                    data.fluchkraut()))
        elif kind == "vote":
            for voter, target in entry["votes"]:
                add(voter, "abstains", target is None)
                if target is not None:
                    add(voter, "votes_witch", cls[target] == WITCH)
            if entry["banished"] is not None:
                forms[entry["banished"]] = "banished"
        elif kind == "evening":
            for s in range(len(roles)):
                if forms[s] == "cat":
                    add(s, "turned", s in entry["frogs"])
            for s in entry["frogs"]:
                forms[s] = "frog"
            for s in entry["restored"]:
                forms[s] = "cat"


def class_of(role: str) -> int:
    """The behaviour class of a role."""
    from hexnet.games.fang import data

    return {data.WITCH: WITCH, data.CROW: CROW, data.FOOL_ROLE: FOOL}.get(role, VILLAGE)


def fit(games: int, players: list[int], policy: str = "normal", seed: int = 1,
        say: Callable[[str], None] = print) -> dict[str, dict[str, float]]:
    """Play ``games`` games at each table size with ``policy`` on every seat and count each
    class's behaviour (add-one smoothed); returns the model as :func:`model` reads it."""
    from hexnet.games import get_game, get_policy
    from hexnet.selfplay import play_game

    game = get_game("fang")
    policy_fn = get_policy("fang", policy)
    tally = {c: {k: [1, 2] for k in KEYS} for c in CLASSES}
    for n in players:
        for g in range(games):
            states: list[dict[str, Any]] = []
            play_game(game, [policy_fn] * n, seed + 1000 * n + g, keep=states)
            state = states[0]
            record = with_lays(state)
            count_game(record, state["roles"], tally)
        say(f"fitted on {games} games of {n}")
    return {c: {k: round(h / t, 4) for k, (h, t) in keys.items()} for c, keys in tally.items()}


def with_lays(state: dict[str, Any]) -> list[dict[str, Any]]:
    """The state's record with each ritual's laid cards added (from the seats' own lays)."""
    lays = state.get("lays") or []
    out = []
    for entry in state["record"]:
        if entry["k"] == "ritual":
            laid = [[s, ing] for s in entry["members"] for day, ing in lays[s]
                    if day == entry["day"]]
            entry = {**entry, "laid": laid}
        out.append(entry)
    return out


def write(fitted: dict[str, dict[str, float]], path: Path, note: str) -> None:
    """``seeds/fang_behaviour.toml`` from a fitted model."""
    lines = ["# Fang's behaviour model, fitted from selfplay by hexnet/games/fang/behaviour.py",
             f"# ({note}). Per class of seat: see behaviour.model().", ""]
    for c in CLASSES:
        lines.append(f"[{c}]")
        lines += [f"{k} = {fitted[c][k]}" for k in KEYS]
        lines.append("")
    path.write_text("\n".join(lines), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hexnet.games.fang.behaviour",
                                     description="fit Fang's behaviour model from selfplay")
    parser.add_argument("--games", type=int, default=40, help="games per table size")
    parser.add_argument("--players", default="5,8,12", help="table sizes, comma-separated")
    parser.add_argument("--policy", default="normal")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--write", action="store_true", help="write seeds/fang_behaviour.toml")
    args = parser.parse_args(argv)
    sizes = [int(x) for x in args.players.split(",")]
    fitted = fit(args.games, sizes, args.policy, args.seed)
    for c in CLASSES:
        print(c, fitted[c])
    if args.write:
        path = Path(seeds.__file__).resolve().parent.parent / "seeds" / f"{FILE}.toml"
        write(fitted, path, f"--games {args.games} --players {args.players} --policy "
                            f"{args.policy} --seed {args.seed}")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
