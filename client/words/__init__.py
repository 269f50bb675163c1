"""What a table says, in the reader's language: pure functions and small objects from a seat's
view (and legal actions) to words. Every front end speaks through them — the Textual table
screens (:mod:`client.screens`) and the plain line mode for screen readers
(:mod:`client.plain`) — so a sentence is made once. Nothing here imports Textual or decides a
rule.

:func:`words_for` gives the :class:`~client.words.table.TableWords` class of a game.
"""

from __future__ import annotations

from client.lazy import load
from client.words.table import TableWords

WORDS: dict[str, str] = {
    "hexenhammer": "client.words.hexenhammer:HexenhammerWords",
    "fang": "client.words.fang:FangWords",
    "hranice": "client.words.hranice:HraniceWords",
}


def words_for(game: str) -> type[TableWords]:
    """The words class of ``game`` (the generic one for a game without its own)."""
    target = WORDS.get(game)
    if target is None:
        return TableWords
    return load(target)
