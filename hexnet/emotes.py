"""The quick reactions a player may show at a table (``seeds/emotes.toml``): each a key (what
travels) and a glyph (what is drawn); their words are the interface catalog's (context
``emote``)."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from hexnet import seeds


@dataclass(frozen=True)
class Emote:
    key: str
    glyph: str


@functools.cache
def emotes() -> tuple[Emote, ...]:
    """Every emote, in the order the pickers offer them."""
    return tuple(Emote(str(e["key"]), str(e["glyph"])) for e in seeds.table("emotes")["emote"])


def by_key(key: str) -> Emote | None:
    """The emote called ``key``, or None."""
    return next((e for e in emotes() if e.key == key), None)
