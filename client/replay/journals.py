"""``hexnet replay --list``: the journals on this machine, one line each.

A host keeps one journal per game in ``<data dir>/journals``
(:data:`protocol.journalfile.JOURNAL_DIR`), ``hexnet play`` in ``<data dir>/play/journals``
(:data:`~protocol.journalfile.PLAY_DIR`: where no ``hexnet host`` looks). The list says for each its
date, game, players and result — or that it is still running (or was left unfinished) — and
its path, oldest first. A file that is not a readable journal is listed as such, never skipped
silently.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from client.replay.text import result_text, started_text
from hexnet.games import get_game
from hexnet.i18n import _, ngettext
from hexnet.record import Record, RecordError
from protocol import paths
from protocol.journalfile import JOURNAL_DIR, PLAY_DIR, JournalError, read_journal


@dataclass
class Entry:
    """One journal file: its record, or why it cannot be read."""

    path: Path
    record: Record | None
    problem: str = ""


def journal_dirs(data_dir: str | os.PathLike[str] | None) -> list[Path]:
    """Where the journals are: the host's ``<data dir>/journals`` and ``hexnet play``'s
    ``<data dir>/play/journals`` (the data dir is ``--data-dir`` or ``$XDG_DATA_HOME/hexnet``,
    as the host's). OSError if the data directory cannot be made."""
    data = paths.data_dir(data_dir)
    return [data / JOURNAL_DIR, data / PLAY_DIR / JOURNAL_DIR]


def entries(folders: list[Path]) -> list[Entry]:
    """Every ``*.journal`` in ``folders``, oldest first (by start, then by name)."""
    out = []
    for path in [p for f in folders if f.is_dir() for p in sorted(f.glob("*.journal"))]:
        try:
            out.append(Entry(path, Record.from_journal(read_journal(path))))
        except (JournalError, RecordError) as exc:
            out.append(Entry(path, None, str(exc)))
    return sorted(out, key=lambda e: ((e.record.started or 0.0) if e.record else 0.0,
                                      e.path.name))


def title(game: str) -> str:
    """The game's title (its id if this hexnet does not know it)."""
    try:
        return get_game(game).title
    except KeyError:
        return game


def line(entry: Entry) -> str:
    """``2025-05-01 20:15 UTC  Hexenhammer  Ada, Bert, Cili  Ada wins (…)  PATH``."""
    record = entry.record
    if record is None:
        return f"?  {_('not a readable journal: {problem}').format(problem=entry.problem)}  " \
               f"{entry.path}"
    if record.finished:
        result = result_text(record)
    else:
        result = ngettext("running or unfinished, {n} step", "running or unfinished, {n} steps",
                          len(record.steps)).format(n=len(record.steps))
    return "  ".join([started_text(record), title(record.game), ", ".join(record.players),
                      result, str(entry.path)])


def listing(folders: list[Path]) -> Iterator[str]:
    """The lines of ``hexnet replay --list``."""
    for entry in entries(folders):
        yield line(entry)
