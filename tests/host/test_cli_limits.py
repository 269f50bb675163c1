"""The host's limits are command-line flags of ``hexnet host`` as well as Host options: each
flag reaches the Host, the defaults the help shows are the Host's own, bad values are refused
with one line and exit 2."""

from __future__ import annotations

import inspect
import re
import subprocess
import sys

import pytest

from hexnet.cli import build_parser
from host.cli import make_host
from host.flags import HOST_LIMITS
from host.server import Host


def test_every_host_limit_flag_reaches_the_host(tmp_path) -> None:
    args = build_parser().parse_args([
        "host", "--config-dir", str(tmp_path / "c"), "--data-dir", str(tmp_path / "d"),
        "--no-mdns", "--table-expiry", "30", "--max-open-tables", "1",
        "--max-tables-per-hour", "4", "--code-backoff", "2", "--max-unauthenticated", "9",
        "--max-unauthenticated-per-address", "3", "--auth-timeout", "4", "--idle-timeout",
        "20", "--message-rate", "7"])
    host = make_host(args, log=lambda line: None)
    assert host.lobby.registry.table_expiry == 30.0
    assert host.lobby.registry.max_open_tables_per_player == 1
    assert host.lobby.registry.max_tables_created_per_player == 4
    assert host.rate_limiter.rules["address"][1] == 2.0
    assert (host.gate.total, host.gate.per_address) == (9, 3)
    assert (host.reception.auth_timeout, host.links.idle_timeout,
            host.links.message_limits[0]) == (4.0, 20.0, 7.0)


def test_the_defaults_the_help_shows_are_the_hosts() -> None:
    defaults = inspect.signature(Host).parameters
    assert {dest: shown for _, dest, _, shown, _ in HOST_LIMITS} == {
        dest: defaults[dest].default for _, dest, *_ in HOST_LIMITS}


@pytest.mark.parametrize("flag, value", [("--table-expiry", "-1"), ("--code-backoff", "nan"),
                                         ("--max-open-tables", "x"),
                                         ("--message-rate", "inf")])
def test_a_bad_limit_is_refused_with_one_line(flag, value) -> None:
    done = subprocess.run([sys.executable, "-m", "hexnet.cli", "host", flag, value],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1 and done.stderr.startswith(f"hexnet host: {flag} ")



def test_the_readme_lists_every_limit_with_the_codes_default() -> None:
    """README's Security section: its table of limits and the budgets it states are the code's
    (a limit changed in one place and not the other fails here)."""
    from pathlib import Path

    from hexnet.cli.hostile import SECONDS
    from host import budget, newcomers, registry
    from host.entrants import ENTRANTS_PER_ADDRESS

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    rows = dict(re.findall(r"^\| `(--[a-z-]+)` \| ([\d.]+) \|", readme, re.M))
    assert rows == {flag: f"{default:g}" if kind is float else str(default)
                    for flag, _, kind, default, _ in HOST_LIMITS} | {
        "--entrants-per-address": str(ENTRANTS_PER_ADDRESS)}
    text = " ".join(readme.split())
    for said in (
            f"{budget.BURST} at once, then {budget.RATE:g} a second",
            f"a chat line (besides, {budget.CHAT_BURST} at once, then one a second",
            f"(besides, {budget.WATCH_BURST} at once, then one a second)",
            f"logged and journaled {budget.PRESENCE_BURST} changes at once, then one every "
            f"{budget.PRESENCE_EVERY:g} s",
            f"at most {budget.BURST + budget.PRESENCE_BURST} + "
            f"{budget.RATE + 1 / budget.PRESENCE_EVERY:g}·t frames in t seconds",
            f"A player may have {registry.MAX_OPEN_TABLES_PER_PLAYER} open tables and create "
            f"{registry.MAX_TABLES_CREATED_PER_PLAYER} an hour",
            f"{registry.MAX_OPEN_TABLES_PER_ADDRESS} open tables and "
            f"{registry.MAX_TABLES_CREATED_PER_ADDRESS} an hour",
            f"goes after {registry.TABLE_EXPIRY / 60:g} minutes",
            f"at most {newcomers.IDENTITIES_PER_ADDRESS} new players (identity keys) an hour",
            f"a tournament takes {ENTRANTS_PER_ADDRESS} entrants from one address",
            f"One address may enter {ENTRANTS_PER_ADDRESS} entrants",
            f"and runs, for {SECONDS:g} s (`--seconds`)"):
        assert said in text, said
    assert budget.CHAT_RATE == budget.WATCH_RATE == 1.0  # ("then one a second")
