"""The rooms are one-way and no module imports itself through others, checked on the source
(syntax trees; nothing is imported).

The graph: every module of ``hexnet``, ``protocol``, ``host`` and ``client`` is a node, and every
``import x`` / ``from x import y`` in its file is an edge — at the top, inside a function, or under
``if TYPE_CHECKING:`` alike. A function-local import only delays the dependency and a type named in
a signature is one too, so a circle through either is still a circle for a reader (who must read
both modules to understand one). ``from p import m`` is an edge to ``p.m`` when ``m`` is a module,
else to ``p``. The packages above an imported module (whose ``__init__`` Python runs first) are
not edges of their own: a package's edges are its ``__init__``'s imports. A module looked up by a
computed name (``importlib.import_module(f"hexnet.games.{game}")``, the command table of
``hexnet.cli``) is a registry entry, not an edge.

The rooms (ARCHITECTURE.md): ``client → protocol ← host → hexnet``, and ``client → hexnet``.
``hexnet`` is two rooms: the rules core (engines, policies, search, tutorials, records, tournament
rules — what the engines, the host and the client need) and ``hexnet.tools`` (what runs many games
in-process: ladders, selfplay, workers, the search bench), which only the tools and the front door
use. ``hexnet.cli`` is the front door above every room (it composes ``hexnet play`` of a host and a
client); nothing imports it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("hexnet", "protocol", "host", "client")

# room → the rooms its modules may import; a module's room is the longest listed prefix
ROOMS: dict[str, set[str]] = {
    "hexnet": {"hexnet"},  # the rules core: nothing else of ours
    "hexnet.tools": {"hexnet", "hexnet.tools"},
    "protocol": {"protocol", "hexnet"},
    "host": {"host", "protocol", "hexnet"},
    "client": {"client", "protocol", "hexnet"},
    "hexnet.cli": {"hexnet", "hexnet.tools", "hexnet.cli", "protocol", "host", "client"},
}
# (module, module it imports) outside its room's list → why it may
ROOM_EXCEPTIONS = {
    ("host.bench", "hexnet.tools.selfplay"):
        "hexnet bench is itself a tool: it reports in-process selfplay games/s beside the host's",
    ("host.bench", "hexnet.tools.searchbench"):
        "hexnet bench is itself a tool: it reports in-process search playouts/s too",
}
# A circle still being taken apart elsewhere, keyed by exactly its modules → where it goes.
# Strict: once the circle is gone the allowance fails too, so it is not left behind.
KNOWN_CIRCLES: dict[frozenset[str], str] = {}  # none: a circle found is a failure


def find_modules(root: Path, packages: Iterable[str]) -> dict[str, Path]:
    """Every module under ``packages`` (folders of ``root``) by dotted name."""
    found = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _ours(name: str, modules: Mapping[str, Path]) -> str | None:
    """``name`` or the closest package above it that is one of ``modules`` (None: not ours)."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def imports_of(name: str, path: Path, modules: Mapping[str, Path]) -> set[str]:
    """The modules of ``modules`` that module ``name`` imports anywhere in its file."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            targets = [f"{source}.{alias.name}" if f"{source}.{alias.name}" in modules
                       else source for alias in node.names]
        else:
            continue
        out.update(filter(None, (_ours(t, modules) for t in targets)))
    out.discard(name)
    return out


def import_graph(root: Path = ROOT, packages: Iterable[str] = PACKAGES) -> dict[str, set[str]]:
    """Module → the modules it imports (see the module docstring for what counts)."""
    modules = find_modules(root, packages)
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def circles(graph: Mapping[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, todo = work[-1]
            nxt = next(todo, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(frozenset(component))
    return found


def room_of(module: str) -> str:
    """The room of ``module``: the longest prefix of it that :data:`ROOMS` lists."""
    return max((r for r in ROOMS if module == r or module.startswith(r + ".")), key=len)


def wrong_way(graph: Mapping[str, set[str]]) -> list[str]:
    """Every import that leaves its room for one the room may not import."""
    return sorted(f"{m} ({room_of(m)}) imports {t} ({room_of(t)})"
                  for m, targets in graph.items() for t in targets
                  if room_of(t) not in ROOMS[room_of(m)] and (m, t) not in ROOM_EXCEPTIONS)


def _show(circle: frozenset[str], graph: Mapping[str, set[str]]) -> str:
    return "; ".join(f"{m} → {', '.join(sorted(graph[m] & circle))}" for m in sorted(circle))


GRAPH = import_graph()


def test_no_module_imports_itself_through_other_modules():
    found = set(circles(GRAPH))
    new = [_show(c, GRAPH) for c in found - set(KNOWN_CIRCLES)]
    assert not new, "import circles:\n" + "\n".join(new)
    gone = [sorted(c) for c in set(KNOWN_CIRCLES) - found]
    assert not gone, f"these circles are gone: remove their KNOWN_CIRCLES entries: {gone}"


def test_every_import_goes_the_rooms_way():
    assert wrong_way(GRAPH) == []


def test_room_exceptions_are_still_needed():
    stale = [pair for pair in ROOM_EXCEPTIONS if pair[1] not in GRAPH.get(pair[0], set())]
    assert stale == []


def test_the_walker_sees_every_package_of_the_rooms():
    assert {m.partition(".")[0] for m in GRAPH} == set(PACKAGES)
    assert {"hexnet.engine", "protocol.frames", "host.server", "client.session"} <= set(GRAPH)


def _tree(tmp_path: Path, files: Mapping[str, str]) -> dict[str, set[str]]:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return import_graph(tmp_path, ["pkg"])


def test_a_circle_through_a_function_local_import_is_a_circle(tmp_path):
    graph = _tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": "from pkg.b import thing\n",
        "pkg/b.py": "def thing():\n    from pkg import a\n    return a\n",
    })
    assert circles(graph) == [frozenset({"pkg.a", "pkg.b"})]


def test_a_circle_through_a_type_checking_import_is_a_circle(tmp_path):
    graph = _tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                    "    from pkg.b import B\n",
        "pkg/b.py": "from . import a\n",
    })
    assert circles(graph) == [frozenset({"pkg.a", "pkg.b"})]


def test_relative_imports_and_packages_resolve_to_their_modules(tmp_path):
    graph = _tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/sub/__init__.py": "from .leaf import x\n",
        "pkg/sub/leaf.py": "from ..top import y\nimport pkg.sub\n",
        "pkg/top.py": "import json\nfrom pkg import sub\n",
    })
    assert graph == {"pkg": set(), "pkg.sub": {"pkg.sub.leaf"},
                     "pkg.sub.leaf": {"pkg.top", "pkg.sub"}, "pkg.top": {"pkg.sub"}}
    assert circles(graph) == [frozenset({"pkg.sub", "pkg.sub.leaf", "pkg.top"})]
