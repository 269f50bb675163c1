"""The gettext catalogs: where they live, how they load, and the reader's language.

Catalogs are GNU gettext ``.po`` files under ``seeds/locale/<lang>/LC_MESSAGES/<domain>.po``
(shipped as package data). They are read at run time with Babel and compiled in memory, once
per (domain, language), into a standard :class:`gettext.GNUTranslations` — so ``Plural-Forms``,
``pgettext`` and ``npgettext`` behave exactly as gettext defines them. We keep no compiled
``.mo`` files in the tree: the ``.po`` files are the single source (nothing can go stale, a
fresh ``pip install -e .`` works without a build step), and compiling a catalog of a few hundred
messages takes a few milliseconds, paid only when a language is first used.

Domains: ``interface`` (the client's words; its msgids are the English text, so English needs no
entries there except keyed ones such as the engine's refusals) and one per game
(``hexenhammer``, ``fang``, ``hranice``), whose msgids are message keys under a context (``log``,
``reason``, ``action``, ``card``, ``role``, …) and whose English catalog holds the English words.
A lookup falls back to English, then to the msgid itself.
"""

from __future__ import annotations

import functools
import gettext
import io
import os
from collections.abc import Mapping
from importlib import resources
from importlib.resources.abc import Traversable

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LANGS = ("en", "hu", "de", "cs")
LANGUAGE_NAMES = {"en": "English", "hu": "Magyar", "de": "Deutsch", "cs": "Čeština"}
GAME_DOMAINS = ("hexenhammer", "fang", "hranice")
DOMAINS = ("interface", *GAME_DOMAINS)
ENV_VARS = ("LC_ALL", "LC_MESSAGES", "LANG")

_current = "en"


def language() -> str:
    """The language this process shows by default (the client's; the host's headless log and
    other renderers of many readers pass their language explicitly)."""
    return _current


def set_language(lang: str) -> None:
    """Show ``lang`` from now on (ValueError for a language hexnet does not speak)."""
    global _current
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; hexnet speaks {', '.join(LANGS)}")
    _current = lang


def po_file(domain: str, lang: str) -> Traversable:
    """Where the catalog of ``domain`` in ``lang`` lives (it may not exist)."""
    return resources.files("seeds").joinpath("locale", lang, "LC_MESSAGES", f"{domain}.po")


@functools.cache
def catalog(domain: str, lang: str) -> Catalog | None:
    """The parsed ``.po`` catalog (Babel), or None when there is none."""
    path = po_file(domain, lang)
    if not path.is_file():
        return None
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=domain)


class Unknown(gettext.NullTranslations):
    """The end of a game catalog's fallback chain: a keyed lookup that no catalog answers
    raises KeyError instead of returning the key (so a missing key is never shown as if it
    were a word)."""

    def pgettext(self, context: str, message: str) -> str:
        raise KeyError((context, message))

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        raise KeyError((context, msgid1))


@functools.cache
def translations(domain: str, lang: str) -> gettext.NullTranslations:
    """The compiled translations of ``domain`` in ``lang``, falling back to English; after
    English, the interface returns the msgid (its English text), a game raises KeyError."""
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; hexnet speaks {', '.join(LANGS)}")
    parsed = catalog(domain, lang)
    if parsed is None:
        out: gettext.NullTranslations = gettext.NullTranslations()
    else:
        buffer = io.BytesIO()
        write_mo(buffer, parsed)
        buffer.seek(0)
        out = gettext.GNUTranslations(buffer)
    if lang != "en":
        out.add_fallback(translations(domain, "en"))
    elif domain != "interface":
        out.add_fallback(Unknown())
    return out


def language_of(value: str | None) -> str | None:
    """The hexnet language a locale name means (``hu_HU.UTF-8`` → ``hu``), or None."""
    if not value:
        return None
    code = value.split(".")[0].split("@")[0].split("_")[0].split("-")[0].lower()
    if code in ("c", "posix"):
        return "en"
    return code if code in LANGS else None


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language the locale asks for: the first of ``LC_ALL``, ``LC_MESSAGES``, ``LANG``
    that is set decides (English when it names a language hexnet does not speak)."""
    env = os.environ if environ is None else environ
    for var in ENV_VARS:
        if env.get(var):
            return language_of(env[var]) or "en"
    return "en"
