"""Suite-wide settings: the Hypothesis profile of CI, English for every test, and programs the
tests drive.

``@pytest.mark.needs("tmux")`` marks a test that drives an outside program. Without it the test
is skipped, saying so in the summary (``-rs``) — except under ``CI=1`` (``.ci/run`` exports it),
where a missing program is a failure: CI installs every one, so a skip there would hide that
the install broke.

The suite runs in parallel (pytest-xdist, ``-n auto`` in pyproject's ``addopts``; ``-n0`` runs
in one process). What makes that safe and quick is here:

- every test has its own ``XDG_CONFIG_HOME``/``XDG_DATA_HOME`` (no test reads or writes the
  files of the person running the suite, another worker's or another test's: a host key one
  test's client pinned for ``127.0.0.1:PORT`` would make the next host on that port — a port
  the system hands out again — an impostor to the next test's client);
- ``@pytest.mark.mdns`` marks a test that announces or browses mDNS on 127.0.0.1, which every
  process on the machine hears: such tests share the air with each other, and one marked
  ``mdns("alone")`` (it expects to hear only its own host, or none) waits until it has it alone
  — across workers and across suites run at the same time;
- the network tests (async tests under ``tests/e2e`` and ``tests/host``, leaving out the slow,
  the ``needs`` and the ``one_loop`` ones) run on uvloop's loop (the host's when installed) or
  asyncio's, half on each; the transport's own (``both_loops``) on both, in the same run;
- the long tests (``slow``, ``needs``) are handed out first, so the run does not end waiting on
  one of them.
"""

import asyncio
import fcntl
import os
import shutil
import sys
import tempfile
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from hexnet import i18n
from tests.pace import SECRET_EVERY

TESTS = Path(__file__).resolve().parent

# Python's bytecode caches (``__pycache__``, ignored by git) are kept for the suite's processes
# even where the environment says not to write them (``PYTHONDONTWRITEBYTECODE``, set on some
# machines): otherwise every worker and every program the tests start (hosts, ``hexnet play`` in
# tmux, bots) compiles every module again — a worker's collection 10 s instead of 5.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

# CI runs the same examples every time (a red CI must be reproducible); a developer's run keeps
# exploring new ones.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture(autouse=True)
def english_reader(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every test reads English unless it asks for another language: the locale of the machine
    running the suite must not change what the client and the commands print."""
    for var in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    i18n.set_language("en")
    yield
    i18n.set_language("en")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "needs(*programs): drives these programs; skipped without them, failed "
                   "without them under CI=1")
    config.addinivalue_line(
        "markers", "mdns: announces or browses mDNS on 127.0.0.1; mdns(\"alone\"): with no "
                   "other such test running on the machine meanwhile")
    config.addinivalue_line(
        "markers", "one_loop(why): an async test that runs on asyncio's loop only, whatever "
                   "HEXNET_LOOP says")
    config.addinivalue_line(
        "markers", "both_loops: a network test of the transport itself, run on asyncio's loop "
                   "and on uvloop's (any other network test runs on one of them)")
    if os.environ.get("CI") and os.environ.get("HEXNET_LOOP") != "asyncio":
        try:
            import uvloop  # noqa: F401
        except ImportError:
            raise pytest.UsageError(
                "CI is set and uvloop is not installed: the network tests would run on asyncio's "
                "loop only (install '.[test,fast]')") from None


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: five workers for every two CPUs. Most tests wait (sockets, subprocesses,
    tmux, Chromium, timers) rather than compute, so more workers than cores keeps them busy
    (measured on 2 cores, the suite's pytest time: 4 workers 514 s and 588 s, 5 workers 490 s;
    the whole run used 66 % of the two cores with 4). ``PYTEST_XDIST_AUTO_NUM_WORKERS``
    overrides it, as in pytest-xdist."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return int(os.environ["PYTEST_XDIST_AUTO_NUM_WORKERS"])
    return max(1, len(os.sched_getaffinity(0)) * 5 // 2)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The long tests (``slow``, ``needs``) first and the engines' and the protocol's short
    in-process tests last, otherwise in the order of the files (a stable sort): with tests
    handed out one at a time (``--maxschedchunk 1``) the workers end together instead of one
    of them finishing a long test alone."""
    def rank(item: pytest.Item) -> int:
        if item.get_closest_marker("slow") or item.get_closest_marker("needs"):
            return 0
        return 2 if any(Path(item.path).is_relative_to(TESTS / room)
                        for room in ("hexnet", "protocol")) else 1

    items.sort(key=rank)


@pytest.fixture(autouse=True)
def quick_secret_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hosts made in a test tick their secret steps every :data:`tests.pace.SECRET_EVERY`
    (unless the test names a cadence)."""
    import host.server

    monkeypatch.setattr(host.server, "SECRET_EVERY", SECRET_EVERY)


@pytest.fixture(scope="session", autouse=True)
def own_config_and_data_dirs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """This worker's own ``$XDG_CONFIG_HOME`` and ``$XDG_DATA_HOME`` for everything that does
    not name its directories (keys pinned by a client, a command run without ``--config-dir``)
    in the session and module fixtures; each test has its own (below)."""
    base = tmp_path_factory.mktemp("xdg")
    saved = {var: os.environ.get(var) for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME")}
    os.environ["XDG_CONFIG_HOME"] = str(base / "config")
    os.environ["XDG_DATA_HOME"] = str(base / "data")
    yield
    for var, value in saved.items():
        if value is None:
            os.environ.pop(var, None)
        else:
            os.environ[var] = value


@pytest.fixture(autouse=True)
def own_config_and_data_dirs_per_test(own_config_and_data_dirs: None,
                                      tmp_path_factory: pytest.TempPathFactory,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """This test's own ``$XDG_CONFIG_HOME`` and ``$XDG_DATA_HOME`` (the worker's stay for the
    module and session fixtures): what a test's clients keep — the host keys they pinned, by
    address and port — is never there for the next test, whose host may get the same port with
    a key of its own."""
    base = tmp_path_factory.mktemp("xdg")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(base / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(base / "data"))


MDNS_AIR = Path(tempfile.gettempdir()) / "hexnet-tests-mdns.lock"


@pytest.fixture(autouse=True)
def mdns_air(request: pytest.FixtureRequest) -> Iterator[None]:
    """``@pytest.mark.mdns``: a shared hold on the machine's mDNS air (127.0.0.1); with
    ``"alone"``, an exclusive one. (Autouse: taken before the test's hosts start.)"""
    mark = request.node.get_closest_marker("mdns")
    if mark is None:
        yield
        return
    with open(MDNS_AIR, "a") as air:
        fcntl.flock(air, fcntl.LOCK_EX if "alone" in mark.args else fcntl.LOCK_SH)
        try:
            yield
        finally:
            fcntl.flock(air, fcntl.LOCK_UN)


def pytest_runtest_setup(item: pytest.Item) -> None:
    for mark in item.iter_markers("needs"):
        missing = [tool for tool in mark.args if shutil.which(tool) is None]
        if not missing:
            continue
        if os.environ.get("CI"):
            pytest.fail(f"CI is set and {', '.join(missing)} is not installed: .ci/run must "
                        "install it (a skipped test would pass unseen)", pytrace=False)
        pytest.skip(f"needs {', '.join(missing)}, not installed here (CI installs it)")


def is_network_test(item: pytest.Item) -> bool:
    """A network test (async, under tests/e2e or tests/host, neither slow nor driving another
    program): it may run on uvloop as well as on asyncio's loop."""
    return (any(Path(item.path).is_relative_to(TESTS / room) for room in ("e2e", "host"))
            and not item.get_closest_marker("slow") and not item.get_closest_marker("needs"))


def loop_of(nodeid: str) -> str:
    """The one loop a network test not marked ``both_loops`` runs on: half of them (by a hash
    of the test's name, the same in every run) on uvloop's, half on asyncio's — so the suite
    drives the host on both loops without running each test twice."""
    name = nodeid.split("[")[0]
    return "uvloop" if zlib.crc32(name.encode()) % 2 else "asyncio"


def pytest_asyncio_loop_factories(config: pytest.Config,
                                  item: pytest.Item) -> dict[str, Callable[[], object]]:
    """The loops an async test runs on: ``one_loop`` marks one that runs on asyncio's only;
    ``HEXNET_LOOP=asyncio`` or ``uvloop`` puts every other test on that one; otherwise, with
    uvloop installed (the ``fast`` extra), a network test (:func:`is_network_test`) marked
    ``both_loops`` (the transport's own tests: TLS, limits, slow readers, refusals) runs on
    both, any other on the loop :func:`loop_of` picks; every other test on asyncio's."""
    loops: dict[str, Callable[[], object]] = {"asyncio": asyncio.new_event_loop}
    if item.get_closest_marker("one_loop"):
        return loops
    choice = os.environ.get("HEXNET_LOOP")
    if choice == "uvloop":
        import uvloop

        return {"uvloop": uvloop.new_event_loop}
    if choice == "asyncio" or not is_network_test(item):
        return loops
    try:
        import uvloop
    except ImportError:
        return loops
    if item.get_closest_marker("both_loops"):
        return {"asyncio": asyncio.new_event_loop, "uvloop": uvloop.new_event_loop}
    if loop_of(item.nodeid) == "uvloop":
        return {"uvloop": uvloop.new_event_loop}
    return loops
