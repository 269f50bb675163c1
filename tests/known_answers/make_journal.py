"""Write ``tests/known_answers/hranice.journal``, the journal ``hexnet verify``'s known-answer
test (tests/host/test_verify_known_answer.py) replays.

    .venv/bin/python -m tests.known_answers.make_journal

A short Hranice game (2 seats, random bots, the tutorial variant: 5 influence wins), journaled
by the host's own :class:`host.recovery.Recorder` from the same effects a host emits. Run it
again only when a change *meant* to change what a seed deals or rolls (``hexnet/rng.py``, a
shuffle, the public events a step's digest covers): journals written before such a change no
longer verify, so say so where the change is described.
"""

from __future__ import annotations

import random
import shutil
import sys
import tempfile
from pathlib import Path

from hexnet.fairness import new_seed
from hexnet.games import get_game, get_policy
from host.core import Accepted, TableOver, TableStarted
from host.recovery import Recorder
from host.table import Seat, Table

HERE = Path(__file__).resolve().parent
JOURNAL = HERE / "hranice.journal"
GAME, OPTIONS = "hranice", {"variant": "tutorial"}


def play_and_journal(data_dir: Path) -> Path:
    """One game of random bots, journaled in ``data_dir`` as a host would; the journal."""
    seats = [Seat("bot", f"bot {i + 1}", policy="random") for i in range(2)]
    table = Table(1, GAME, get_game(GAME), seats, dict(OPTIONS))
    seed, salt = new_seed()
    table.start(seed, salt)
    recorder = Recorder(data_dir, lambda line: None)
    recorder.record([TableStarted(1, GAME, list(table.state["players"]), dict(OPTIONS), seed,
                                  salt, [{"kind": s.kind, "name": s.name, "identity": None,
                                          "policy": s.policy} for s in seats])])
    choose = get_policy(GAME, "random")
    rnd = random.Random(1)
    while table.status == "playing":
        waiting = table.waiting_for()
        if waiting:
            seat: int | None = waiting[0]
            view, legal = table.view(waiting[0])
            action = choose(view, legal, rnd)
        else:  # a timed step nobody answers: the host's timer
            seat, action = None, {"type": "timeout", "key": table.engine.deadline(
                table.state).key}
        events = table.act(seat, action)
        recorder.record([Accepted(1, seat, action, table.state_id, events)])
    recorder.record([TableOver(1, table.engine.outcome(table.state) or {})])
    recorder.close()
    [path] = (data_dir / "journals").glob("*.journal")
    return path


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copyfile(play_and_journal(Path(tmp)), JOURNAL)
    print(f"wrote {JOURNAL} ({JOURNAL.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
