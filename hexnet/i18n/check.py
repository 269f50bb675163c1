"""Are the catalogs complete? Every key the code uses is in every catalog, no catalog holds a key
nobody uses, plural entries have their language's number of forms, and every translation has
exactly the placeholders of the English text.

``python -m hexnet.i18n.check`` prints one line per problem (exit 1 if any); the test suite runs
the same :func:`problems`.

Where the used keys come from:

- the interface: Babel's extractor over the client, ``hexnet/cli/`` and the renderer (``_``,
  ``ngettext``, ``pgettext``, ``N_``, as ``pybabel extract`` would) and the engine's refusals
  (``IllegalAction("key")`` in ``hexnet/engine.py`` and ``host/``, context ``reason``), the
  engine's own log lines (``emit(state, "key")`` in ``hexnet/engine.py``: presence, context
  ``log``) and the emotes' words (``seeds/emotes.toml``, context ``emote``), all keyed, their
  English in the English catalog;
- a game (``hexnet/games/<game>/``, its bots aside): ``emit(state, "key")``, ``announce(…)``,
  ``tell(…)`` and a variable named ``log_key`` (context ``log``), ``IllegalAction("key")``
  (``reason``), a dict ``{"key": "…"}`` (``action``), ``words.phrase("key")`` (``phrase``),
  ``finish(state, result, "key")`` (``end``), ``say("key")`` in a tutorial (``hint``) — each
  literal, or a conditional choosing between literals — and for the names the game's
  ``words.NAMES`` (context → ids, from its data).
"""

from __future__ import annotations

import ast
import importlib
import re
import sys
from collections.abc import Iterator
from pathlib import Path

from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.plurals import get_plural

from hexnet.i18n.catalogs import GAME_DOMAINS, LANGS, catalog

ROOT = Path(__file__).resolve().parents[2]
FIELD = re.compile(r"\{([a-z_]+)(?::([^{}]*))?\}")
LOG_CALLS = {"emit", "announce", "tell"}
Key = tuple[str | None, str]  # (context, msgid)


def _literals(node: ast.AST | None) -> list[str]:
    """The strings a key expression can be: a literal, or conditionals between literals."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _literals(node.body) + _literals(node.orelse)
    return []


def _name(func: ast.AST) -> str:
    return func.id if isinstance(func, ast.Name) else (
        func.attr if isinstance(func, ast.Attribute) else "")


def source_keys(path: Path) -> set[Key]:
    """The (context, key) pairs a game module (or the engine) uses."""
    out: set[Key] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Call):
            name = _name(node.func)
            if name in LOG_CALLS:
                first = next((a for a in node.args if _literals(a)), None)
                out |= {("log", k) for k in _literals(first)}
            elif name == "IllegalAction" and node.args:
                out |= {("reason", k) for k in _literals(node.args[0])}
            elif name == "phrase" and node.args:
                out |= {("phrase", k) for k in _literals(node.args[0])}
            elif name == "say" and node.args:  # a tutorial's hint (hexnet.tutorial.say)
                out |= {("hint", k) for k in _literals(node.args[0])}
            elif name == "finish" and len(node.args) > 2:
                out |= {("end", k) for k in _literals(node.args[2])}
        elif isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "log_key" for t in node.targets):
            out |= {("log", k) for k in _literals(node.value)}
        elif isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and key.value == "key":
                    out |= {("action", k) for k in _literals(value)}
    return out


def game_keys(game: str) -> set[Key]:
    """Every (context, key) the game's code and data use."""
    folder = ROOT / "hexnet" / "games" / game
    out: set[Key] = set()
    for path in sorted(folder.glob("*.py")):
        if path.name != "bots.py":
            out |= source_keys(path)
    out -= engine_reasons()  # the engine's own refusals live in the interface catalog
    names = importlib.import_module(f"hexnet.games.{game}.words").NAMES
    for context, ids in names.items():
        out |= {(context, str(i)) for i in ids()}
    return out


def engine_reasons() -> set[Key]:
    """The refusals of the shared engine and the host (interface catalog, context reason),
    and the shared engine's log lines (context log)."""
    engine = ROOT / "hexnet" / "engine.py"
    paths = [engine, *sorted((ROOT / "host").glob("*.py"))]
    return ({k for p in paths for k in source_keys(p) if k[0] == "reason"}
            | {k for k in source_keys(engine) if k[0] == "log"})


def interface_keys() -> dict[Key, list[str]]:
    """Every interface message: (context, msgid) → its English forms (msgid[, msgid_plural]);
    the engine's refusals map to [] (their English is in the English catalog)."""
    out: dict[Key, list[str]] = {}
    method_map = [("client/**.py", "python"), ("hexnet/i18n/**.py", "python"),
                  ("hexnet/cli/**.py", "python")]
    keywords = {**DEFAULT_KEYWORDS, "interface_word": None}  # the renderer's own words
    for _file, _line, message, _comments, context in extract_from_dir(
            str(ROOT), method_map=method_map, keywords=keywords):
        forms = [m for m in message if m] if isinstance(message, tuple | list) else [message]
        out[(context, forms[0])] = forms
    for key in engine_reasons():
        out[key] = []
    for key in emote_keys():
        out[key] = []
    return out


def emote_keys() -> set[Key]:
    """The emotes' words (``seeds/emotes.toml``; context ``emote``, English in the English
    catalog)."""
    from hexnet.emotes import emotes

    return {("emote", e.key) for e in emotes()}


def fields(text: str) -> set[str]:
    """The placeholders of a template (``{player:seat}``), as written."""
    return {m.group(0) for m in FIELD.finditer(text)}


def _forms(string: str | tuple[str, ...] | list[str]) -> list[str]:
    return list(string) if isinstance(string, tuple | list) else [string]


def _check_catalog(domain: str, lang: str, wanted: dict[Key, list[str]]) -> Iterator[str]:
    """Problems of one catalog; ``wanted`` maps every key it must hold to its English forms
    (one, or singular and plural)."""
    parsed = catalog(domain, lang)
    where = f"{lang}/{domain}.po"
    if parsed is None:
        yield f"{where}: missing"
        return
    have: dict[Key, list[str]] = {}
    for message in parsed:
        if not message.id:
            continue
        msgid = message.id[0] if isinstance(message.id, tuple | list) else message.id
        have[(message.context, msgid)] = _forms(message.string)
        if message.fuzzy:
            yield f"{where}: fuzzy {message.context or ''}|{msgid}"
    nplurals = get_plural(lang).num_plurals
    for key, reference in wanted.items():
        if key not in have:
            yield f"{where}: missing {key[0] or ''}|{key[1]}"
            continue
        forms = have[key]
        plural = len(reference) > 1
        if any(not f for f in forms):
            yield f"{where}: untranslated {key[0] or ''}|{key[1]}"
        if plural and len(forms) != nplurals:
            yield f"{where}: {key[1]} has {len(forms)} plural forms, {lang} has {nplurals}"
        if not plural and len(forms) > 1:
            yield f"{where}: {key[1]} is a plural here but not in English"
        want = fields((reference or forms)[-1])
        # a plural's forms may leave out the number ("one card"), together they use them all
        found = [fields(form) for form in forms]
        if (set().union(*found) != want if plural else found[0] != want) or any(
                not f <= want for f in found):
            yield (f"{where}: {key[0] or ''}|{key[1]} has placeholders "
                   f"{sorted(set().union(*found))}, English has {sorted(want)}")
    for key in set(have) - set(wanted):
        yield f"{where}: unused {key[0] or ''}|{key[1]}"


def _english(domain: str) -> dict[Key, list[str]]:
    parsed = catalog(domain, "en")
    out: dict[Key, list[str]] = {}
    for message in parsed or []:
        if message.id:
            msgid = message.id[0] if isinstance(message.id, tuple | list) else message.id
            out[(message.context, msgid)] = _forms(message.string)
    return out


def problems() -> list[str]:
    """Every problem of every catalog, one line each (empty when all is well)."""
    out: list[str] = []
    for game in GAME_DOMAINS:
        english = _english(game)
        wanted = {k: english.get(k) or [k[1]] for k in game_keys(game)}
        for lang in LANGS:
            out += _check_catalog(game, lang, wanted)
    english = _english("interface")
    wanted = interface_keys()
    for key, forms in wanted.items():
        if not forms:  # a keyed refusal: its English is in the English catalog
            wanted[key] = english.get(key) or [key[1]]
    out += _check_catalog("interface", "en", {k: v for k, v in wanted.items()
                                              if k[0] in ("reason", "log", "emote")})
    for lang in LANGS[1:]:
        out += _check_catalog("interface", lang, wanted)
    return out


def main() -> int:
    """Print the problems; exit 1 if there are any."""
    found = problems()
    for line in found:
        print(line)
    print(f"{len(found)} problem(s)" if found else "catalogs complete", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
