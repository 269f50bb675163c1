"""CI is as strict as a newcomer's machine: a test that needs a program fails under ``CI=1``
when the program is missing (instead of being skipped unseen), is skipped loudly elsewhere, and
``.ci/run`` installs every program any test declares it needs."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import loop_of

ROOT = Path(__file__).resolve().parent.parent
NEEDS_A_GHOST = '''
import pytest

@pytest.mark.needs("hexnet-no-such-program")
def test_drives_a_program():
    pass
'''


DERANDOMIZED = '''
from hypothesis import settings

def test_the_examples_are_the_same_every_run():
    assert settings.default.derandomize
'''

A_PIN_KEPT = '''
import os
from pathlib import Path

def test_a_client_pins_a_host_key():
    folder = Path(os.environ["XDG_CONFIG_HOME"]) / "hexnet"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "known_hosts").write_text("127.0.0.1:40000 " + "ab" * 32 + "\\n")

def test_the_next_test_starts_without_that_pin():
    assert not (Path(os.environ["XDG_CONFIG_HOME"]) / "hexnet" / "known_hosts").exists()
'''


def inner_env(*leave_out: str) -> dict[str, str]:
    """The environment for a pytest run inside this one: without what the outer run set for
    itself (its xdist worker's name, PYTEST_ADDOPTS), nor ``leave_out``."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTEST_ADDOPTS", *leave_out)
            and not k.startswith("PYTEST_XDIST_")}


def run_pytest(tmp_path: Path, ci: bool, text: str = NEEDS_A_GHOST
               ) -> subprocess.CompletedProcess[str]:
    (tmp_path / "test_ghost.py").write_text(text)
    env = inner_env("CI")
    if ci:
        env["CI"] = "1"
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", "-p",
         "tests.conftest", "--rootdir", str(tmp_path), str(tmp_path / "test_ghost.py")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False)


def test_a_missing_program_fails_a_test_under_ci(tmp_path: Path) -> None:
    run = run_pytest(tmp_path, ci=True)
    assert run.returncode == 1, run.stdout
    assert "1 error" in run.stdout  # (failed in setup: an error, and CI goes red)
    assert ("CI is set and hexnet-no-such-program is not installed: .ci/run must install it"
            in run.stdout)


def test_a_missing_program_skips_a_test_loudly_outside_ci(tmp_path: Path) -> None:
    run = run_pytest(tmp_path, ci=False)
    assert run.returncode == 0, run.stdout
    assert "1 skipped" in run.stdout
    assert "needs hexnet-no-such-program, not installed here (CI installs it)" in run.stdout


def test_under_ci_hypothesis_runs_the_same_examples_every_time(tmp_path: Path) -> None:
    """CI=1 (exported by .ci/run) loads the derandomized profile: a red CI is reproducible."""
    ci = run_pytest(tmp_path, ci=True, text=DERANDOMIZED)
    assert ci.returncode == 0, ci.stdout
    local = run_pytest(tmp_path, ci=False, text=DERANDOMIZED)  # (a developer's run explores)
    assert local.returncode == 1 and "1 failed" in local.stdout, local.stdout


def test_a_test_never_finds_what_another_kept_in_its_config_dir(tmp_path: Path) -> None:
    """Each test has its own XDG dirs: a host key pinned for 127.0.0.1:PORT in one test would
    make the next test's host on that port (the system hands ports out again) an impostor."""
    run = run_pytest(tmp_path, ci=False, text=A_PIN_KEPT)
    assert run.returncode == 0 and "2 passed" in run.stdout, run.stdout


def test_ci_installs_every_program_a_test_needs() -> None:
    script = (ROOT / ".ci" / "run").read_text()
    tools = re.search(r"^TOOLS=\((.*)\)$", script, re.M)
    assert tools, "no TOOLS=(command:package …) line in .ci/run"
    installed = {pair.split(":")[0] for pair in tools.group(1).split()}
    needed = set()
    for path in (ROOT / "tests").rglob("*.py"):
        for args in re.findall(r"mark\.needs\(([^)]*)\)", path.read_text()):
            needed |= set(re.findall(r'"([^"]+)"', args))
    needed.discard("hexnet-no-such-program")  # this file's own example
    assert needed and needed <= installed, sorted(needed - installed)
    assert {"tmux", "chromium", "ssh", "ssh-keygen", "zbarimg"} <= installed
    assert "export CI=1" in script


def skips_on_a_missing_program(source: str) -> list[int]:
    """Lines of ``source`` whose ``skipif`` asks whether a program is installed (``which``):
    such a test skips quietly, even under CI=1; ``@pytest.mark.needs`` is the way."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "skipif"):
            inner = [n for arg in node.args for n in ast.walk(arg)]
            if any((isinstance(n, ast.Attribute) and n.attr == "which")
                   or (isinstance(n, ast.Constant) and n.value == "which") for n in inner):
                found.append(node.lineno)
    return found


def test_no_test_skips_quietly_when_a_program_is_missing() -> None:
    found = [f"{path.relative_to(ROOT)}:{line}" for path in sorted((ROOT / "tests").rglob("*.py"))
             for line in skips_on_a_missing_program(path.read_text())]
    assert found == [], f"use @pytest.mark.needs(...) instead of skipif: {found}"
    assert skips_on_a_missing_program(
        'import pytest, shutil\n@pytest.mark.skipif(shutil.which("tmux") is None, reason="")\n'
        'def test_x(): pass\n') == [2]


def test_ci_runs_the_readmes_test_command_exactly() -> None:
    script = (ROOT / ".ci" / "run").read_text()
    readme = (ROOT / "README.md").read_text().splitlines()
    command = readme[readme.index("Run the tests:") + 2].strip()
    program = re.search(r"test_command=\$\(awk '([^']+)' README.md\)", script)
    assert program, "no test_command=$(awk '…' README.md) line in .ci/run"
    found = subprocess.run(["awk", program.group(1), "README.md"], cwd=ROOT,
                           capture_output=True, text=True, timeout=10, check=True)
    assert found.stdout.strip() == command  # what .ci/run reads is the README's line
    assert "-e '.[test,fast]'" in command and command.endswith("-m pytest -q")
    assert re.search(r'^eval "\$test_command"', script, re.M)


def collected(*args: str, loop: str | None = None) -> list[str]:
    """The node ids ``pytest --collect-only`` lists in this checkout (one process)."""
    env = inner_env("HEXNET_LOOP")
    if loop:
        env["HEXNET_LOOP"] = loop
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n0", "-p", "no:cacheprovider",
                          "--collect-only", *args], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=120, check=True)
    return [line for line in run.stdout.splitlines() if "::" in line]


def test_the_readmes_run_puts_each_network_test_on_one_loop_and_the_transports_on_both() -> None:
    """The async tests under tests/e2e and tests/host: the transport's own (``both_loops``) on
    asyncio's loop and on uvloop's, every other on one of them — both loops taken, each test
    once; a slow one, one that drives a browser, one that needs asyncio's own transport, and a
    client test once, on no named loop."""
    pytest.importorskip("uvloop")
    ids = collected("tests/e2e/test_limits.py", "tests/e2e/test_fang_network.py",
                    "tests/e2e/test_web_tls.py", "tests/client/test_lobby.py",
                    "tests/e2e/test_flood_budget.py")
    flood = "tests/e2e/test_limits.py::test_a_message_flood_is_answered_rate_limited_then_closed"
    assert f"{flood}[asyncio]" in ids and f"{flood}[uvloop]" in ids
    budget = [i for i in ids if i.startswith("tests/e2e/test_flood_budget.py")]
    names = {i.split("[")[0] for i in budget}
    assert len(budget) == len({i.replace("[uvloop-", "[").replace("[asyncio-", "[")
                               .replace("[uvloop]", "").replace("[asyncio]", "")
                               for i in budget}), "a network test ran twice"
    assert len(names) == 2 and len(budget) > len(names)
    single = collected("tests/e2e/test_watchers_network.py", "tests/e2e/test_presence.py")
    assert {loop_of(i) for i in single} == {"uvloop", "asyncio"}  # both loops get tests
    once = ["tests/e2e/test_fang_network.py::test_twelve_seat_fang_with_short_timers_and_a_"
            "client_gone_plays_to_the_end",  # slow
            "tests/e2e/test_web_tls.py::test_an_eavesdropper_on_a_browser_guest_reads_only_tls_"
            "records",  # needs chromium
            "tests/e2e/test_limits.py::test_unauthenticated_connections_are_capped_per_address_"
            "and_in_total",  # asyncio's transport only
            "tests/client/test_lobby.py::test_losing_the_host_is_shown_and_the_client_reconnects_"
            "by_itself"]
    assert [i for i in once if i in ids] == once
    assert not any("[uvloop]" in i or "[asyncio]" in i for i in ids
                   if not i.startswith("tests/e2e/"))
    one_loop = collected("tests/e2e/test_limits.py", loop="asyncio")
    assert not any("[uvloop]" in i or "[asyncio]" in i for i in one_loop)
    assert len(one_loop) == len([i for i in ids if i.startswith("tests/e2e/test_limits.py")
                                 and "[uvloop]" not in i])


def run_ci_with(tmp_path: Path, programs: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``.ci/run`` with only ``programs`` on PATH (name → a real program's path, or a shell
    script's text): the script's own refusals run for real, before it installs or tests."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, what in programs.items():
        if what.startswith("#!"):
            (bin_dir / name).write_text(what)
            (bin_dir / name).chmod(0o755)
        else:
            (bin_dir / name).symlink_to(what)
    env = {"PATH": str(bin_dir), "HOME": str(tmp_path)}
    return subprocess.run(["/bin/bash", str(ROOT / ".ci" / "run")], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60, check=False)


def test_ci_exports_ci_on_a_line_of_its_own() -> None:
    script = (ROOT / ".ci" / "run").read_text()
    assert re.search(r"^export CI=1\b", script, re.M), "CI=1 is not exported (commented out?)"


def test_ci_refuses_a_python_older_than_3_11(tmp_path: Path) -> None:
    run = run_ci_with(tmp_path, {"dirname": "/usr/bin/dirname",
                                 "python3": "#!/bin/sh\necho 'Python 3.10.12'\nexit 1\n"})
    assert run.returncode == 1
    assert "ci: hexnet needs Python 3.11 or newer; python3 here is Python 3.10.12" in run.stderr


def test_ci_fails_when_a_program_the_tests_drive_cannot_be_installed(tmp_path: Path) -> None:
    run = run_ci_with(tmp_path, {"dirname": "/usr/bin/dirname", "python3": sys.executable,
                                 "apt-get": "#!/bin/sh\nexit 100\n"})
    assert run.returncode == 1
    assert "ci: could not install tmux chromium openssh-client openssh-client zbar-tools" in (
        run.stderr)
