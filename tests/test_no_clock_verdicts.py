"""No clock in a verdict: a slow or loaded machine may make a test wait longer, never change its
answer. Checked on the tests' own source (their syntax trees), so a new test that breaks the rule
fails here at once instead of flaking one CI run in twenty:

- **no sleep as synchronisation:** ``time.sleep``/``asyncio.sleep`` only inside a loop (polling
  a condition until a deadline, as ``tests/waiting.py`` does, or pacing what a loop sends);
- **no speed limit in a test:** no ``assert`` on a duration (the difference of two clock
  readings, or a name holding one); speed is the benchmarks' business (``hexnet bench``).

The few places where time passing *is* what a test is about are listed below with the reason:
a new one is a conscious change, like a new key in a pinned view schema."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
CLOCKS = {"monotonic", "monotonic_ns", "perf_counter", "perf_counter_ns", "time", "time_ns"}

# (file, function): why a sleep outside a loop is right there
TIME_MUST_PASS = {
    ("e2e/test_recovery_gaps.py", "test_a_timer_resumes_with_the_time_it_had_left"):
        "the host stays down while a turn's clock runs on; what is checked is the time left",
}
# (file, function): why an assert on a duration cannot be decided by the machine's speed
DURATION_ASSERTS = {
    ("hexnet/test_search.py", "test_a_timed_decision_takes_its_whole_think_time_even_when_forced"):
        "a lower bound (it thinks at least 0.2 s): a slow machine only adds time",
    ("e2e/test_recovery_gaps.py", "test_a_timer_resumes_with_the_time_it_had_left"):
        "the bounds are clock readings taken on both sides of the value: no margin to exceed",
}


def _is_clock(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    return name in CLOCKS and not node.args


def _uses(node: ast.AST, names: set[str]) -> bool:
    return any(_is_clock(n) or (isinstance(n, ast.Name) and n.id in names)
               for n in ast.walk(node))


def _is_duration(node: ast.AST, instants: set[str], durations: set[str]) -> bool:
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and n.id in durations:
            return True
        if (isinstance(n, ast.BinOp) and isinstance(n.op, ast.Sub)
                and _uses(n.left, instants) and _uses(n.right, instants)):
            return True
    return False


def _targets(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Assign):
        return [t.id for t in node.targets if isinstance(t, ast.Name)]
    if isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.NamedExpr)):
        return [node.target.id] if isinstance(node.target, ast.Name) else []
    return []


def _in_loop(node: ast.AST, parents: dict[ast.AST, ast.AST], top: ast.AST) -> bool:
    while node is not top and node in parents:
        node = parents[node]
        if isinstance(node, (ast.While, ast.For, ast.AsyncFor)):
            return True
    return False


def problems_in(source: str, where: str) -> list[str]:
    """Every sleep outside a loop and every assert on a duration in ``source``, by function
    (file name ``where`` for the messages and the lists above)."""
    tree = ast.parse(source)
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    found = []
    for func in ast.walk(tree):
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        instants: set[str] = set()
        durations: set[str] = set()
        for node in ast.walk(func):
            value = getattr(node, "value", None)
            if value is not None and _targets(node):
                if _is_duration(value, instants, durations):
                    durations.update(_targets(node))
                elif _uses(value, instants):
                    instants.update(_targets(node))
        for node in ast.walk(func):
            key = (where, func.name)
            if (isinstance(node, ast.Call) and isinstance(node.func, (ast.Attribute, ast.Name))
                    and (getattr(node.func, "attr", None) or getattr(node.func, "id", None))
                    == "sleep" and not _in_loop(node, parents, func)
                    and key not in TIME_MUST_PASS):
                found.append(f"{where}:{node.lineno} {func.name}: a sleep outside a loop "
                             "(poll a condition until a deadline: tests/waiting.py)")
            if (isinstance(node, ast.Assert) and _is_duration(node.test, instants, durations)
                    and key not in DURATION_ASSERTS):
                found.append(f"{where}:{node.lineno} {func.name}: an assert on a duration "
                             "(speed limits belong in the bench)")
    return found


def test_no_test_sleeps_to_synchronise_or_asserts_a_duration() -> None:
    found = []
    for path in sorted(TESTS.rglob("*.py")):
        if path.name != Path(__file__).name:
            found += problems_in(path.read_text(), str(path.relative_to(TESTS)))
    assert found == [], "\n".join(found)


def test_the_listed_exceptions_still_exist() -> None:
    """An exception whose test was renamed or removed goes from the lists too."""
    for where, name in {**TIME_MUST_PASS, **DURATION_ASSERTS}:
        tree = ast.parse((TESTS / where).read_text())
        assert name in {f.name for f in ast.walk(tree)
                        if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))}, (where, name)


SLEEPS_TO_SYNC = '''
import asyncio, time

async def test_waits_for_the_host(host):
    await host.start()
    await asyncio.sleep(0.5)
    assert host.ready

def test_fast_enough():
    started = time.monotonic()
    run()
    elapsed = time.monotonic() - started
    assert elapsed < 2

def test_fast_enough_inline(loop):
    t0 = loop.time()
    run()
    assert loop.time() - t0 <= 1.5
'''

POLLS_AND_PACES = '''
import asyncio, time

async def eventually(check, seconds):
    end = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < end, "not in time"
        await asyncio.sleep(0.02)

async def test_paced(s):
    for i in range(30):
        await s.send(i)
        await asyncio.sleep(0.03)

def test_until(tmux):
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        time.sleep(0.2)
'''


def test_the_check_finds_a_sleep_to_synchronise_and_a_speed_limit() -> None:
    assert [p.split(" ", 1)[0] for p in problems_in(SLEEPS_TO_SYNC, "t.py")] == [
        "t.py:6", "t.py:13", "t.py:18"]


def test_the_check_lets_polls_and_pacing_loops_be() -> None:
    assert problems_in(POLLS_AND_PACES, "t.py") == []
