"""Words at the edge: hexnet in English, Hungarian, German and Czech.

Engines emit events as data — a message key plus arguments (seats as ints, card / villager /
role / place ids, numbers) — and never a sentence or a player's name. Everything a person reads
is chosen here, from GNU gettext catalogs, in the reader's language: the client renders its own
view's log, the host's headless log renders public events in English (or ``--lang``), and
replays and tutorials render the same events the same way. So a Hungarian, a German and a Czech
player sit at one table, each reading their own language.

Catalogs (``seeds/locale/<lang>/LC_MESSAGES/<domain>.po``, read at run time, see
:mod:`hexnet.i18n.catalogs` for why ``.po`` and not compiled ``.mo``):

- ``interface.po`` — the client's words. The msgid is the English text, as gettext users expect.
- ``hexenhammer.po``, ``fang.po``, ``hranice.po`` — one per game: msgid = a key, msgctxt = what
  it is: ``log`` (events), ``reason`` (refusals), ``action`` (action labels), ``expiry`` (what
  a timeout does), ``end`` (how a game ended), ``phrase`` (pieces of a formula or a list entry)
  and the game's names (``card``, ``card_text``, ``villager``, ``role``, ``place``,
  ``ingredient``, ``spell``, ``phase``, ``scene``, …). English is a catalog like the others.

Plurals are real gettext plurals (``msgid_plural`` + ``msgstr[n]``, chosen by the catalog's
``Plural-Forms``: Czech has three forms, Hungarian and German two). A sentence is always one
whole message with placeholders — never glued from pieces — so each language orders its words
its own way; names are put in places where they need no case ending.

How to add a string
-------------------
*In the client*: wrap it where it is shown — ``_("Waiting for {who}…").format(who=name)``, or
``ngettext("{n} card", "{n} cards", n).format(n=n)``; for a module-level constant mark it with
``N_("…")`` and call ``_(CONSTANT)`` where it is shown (so a language switch takes effect).
Then add the msgid with its translation to ``seeds/locale/{hu,de,cs}/LC_MESSAGES/interface.po``
(English needs nothing). *In an engine*: ``emit(state, "my_key", seat=..., card=...)`` (or
``raise IllegalAction("my_key", ...)``) and add ``msgctxt "log"`` (``"reason"``) / ``msgid
"my_key"`` to all four ``<game>.po``. ``python -m hexnet.i18n.check`` lists what is missing or
unused in every catalog; the test suite runs the same check.
"""

from __future__ import annotations

from hexnet.i18n.catalogs import (
    DOMAINS,
    GAME_DOMAINS,
    LANGS,
    LANGUAGE_NAMES,
    from_environment,
    language,
    language_of,
    set_language,
    translations,
)
from hexnet.i18n.render import (
    MISSING,
    fill,
    render,
    render_label,
    render_reason,
    show,
    word,
)

__all__ = [
    "DOMAINS", "GAME_DOMAINS", "LANGS", "LANGUAGE_NAMES", "MISSING", "N_", "_", "fill",
    "from_environment", "language", "language_of", "ngettext", "next_language", "pgettext",
    "render", "render_label", "render_reason", "set_language", "show", "translations", "word",
]


def next_language(lang: str) -> str:
    """The language after ``lang`` in the switching order (en → hu → de → cs → en)."""
    return LANGS[(LANGS.index(lang) + 1) % len(LANGS)] if lang in LANGS else LANGS[0]


def _(msgid: str) -> str:
    """The interface's ``msgid`` (English text) in the current language."""
    return translations("interface", language()).gettext(msgid)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The interface's plural message for ``n`` in the current language."""
    return translations("interface", language()).ngettext(singular, plural, n)


def pgettext(context: str, msgid: str) -> str:
    """The interface's ``msgid`` under ``context`` in the current language."""
    return translations("interface", language()).pgettext(context, msgid)


def N_(msgid: str) -> str:  # noqa: N802 - gettext's name for "mark, translate later"
    """Mark ``msgid`` for the catalog without translating it now (module-level constants)."""
    return msgid
