"""Play a game in-process with bots and keep it as a record or a journal file."""

from __future__ import annotations

import random
from pathlib import Path

from hexnet import rng as generator
from hexnet.engine import Game
from hexnet.fairness import commitment, events_digest
from hexnet.games import get_game, get_policy
from hexnet.record import Record
from host.journal import Journal

SALT = bytes(range(16))
STARTED = 1_700_000_000.0  # 2023-11-14 22:13 UTC: a fixed date for the kept journals


def play(game: str, players: list[str], seed: int, steps: int | None = None,
         policy: str = "heuristic", options: dict | None = None) -> Record:
    """A game of ``game`` played by one ``policy`` in every seat (the host applies each
    deadline when nobody is waited for), to its end or for ``steps`` steps."""
    engine: Game = get_game(game)
    options = dict(options or {})
    state = engine.setup(list(players), seed, options)
    choose = get_policy(game, policy)
    rng = random.Random(seed)
    record = Record(game, list(players), options, seed, SALT, commitment(seed, SALT, options),
                    started=STARTED, table=1)
    for _ in range(10_000):
        if engine.outcome(state) is not None or (steps is not None
                                                  and len(record.steps) >= steps):
            break
        waiting = engine.waiting_for(state)
        if waiting:
            seat: int | None = waiting[0]
            action = choose(engine.view(state, seat), engine.legal_actions(state, seat), rng)
        else:
            seat, action = None, {"type": "timeout", "key": engine.deadline(state).key}
        events = engine.apply(state, seat, action)
        record.steps.append((seat, dict(action), events_digest(events)))
    record.outcome = engine.outcome(state)
    record.finished = record.outcome is not None
    return record


def write_journal(path: Path, record: Record, seats: list[dict] | None = None,
                  ended: float | None = None) -> Path:
    """``record`` as a journal file, written by the host's own journal writer; ``seats`` as
    the host records them (kind, name, identity, policy) and ``ended`` in the end record,
    when given."""
    journal = Journal.create(path, {
        "game": record.game, "players": record.players, "options": record.options,
        "seed": record.seed, "salt": record.salt, "commitment": record.commitment,
        "rng": generator.ALGORITHM, "table": record.table, "seats": seats or [],
        "started": record.started})
    for seat, action, digest in record.steps:
        journal.append({"kind": "step", "seat": seat, "action": action, "digest": digest},
                       sync=False)
    if record.finished:
        journal.append({"kind": "end", "outcome": record.outcome,
                        **({"ended": ended} if ended is not None else {})}, sync=False)
    journal.sync()
    journal.close()
    return path
