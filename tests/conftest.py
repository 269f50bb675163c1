"""Suite-wide settings: the Hypothesis profile of CI, English for every test, and programs the
tests drive.

``@pytest.mark.needs("tmux")`` marks a test that drives an outside program. Without it the test
is skipped, saying so in the summary (``-rs``) — except under ``CI=1`` (``.ci/run`` exports it),
where a missing program is a failure: CI installs every one, so a skip there would hide that
the install broke.
"""

import os
import shutil
from collections.abc import Iterator

import pytest
from hypothesis import settings

from hexnet import i18n

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


def pytest_runtest_setup(item: pytest.Item) -> None:
    for mark in item.iter_markers("needs"):
        missing = [tool for tool in mark.args if shutil.which(tool) is None]
        if not missing:
            continue
        if os.environ.get("CI"):
            pytest.fail(f"CI is set and {', '.join(missing)} is not installed: .ci/run must "
                        "install it (a skipped test would pass unseen)", pytrace=False)
        pytest.skip(f"needs {', '.join(missing)}, not installed here (CI installs it)")


if os.environ.get("HEXNET_LOOP") == "uvloop":
    def pytest_asyncio_loop_factories(config: pytest.Config, item: pytest.Item) -> dict:
        """``HEXNET_LOOP=uvloop``: every async test runs on uvloop (CI runs the network tests
        on both loops); otherwise on asyncio's own loop, as pytest-asyncio does by itself."""
        import uvloop

        return {"uvloop": uvloop.new_event_loop}
