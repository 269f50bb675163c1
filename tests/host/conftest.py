"""The toy game is registered for every host test (and only while it runs)."""

import pytest

from tests.host.toygame import register


@pytest.fixture(autouse=True)
def toy_game(monkeypatch: pytest.MonkeyPatch) -> None:
    register(monkeypatch)
