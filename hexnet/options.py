"""Table options as data: every option a game takes is declared with its type and bounds.

A game declares its options in ``seeds/<game>.toml``, one table each::

    [options.reaction_seconds]
    type = "number"      # number | int | bool | choice | table | list
    min = 2              # bounds, inclusive (number, int)
    max = 120
    also = [0]           # values allowed besides the range (e.g. 0 = untimed)
    values = ["a", "b"]  # a choice's values, or values_from = "<top-level table>" (its keys)
    local = true         # fixes hidden information (a stacked deal, the roles): only the
                         # host's own code may set it, never a ``create`` from the network

(An engine without a seeds file — a test's toy game — may carry the same tables as its
``options_spec`` attribute.) :func:`check_options` holds a table's options against them:
unknown or undeclared options, wrong types, non-finite numbers and values out of bounds are
refused with a sentence, and so is a local option from the network. A table with a local option
is *stacked* (:func:`stacked`): the lobby and the results screen say so to everyone.
:func:`public_options` is what the lobby shows before anyone sits, :func:`describe` the words.

A game may declare a *pace* (``[options.pace]``, ``values_from = "pace"``, and a ``[pace.<name>]``
table of timing options per pace: relaxed, normal, quick): :func:`with_pace` turns a table's
chosen pace into those options (the ones the table sets itself win), so the lobby shows the
seconds and the journal keeps them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from hexnet.seeds import table as seed_table

TYPES = ("number", "int", "bool", "choice", "table", "list")


class OptionError(ValueError):
    """An option a table may not have; ``code`` is ``bad_options`` or ``local_only``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class OptionSpec:
    """One declared option."""

    name: str
    type: str
    min: float | None = None
    max: float | None = None
    also: tuple[Any, ...] = ()
    values: tuple[str, ...] = ()
    local: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    def bounds(self) -> str:
        """The allowed values in words."""
        if self.type == "choice":
            return "one of " + ", ".join(self.values)
        if self.type == "bool":
            return "true or false"
        if self.min is not None and self.max is not None:
            text = f"{self.min:g}–{self.max:g}"
            return text + "".join(f" or {a:g}" for a in self.also)
        return f"a {self.type}"


def _spec(name: str, raw: Mapping[str, Any], data: Mapping[str, Any]) -> OptionSpec:
    kind = raw.get("type")
    if kind not in TYPES:
        raise ValueError(f"option {name!r} has no known type ({kind!r})")
    values = tuple(raw.get("values", ()))
    if "values_from" in raw:
        values = tuple(data[raw["values_from"]])
    return OptionSpec(name, kind, raw.get("min"), raw.get("max"), tuple(raw.get("also", ())),
                      values, bool(raw.get("local", False)))


def specs(engine: Any) -> dict[str, OptionSpec]:
    """The declared options of ``engine`` (from ``seeds/<name>.toml`` or ``options_spec``)."""
    raw = getattr(engine, "options_spec", None)
    data: Mapping[str, Any] = {}
    if raw is None:
        try:
            data = seed_table(engine.name)
        except FileNotFoundError:
            data = {}
        raw = data.get("options", {})
    return {name: _spec(name, entry, data) for name, entry in raw.items()}


def _check_value(spec: OptionSpec, value: Any, bounded: bool) -> Any:
    bad = OptionError("bad_options", f"Option {spec.name!r} must be {spec.bounds()}.")
    if spec.type == "bool":
        if not isinstance(value, bool):
            raise bad
        return value
    if spec.type in ("number", "int"):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise bad
        if spec.type == "int" and not isinstance(value, int):
            raise bad
        if isinstance(value, float) and not math.isfinite(value):
            raise bad
        if value in spec.also or not bounded:
            return value
        if (spec.min is not None and value < spec.min) or (
                spec.max is not None and value > spec.max):
            raise bad
        return value
    if spec.type == "choice":
        if not isinstance(value, str) or value not in spec.values:
            raise bad
        return value
    if spec.type == "table" and not isinstance(value, Mapping):
        raise bad
    if spec.type == "list" and not isinstance(value, list):
        raise bad
    return value


def check_options(engine: Any, options: Mapping[str, Any] | None, *, local: bool
                  ) -> dict[str, Any]:
    """``options`` if ``engine`` declares each of them and each is within its bounds; a copy.

    ``local``: the host's own code is asking (tests, tutorials): it may set local options, and
    numbers outside the players' bounds (a test's short timers) — but never a non-finite one or
    one of the wrong type. A ``create`` from the network gets the bounds and no local options.
    Raises :class:`OptionError` (nothing changed)."""
    title = getattr(engine, "title", "") or getattr(engine, "name", "this game")
    declared = specs(engine)
    out: dict[str, Any] = {}
    for name, value in dict(options or {}).items():
        if not isinstance(name, str) or name not in declared:
            raise OptionError("bad_options", f"{title} has no option {str(name)[:32]!r}.")
        spec = declared[name]
        if spec.local and not local:
            raise OptionError("local_only", f"Option {name!r} fixes hidden information (who "
                              "holds what); only the host's own tutorials and tests may set "
                              "it.")
        out[name] = _check_value(spec, value, bounded=not local)
    return out


def parse_flags(engine: Any, items: list[str] | None) -> dict[str, Any]:
    """``--option KEY=VALUE`` command-line flags → the game's options (true/false, numbers,
    words), checked by :func:`check_options` with the players' bounds. Raises
    :class:`OptionError` whose message is the command line's error (``--option …``)."""
    out: dict[str, Any] = {}
    for item in items or []:
        key, eq, text = item.partition("=")
        if not eq or not key:
            raise OptionError("bad_options", f"--option {item!r}: give KEY=VALUE")
        value: Any = text
        if text.lower() in ("true", "false"):
            value = text.lower() == "true"
        else:
            for kind in (int, float):
                try:
                    value = kind(text)
                    break
                except ValueError:
                    continue
        out[key.strip()] = value
    try:
        return check_options(engine, out, local=False)
    except OptionError as exc:
        raise OptionError(exc.code, f"--option: {exc.message}") from None


def stacked(engine: Any, options: Mapping[str, Any] | None) -> bool:
    """Whether ``options`` fix hidden information (a stacked position, chosen roles)."""
    declared = specs(engine)
    return any(declared.get(name, OptionSpec(name, "table")).local for name in options or {})


def public_options(engine: Any, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The options the lobby shows: every one but the local ones (their contents are the
    hidden information they fix; the table says it is stacked instead)."""
    declared = specs(engine)
    return {k: v for k, v in (options or {}).items()
            if k in declared and not declared[k].local}


def describe(options: Mapping[str, Any]) -> str:
    """Options in words: ``reaction_seconds 8, time_limits on`` (``default options`` if none)."""
    def word(v: Any) -> str:
        if isinstance(v, bool):
            return "on" if v else "off"
        if isinstance(v, float):
            return f"{v:g}"
        return str(v)
    parts = [f"{k} {word(v)}" for k, v in sorted(options.items())
             if not isinstance(v, (dict, list))]
    return ", ".join(parts) if parts else "default options"


def paces(engine: Any) -> dict[str, dict[str, Any]]:
    """The paces ``engine`` declares (``[pace.<name>]`` of its seeds file): name → the options
    it sets, in the file's order ({} if the game has none)."""
    if "pace" not in specs(engine):
        return {}
    try:
        data = seed_table(engine.name)
    except FileNotFoundError:
        return {}
    return {name: dict(values) for name, values in data.get("pace", {}).items()}


def with_pace(engine: Any, options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` with the chosen pace's timing options added (those set already stay); a
    copy. Options checked by :func:`check_options` first."""
    out = dict(options)
    pace = out.get("pace")
    if isinstance(pace, str):
        for name, value in paces(engine).get(pace, {}).items():
            out.setdefault(name, value)
    return out
