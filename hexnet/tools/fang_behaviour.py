"""Fitting Fang's behaviour model from selfplay: ``python -m hexnet.tools.fang_behaviour``.

Plays games with one policy on every seat, counts how each class of seat (village, witch,
crow, fool: :mod:`hexnet.games.fang.behaviour`) behaved — "yes" on a clean or a dirty circle, a
spoiled ritual card, an abstention, a vote for a witch, being turned into a frog — and with
``--write`` stores the rates (add-one smoothed) in ``seeds/fang_behaviour.toml``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hexnet import seeds
from hexnet.games import get_game
from hexnet.games.fang import data
from hexnet.games.fang.behaviour import CLASSES, CROW, FILE, KEYS, WITCH, class_of
from hexnet.policies import load_policy
from hexnet.tools.fang_balance import bots_for
from hexnet.tools.selfplay import play_game
from hexnet.tools.workers import open_runner


def count_game(record: list[dict[str, Any]], roles: list[str],
               tally: dict[str, dict[str, list[int]]]) -> None:
    """Add one finished game's record (true roles known) to ``tally[class][key] = [hits,
    trials]``; the laid cards come from each member's own entry in ``laid``."""
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
                    where = "in" if v in entry["members"] else "out"
                    add(v, f"yes_{'dirty' if dirty else 'clean'}_{where}", v in entry["yes"])
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


def game_tally(players: int, policy: str, seed: int,
               options: dict[str, Any] | None = None) -> dict[str, dict[str, list[int]]]:
    """One game's behaviour counts (for a worker process: names and a seed in, counts out)."""
    game = get_game("fang")
    policy_fn = load_policy("fang", policy)
    states: list[dict[str, Any]] = []
    play_game(game, [policy_fn] * players, seed, options, keep=states)
    tally = {c: {k: [0, 0] for k in KEYS} for c in CLASSES}
    count_game(with_lays(states[0]), states[0]["roles"], tally)
    return tally


def tasks(n: int, games: int, policy: str, seed: int,
          options: dict[str, Any] | None) -> list[tuple[int, str, int, dict[str, Any] | None]]:
    """The games a fit plays at ``n`` seats, as :func:`game_tally`'s arguments (``hard`` at
    the play-time budget of ``n``)."""
    return [(n, bots_for(policy, n), seed + 1000 * n + g, options) for g in range(games)]


def fit(games: int, players: list[int], policy: str = "normal", seed: int = 1,
        workers: int | None = 1, options: dict[str, Any] | None = None,
        say: Callable[[str], None] = print) -> dict[str, dict[str, float]]:
    """Play ``games`` games at each table size with ``policy`` on every seat and count each
    class's behaviour (add-one smoothed); returns the model as ``behaviour.model`` reads it.
    ``hard`` plays at each table size's play-time budget, as the balance study does."""
    tally = {c: {k: [1, 2] for k in KEYS} for c in CLASSES}
    with open_runner(workers, None, tasks=games) as runner:
        for n in players:
            for one in runner.map(game_tally, tasks(n, games, policy, seed, options)):
                for c in CLASSES:
                    for k in KEYS:
                        tally[c][k][0] += one[c][k][0]
                        tally[c][k][1] += one[c][k][1]
            say(f"fitted on {games} games of {n}")
    return {c: {k: round(h / t, 4) for k, (h, t) in keys.items()} for c, keys in tally.items()}


def write(fitted: dict[str, dict[str, float]], path: Path, note: str) -> None:
    """``seeds/fang_behaviour.toml`` from a fitted model."""
    lines = ["# Fang's behaviour model, fitted from selfplay by hexnet/tools/fang_behaviour.py",
             f"# ({note}).", "# Per class of seat: see hexnet.games.fang.behaviour.model().", ""]
    for c in CLASSES:
        lines.append(f"[{c}]")
        lines += [f"{k} = {fitted[c][k]}" for k in KEYS]
        lines.append("")
    path.write_text("\n".join(lines), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hexnet.tools.fang_behaviour",
                                     description="fit Fang's behaviour model from selfplay")
    parser.add_argument("--games", type=int, default=40, help="games per table size")
    parser.add_argument("--players", default="5,8,12", help="table sizes, comma-separated")
    parser.add_argument("--policy", default="normal",
                        help="the policy on every seat (hard: at its play-time budget)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--write", action="store_true", help="write seeds/fang_behaviour.toml")
    args = parser.parse_args(argv)
    sizes = [int(x) for x in args.players.split(",")]
    fitted = fit(args.games, sizes, args.policy, args.seed, args.workers)
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
