"""Network tests: a real Host on 127.0.0.1 (real TLS), clients with their own config dirs."""

from __future__ import annotations

import pytest

from tests.host.toygame import register
from tests.pace import SECRET_EVERY


@pytest.fixture(autouse=True)
def toy_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy game is registered for every network test (and only while it runs)."""
    register(monkeypatch)


@pytest.fixture
def dirs(tmp_path):
    """Separate host and client config/data dirs."""
    d = {k: tmp_path / k for k in ("host_cfg", "host_data", "client", "client2")}
    for p in d.values():
        p.mkdir()
    return d


@pytest.fixture
async def host(dirs):
    """A running host (code required, toy + whatever games are installed), no mDNS."""
    from hexnet.games import available
    from host.server import Host

    h = Host("Test host", dirs["host_cfg"], dirs["host_data"], bot_delay=0,
             games=sorted(set(available()) | {"toy"}), idle_timeout=30,
             secret_every=SECRET_EVERY)
    await h.start("127.0.0.1", 0)
    try:
        yield h
    finally:
        await h.stop()
