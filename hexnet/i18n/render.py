"""Data into words: log events, refusals, action labels and the games' names.

A catalog message is a Python brace template whose fields name the event's arguments and say,
in the format spec, what kind of value each is::

    msgctxt "log"
    msgid "burn_taken"
    msgstr "{villager:villager} burns at the stake; {player:seat} takes the card."

Specs: ``seat`` (a player's name from the seat number), ``seats`` (a list of seats, or a
``"0,3,5"`` string, joined the language's way — "A, B and C"), any other lowercase word is a
catalog context of the game (``{kind:card}`` looks up ``card``/``kind`` in the game's catalog;
a plural spec like ``{cards:cards}`` joins a list), a game's own specs come from
``hexnet.games.<game>.words.SPECS`` (e.g. Hexenhammer's ``label`` = card name with its value),
and everything else is an ordinary format spec (``{gain:+d}``). A message whose event has an
int ``count`` may be a plural entry: its form is chosen by the catalog's ``Plural-Forms``.
"""

from __future__ import annotations

import functools
import importlib
import re
import string
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from babel import Locale
from babel.lists import format_list

from hexnet.i18n.catalogs import language, translations

MISSING = "⟦{}⟧"
WORD_SPEC = re.compile(r"[a-z][a-z_]+")
COPY = re.compile(r"-\d+$")  # a physical card "kovar-2" is named by its kind "kovar"
Spec = Callable[["Words", Any], str]


@functools.cache
def game_specs(game: str) -> dict[str, Spec]:
    """The game's own format specs (``hexnet.games.<game>.words.SPECS``), if it has any."""
    if not game.isidentifier():
        return {}
    try:
        module = importlib.import_module(f"hexnet.games.{game}.words")
    except ModuleNotFoundError:
        return {}
    return dict(module.SPECS)


class Words(string.Formatter):
    """Fills one template: seats become names, ids become the game's words."""

    def __init__(self, game: str, players: Sequence[str], lang: str,
                 args: Mapping[str, Any]) -> None:
        super().__init__()
        self.game = game
        self.players = players
        self.lang = lang
        self.args = args
        self.specs = game_specs(game)

    # -- the pieces a spec may use --------------------------------------------------------
    def word(self, context: str, value: Any) -> str:
        """The game catalog's word for id ``value`` under ``context`` (the id if none)."""
        ident = COPY.sub("", str(value))
        try:
            return translations(self.game, self.lang).pgettext(context, ident)
        except KeyError:
            return ident

    def phrase(self, key: str, **args: Any) -> str:
        """A small catalog template (context ``phrase``) filled with ``args``."""
        template = translations(self.game, self.lang).pgettext("phrase", key)
        return self.vformat(template, (), args)

    def seat(self, value: Any) -> str:
        """A player's name."""
        if isinstance(value, int) and not isinstance(value, bool) and (
                0 <= value < len(self.players)):
            return str(self.players[value])
        if value is None:
            return interface_word("nobody", self.lang)
        return "?"

    def listing(self, items: Sequence[str], style: str = "standard") -> str:
        """Items joined the language's way; an empty list is "nobody"."""
        if not items:
            return interface_word("nobody", self.lang)
        return format_list(list(items), style=style, locale=_locale(self.lang))

    # -- string.Formatter -----------------------------------------------------------------
    def format_field(self, value: Any, format_spec: str) -> str:
        own = self.specs.get(format_spec)
        if own is not None:
            return own(self, value)
        if format_spec == "seat":
            return self.seat(value)
        if format_spec == "seats":
            return self.listing([self.seat(s) for s in _items(value, int)])
        if format_spec == "seats_short":  # an action label's list: commas only, one line
            return ", ".join(self.seat(s) for s in _items(value, int)) or self.listing([])
        if WORD_SPEC.fullmatch(format_spec):
            if isinstance(value, list | tuple) or (isinstance(value, str) and "," in value):
                return self.listing([self.word(format_spec[:-1], v) for v in _items(value, str)])
            return self.word(format_spec, value)
        return format(value, format_spec)


def _items(value: Any, kind: type) -> list[Any]:
    """A list argument, or a comma-separated string of ids / seat numbers."""
    if isinstance(value, str):
        parts = [p for p in value.split(",") if p]
        return [int(p) for p in parts] if kind is int else parts
    return list(value or [])


@functools.cache
def _locale(lang: str) -> Locale:
    """Babel's locale of ``lang``, parsed once (its list patterns load with it)."""
    locale = Locale.parse(lang)
    locale.list_patterns  # noqa: B018 - (read once: the CLDR data loads now)
    return locale


def prepare(game: str, lang: str) -> None:
    """Load what wording ``game``'s events in ``lang`` needs — its catalogs, the game's own
    format specs (which import the game) and the language's list patterns — so that the
    first event worded pays for none of it."""
    translations(game, lang)
    translations("interface", lang)
    game_specs(game)
    _locale(lang)


def interface_word(msgid: str, lang: str) -> str:
    """One word of the interface catalog (``nobody``)."""
    return translations("interface", lang).gettext(msgid)


def template(game: str, context: str, key: str, args: Mapping[str, Any], lang: str) -> str:
    """The catalog template for ``key`` (the plural form for ``args["count"]`` if it is a
    plural entry). KeyError if no catalog has it."""
    found = translations(game, lang)
    count = args.get("count")
    if isinstance(count, int) and not isinstance(count, bool):
        try:
            return found.npgettext(context, key, key, count)
        except KeyError:
            pass  # not a plural entry
    return found.pgettext(context, key)


def fill(game: str, context: str, key: Any, args: Mapping[str, Any], players: Sequence[str],
         lang: str | None = None) -> str:
    """``key`` of ``context`` in ``game``'s catalog, filled with ``args``; ``⟦key⟧`` if the
    catalog lacks it or the template does not fit the arguments (never an exception).
    ``lang`` None is the current language (so for every function here)."""
    lang = lang or language()
    if not isinstance(key, str):
        return MISSING.format(key)
    try:
        text = template(game, context, key, args, lang)
        return Words(game, players, lang, args).vformat(text, (), args)
    except (KeyError, ValueError, IndexError, TypeError, AttributeError):
        return MISSING.format(key)


def render(game: str, event: Mapping[str, Any], players: Sequence[str],
           lang: str | None = None) -> str:
    """One log event in ``lang``: its ``key`` from ``game``'s catalog, filled with its
    arguments (seats become the ``players``' names); the engine's own lines (presence) from
    the interface catalog."""
    text = fill(game, "log", event.get("key"), event, players, lang)
    key = event.get("key")
    if text == MISSING.format(key) and isinstance(key, str) and key.startswith("presence_"):
        text = fill("interface", "log", event.get("key"), event, players, lang)
    return text


def render_label(game: str, label: Mapping[str, Any], players: Sequence[str],
                 lang: str | None = None) -> str:
    """An action label (``{"key": ..., **args}`` from ``describe_action``) in ``lang``."""
    return fill(game, "action", label.get("key"), label, players, lang)


def render_reason(game: str | None, reason: Mapping[str, Any], players: Sequence[str],
                  lang: str | None = None) -> str:
    """A refusal (``{"key": ..., **args}``, as :class:`~hexnet.engine.IllegalAction` carries
    it) in ``lang``: the game's own reasons first, then the engine's (interface catalog)."""
    lang = lang or language()
    key = reason.get("key")
    if game is not None:
        text = fill(game, "reason", key, reason, players, lang)
        if text != MISSING.format(key):
            return text
    if not isinstance(key, str):
        return MISSING.format(key)
    found = translations("interface", lang).pgettext("reason", key)
    if found == key:
        return MISSING.format(key)
    try:
        return Words(game or "", players, lang, reason).vformat(found, (), reason)
    except (KeyError, ValueError, IndexError, TypeError, AttributeError):
        return MISSING.format(key)


def word(game: str, context: str, ident: Any, lang: str | None = None) -> str:
    """A game's word for an id (``word("fang", "role", "hexe", "hu")``); the id if none."""
    return Words(game, (), lang or language(), {}).word(context, ident)


def show(game: str, spec: str, value: Any, /, players: Sequence[str] = (),
         lang: str | None = None, **args: Any) -> str:
    """One value the way a template's ``{value:spec}`` shows it (``show("hexenhammer",
    "label", "spende", value=2)`` → ``Spende ±2``); ``args`` are the event's other fields."""
    return Words(game, players, lang or language(), args).format_field(value, spec)
