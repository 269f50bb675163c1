"""``hexnet host --web/--ssh`` on the command line: the headless log names both doors, a bad port
is one clear line and exit 2; the host process is stopped by its pid."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
import urllib.request

import pytest

from protocol import tls

pytest.importorskip("textual_serve", reason="needs hexnet[web] (textual-serve)")
pytest.importorskip("asyncssh", reason="needs hexnet[ssh] (asyncssh)")

pytestmark = pytest.mark.timeout(60)
HEXNET = [sys.executable, "-m", "hexnet.cli"]


def test_the_headless_log_shows_the_web_address_and_the_ssh_host_key(tmp_path) -> None:
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "cfg"),
               XDG_DATA_HOME=str(tmp_path / "data"))
    log = open(tmp_path / "host.log", "w+")  # noqa: SIM115 - closed in finally
    host = subprocess.Popen(HEXNET + ["host", "--headless", "--port", "0", "--bind", "127.0.0.1",
                                      "--no-mdns", "--web", "0", "--ssh", "0"],
                            stdout=log, stderr=subprocess.STDOUT, env=env)
    try:
        text = ""
        for _ in range(300):
            text = (tmp_path / "host.log").read_text()
            if "ready on" in text:
                break
            assert host.poll() is None, text
            time.sleep(0.1)
        web = re.search(r"web: open (https://127\.0\.0\.1:\d+) in a browser", text)
        ssh = re.search(r"ssh: ssh -p (\d+) 127\.0\.0\.1 — SSH host key (SHA256:\S+)", text)
        assert web and ssh, text
        host_fp = re.search(r"fingerprint ([A-Z2-7]{4}(?:-[A-Z2-7]{2,4}){6})", text)
        assert host_fp, text
        assert re.search(r"web: key SHA-256 ([0-9A-F]{2}:){8}… \(browsers warn once\)", text)
        # the page, over TLS (test_web_tls checks that the key is the host's)
        with urllib.request.urlopen(web.group(1) + "/", timeout=10,
                                    context=tls.client_context()) as page:
            assert page.status == 200 and b"textual.js" in page.read()
    finally:
        host.send_signal(signal.SIGTERM)
        try:
            host.wait(15)
        except subprocess.TimeoutExpired:
            host.kill()
            host.wait(5)
        log.close()
    assert host.returncode == 0


@pytest.mark.parametrize("flag", ["--web", "--ssh"])
def test_a_door_port_out_of_range_is_one_line_and_exit_2(flag, tmp_path) -> None:
    out = subprocess.run(HEXNET + ["host", "--headless", flag, "70000"], capture_output=True,
                         text=True, timeout=30, env=dict(os.environ,
                                                         XDG_CONFIG_HOME=str(tmp_path)))
    assert out.returncode == 2
    assert out.stderr == f"hexnet host: {flag} must be 0–65535, not 70000\n"


def test_host_help_names_both_doors() -> None:
    out = subprocess.run(HEXNET + ["host", "--help"], capture_output=True, text=True,
                         timeout=30)
    assert out.returncode == 0
    assert "--web [PORT]" in out.stdout and "--ssh [PORT]" in out.stdout
