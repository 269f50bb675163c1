"""Suite-wide settings."""

import os

import pytest
from hypothesis import settings

# CI runs the same examples every time (a red CI must be reproducible); a developer's run keeps
# exploring new ones.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")



if os.environ.get("HEXNET_LOOP") == "uvloop":
    def pytest_asyncio_loop_factories(config: pytest.Config, item: pytest.Item) -> dict:
        """``HEXNET_LOOP=uvloop``: every async test runs on uvloop (CI runs the network tests
        on both loops); otherwise on asyncio's own loop, as pytest-asyncio does by itself."""
        import uvloop

        return {"uvloop": uvloop.new_event_loop}
