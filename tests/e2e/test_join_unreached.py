"""``hexnet join HOST`` when nothing answers there (issue 26, item 6): one clear line and exit 1,
as ``ssh`` and ``hexnet bot`` do — not the full lobby with "[Errno 111] …" and dead keys. Real
terminals (tmux, 80×24) and a real closed port."""

from __future__ import annotations

import socket
import sys
from pathlib import Path

import pytest

from tests.client.test_tmux import Tmux, tmux_env

pytestmark = [pytest.mark.timeout(60), pytest.mark.needs("tmux")]
HEXNET = f"{sys.executable} -m hexnet.cli"


def closed_port() -> int:
    """A port of 127.0.0.1 nothing listens on (bound, then let go)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]



def after_join(args: str, tmp: Path) -> list[str]:
    """What the terminal shows once ``hexnet {args}`` has ended (wrapped lines joined); fails
    unless it ended with exit status 1."""
    tmux = Tmux(f"{HEXNET} {args}; echo EXITED $?; sleep 30", tmux_env(tmp))
    try:
        tmux.wait_for("EXITED", timeout=30)
        lines = [line for line in tmux.run("capture-pane", "-p", "-J").splitlines() if line]
    finally:
        tmux.kill()
    assert lines[-1] == "EXITED 1", lines
    return lines[:-1]


@pytest.mark.parametrize("lang,said", [
    ("en", "hexnet join: Nothing answers at 127.0.0.1:{port} (connection refused): is the "
           "host running, on that port?"),
    ("hu", "hexnet join: Senki nem válaszol itt: 127.0.0.1:{port} (a kapcsolatot "
           "elutasították): fut a gazdagép, ezen a porton?")])
def test_join_to_a_closed_port_says_so_in_one_line_and_exits_1(tmp_path, lang, said) -> None:
    port = closed_port()
    said = said.format(port=port)
    assert after_join(f"join 127.0.0.1:{port} --name Ada --lang {lang}", tmp_path) == [said]


def test_join_to_a_name_no_one_has_says_so_in_one_line(tmp_path) -> None:
    assert after_join("join nosuchhost.invalid --name Ada --lang en", tmp_path) == [
        "hexnet join: There is no host named nosuchhost.invalid on this network."]
