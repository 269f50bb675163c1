"""``hexnet drill``: the crash drill (:mod:`host.drill`: the host killed twice and a client cut
during a bot game), or with ``--hostile`` the hostile-room drill (:mod:`hexnet.cli.hostile`:
every door attacked at once while an honest player gets in and plays)."""

from __future__ import annotations

import argparse


def run(args: argparse.Namespace) -> int:
    """``hexnet drill [--hostile]``: PASS → 0, FAIL → 1."""
    if args.hostile:
        from hexnet.cli.hostile import run as hostile

        return hostile(args)
    from host.drill import main

    argv = []
    for flag in ("game", "seed", "timeout", "keep", "games", "steps"):
        value = getattr(args, flag, None)
        if value is not None:
            argv += [f"--{flag}", str(value)]
    return main(argv)
