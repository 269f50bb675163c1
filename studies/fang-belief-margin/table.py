"""The belief-margin tables of ``results.jsonl``, one per floor, as Markdown:

    python studies/fang-belief-margin/table.py studies/fang-belief-margin/results.jsonl

Rows of one cell (floor, players, bots) from several runs (other seeds) are summed."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from hexnet.tools.fang_balance import wilson

KEYS = ("games", "village", "witches", "fool")
PAIRS = (("normal", "normal-witches"), ("normal-village", "heuristic"))  # (with, without)


def cells(path: Path) -> dict[tuple[float, int, str], dict[str, int]]:
    """Each (floor, players, bots) cell's wins, summed over its runs."""
    out: dict[tuple[float, int, str], dict[str, int]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        cell = out.setdefault((row["floor"], row["players"], row["bots"]), dict.fromkeys(KEYS, 0))
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


def tables(found: dict[tuple[float, int, str], dict[str, int]]) -> list[str]:
    # the heuristic on both sides reads no belief: its cells stand for every floor
    plain = {n: c for (_, n, bots), c in found.items() if bots == "heuristic"}
    lines: list[str] = []
    for floor in sorted({f for f, _, _ in found}):
        lines += [f"\nfloor {floor}\n",
                  "| players | with vs normal witches | without | | "
                  "with vs heuristic witches | without | |",
                  "|---|---|---|---|---|---|---|"]
        for n in sorted({p for f, p, _ in found if f == floor}):
            row: list[Any] = [n]
            for with_name, without_name in PAIRS:
                with_ = found.get((floor, n, with_name))
                without = (plain.get(n) if without_name == "heuristic"
                           else found.get((floor, n, without_name)))
                row += ([share(with_), share(without), verdict(with_, without)]
                        if with_ and without else ["—", "—", ""])
            lines.append("| " + " | ".join(str(x) for x in row) + " |")
    return lines


if __name__ == "__main__":
    print("\n".join(tables(cells(Path(sys.argv[1])))))
