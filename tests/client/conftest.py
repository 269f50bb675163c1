"""Client tests: a real host on 127.0.0.1 (TLS, protocol, engine, host-side bots), no mocks."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from client.widgets import countdown


async def wait_until(pilot: Any, check: Callable[[], Any], timeout: float = 15.0,
                     what: Any = "") -> Any:
    """Let the app run until ``check()`` is truthy (returned), failing after ``timeout`` s."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        result = check()
        if result:
            return result
        await pilot.pause(0.05)
    raise AssertionError(f"timed out waiting for {what() if callable(what) else what}")


@pytest.fixture
def frozen_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Countdowns stand still (for snapshots)."""
    monkeypatch.setattr(countdown, "CLOCK", lambda: 1000.0)
