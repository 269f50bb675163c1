"""The house rules a newcomer can check: the host's core is made of small owners (issue 24)."""

from __future__ import annotations

import ast
from pathlib import Path

HOST = Path(__file__).resolve().parent.parent / "host"
MAX_CLASS_LINES = 300


def classes_over(folder: Path, limit: int) -> list[str]:
    """Every class in ``folder``'s modules longer than ``limit`` lines, as ``file:Class (n)``."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                assert node.end_lineno is not None
                length = node.end_lineno - node.lineno + 1
                if length > limit:
                    found.append(f"{path.relative_to(folder.parent)}:{node.name} ({length})")
    return found


def test_no_class_in_host_is_over_300_lines() -> None:
    assert classes_over(HOST, MAX_CLASS_LINES) == []
