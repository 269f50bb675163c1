"""The belief-margin tables of ``results.jsonl``, one per floor and heuristic, as Markdown:

    python studies/fang-belief-margin/table.py studies/fang-belief-margin/results.jsonl

A row's ``vote`` names the plain heuristic's banishment vote it was played with: ``any-day``
(the members of the last proposal, after the last ritual failed, whatever day that was; up to
stop 45) or ``today`` (the circle of today's ritual, if it failed); its ``table`` the default
(``balanced``) role table it was played under, named by the commit that set it (absent: stop
45's). Rows of one cell (floor, vote, table, players, bots) from several runs (other seeds) are
summed."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from hexnet.tools.fang_balance import wilson

KEYS = ("games", "village", "witches", "fool")
PAIRS = (("normal", "normal-witches"), ("normal-village", "heuristic"))  # (with, without)


Key = tuple[float, str, str, int, str]  # floor, vote, table, players, bots
STOP_45 = "stop 45"  # the table of the rows that name none


def cells(path: Path) -> dict[Key, dict[str, int]]:
    """Each (floor, vote, table, players, bots) cell's wins, summed over its runs."""
    out: dict[Key, dict[str, int]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        key = (row["floor"], row["vote"], row.get("table", STOP_45), row["players"], row["bots"])
        cell = out.setdefault(key, dict.fromkeys(KEYS, 0))
        for key in KEYS:
            cell[key] += row[key]
    return out


def share(cell: dict[str, int]) -> str:
    low, high = wilson(cell["village"], cell["games"])
    return f"{100 * cell['village'] / cell['games']:.1f}% ({100 * low:.1f}–{100 * high:.1f})"


def verdict(with_: dict[str, int], without: dict[str, int]) -> str:
    """"better" / "worse" when the two intervals do not touch, else "overlap"."""
    a = wilson(with_["village"], with_["games"])
    b = wilson(without["village"], without["games"])
    return "better" if a[0] > b[1] else "worse" if a[1] < b[0] else "overlap"


def tables(found: dict[Key, dict[str, int]]) -> list[str]:
    # the heuristic on both sides reads no belief: its cells stand for every floor
    plain = {(v, t, n): c for (_, v, t, n, bots), c in found.items() if bots == "heuristic"}
    lines: list[str] = []
    for floor, vote, table in sorted({(f, v, t) for f, v, t, _, _ in found}):
        lines += [f"\nfloor {floor}, the heuristic's vote: {vote}, the role table of {table}\n",
                  "| players | with vs normal witches | without | | "
                  "with vs heuristic witches | without | |",
                  "|---|---|---|---|---|---|---|"]
        for n in sorted({p for f, v, t, p, _ in found if (f, v, t) == (floor, vote, table)}):
            row: list[Any] = [n]
            for with_name, without_name in PAIRS:
                with_ = found.get((floor, vote, table, n, with_name))
                without = (plain.get((vote, table, n)) if without_name == "heuristic"
                           else found.get((floor, vote, table, n, without_name)))
                row += ([share(with_), share(without), verdict(with_, without)]
                        if with_ and without else ["—", "—", ""])
            lines.append("| " + " | ".join(str(x) for x in row) + " |")
    return lines


if __name__ == "__main__":
    print("\n".join(tables(cells(Path(sys.argv[1])))))
