"""Suite-wide settings."""

import os
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

if os.environ.get("HEXNET_LOOP") == "uvloop":
    def pytest_asyncio_loop_factories(config: pytest.Config, item: pytest.Item) -> dict:
        """``HEXNET_LOOP=uvloop``: every async test runs on uvloop (CI runs the network tests
        on both loops); otherwise on asyncio's own loop, as pytest-asyncio does by itself."""
        import uvloop

        return {"uvloop": uvloop.new_event_loop}
