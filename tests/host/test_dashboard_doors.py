"""The host's screen with ``--web`` and ``--ssh``: the web address and its QR code in text blocks,
the SSH command with the SSH host key's fingerprint next to the TLS one (real doors on
127.0.0.1, any free ports)."""

from __future__ import annotations

import re
import socket

import pytest
from textual.widgets import Static

pytest.importorskip("textual_serve", reason="needs hexnet[web] (textual-serve)")
pytest.importorskip("asyncssh", reason="needs hexnet[ssh] (asyncssh)")

from host.dashboard import Dashboard  # noqa: E402
from host.qr import matrix_of, qr_lines, qr_matrix  # noqa: E402
from host.server import Host  # noqa: E402
from tests.host.test_dashboard import wait_for  # noqa: E402

pytestmark = [pytest.mark.timeout(60), pytest.mark.one_loop(
    "the dashboard is a Textual app: asyncio's loop, also where the host has uvloop")]


async def test_the_host_screen_shows_the_web_address_its_qr_code_and_the_ssh_host_key(
        tmp_path) -> None:
    host = Host("Dash", tmp_path / "cfg", tmp_path / "data", games=["toy"])
    app = Dashboard(host, web=0, ssh=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.doors is not None
                       and "ssh:" in str(app.query_one("#info", Static).render()))
        info = str(app.query_one("#info", Static).render()).splitlines()
        url = f"https://127.0.0.1:{app.doors.web.port}"
        fingerprint = next(i for i, line in enumerate(info)
                           if line == f"fingerprint: {host.fingerprint_human}")
        assert info[fingerprint + 1] == f"web: open {url} in a browser"
        # what a guest compares in the browser's certificate viewer: the host's own key
        key = ":".join(host.fingerprint[i:i + 2].upper() for i in range(0, 16, 2))
        assert info[fingerprint + 2] == f"web: key SHA-256 {key}:… (browsers warn once)"
        assert info[fingerprint + 3] == (f"ssh: ssh -p {app.doors.ssh.port} 127.0.0.1 — SSH "
                                         f"host key {app.doors.ssh.fingerprint}")
        assert re.fullmatch(r"SHA256:[A-Za-z0-9+/]{43}", app.doors.ssh.fingerprint)
        qr = app.query_one("#qr", Static)
        assert qr.display
        drawn = str(qr.render()).splitlines()
        assert drawn == qr_lines(url)
        # the blocks on the screen are the address's QR modules, quiet zone and all
        assert matrix_of(drawn)[:len(qr_matrix(url))] == qr_matrix(url)
        assert qr.region.width == len(drawn[0]) + 2  # drawn whole (padding 0 1), not cut
        web_port = app.doors.web.port
        await pilot.press("q")
        await pilot.pause()
    assert host.reception.server is None and app.doors.web is None and app.doors.ssh is None
    with pytest.raises(OSError):  # the web door closed with the host
        socket.create_connection(("127.0.0.1", web_port), timeout=5).close()
