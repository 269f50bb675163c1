"""What each option of the command line may be: every number and every file an option writes
declares its domain where the option is declared, and a value outside it is refused while the
command line is read — one line, exit 2, before any work starts (a port of 99999 never reaches
a socket, an unwritable ``--out`` never waits for a tournament to finish).

The types are argparse ``type=`` callables that carry their domain (``Number.low``/``high``,
``OutputFile``), so a test can walk every option of every command and try what lies outside it.
Their words are translated (the interface catalog) into the language the command line asks for
(``--lang``, else the locale's): :data:`LANG` is set by :func:`hexnet.cli.main` before parsing.
"""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass, replace
from pathlib import Path


def N_(msgid: str) -> str:  # noqa: N802 - gettext's mark (hexnet.i18n's, without importing it)
    return msgid

LANG: list[str | None] = [None]  # the command line's --lang, read before the rest is parsed

NOT_A_NUMBER = N_("{flag} takes a number, not {value}")
NOT_WHOLE = N_("{flag} takes a whole number, not {value}")
AT_LEAST = N_("{flag} must be at least {low}, not {value}")
ABOVE = N_("{flag} must be above {low}, not {value}")
BETWEEN = N_("{flag} must be {low}–{high}, not {value}")
BETWEEN_SECONDS = N_("{flag} must be {low}–{high} seconds, not {value}")
ABOVE_UP_TO = N_("{flag} must be more than {low} and at most {high} seconds, not {value}")
NEVER_OR_BETWEEN = N_("{flag} must be {low}–{high} seconds or 0 (never), not {value}")
CANNOT_WRITE = N_("{flag}: cannot write {path}: {reason}")
IS_A_FOLDER = N_("it is a directory")
NOT_A_FOLDER = N_("{path} is a file, not a directory")


def say(msgid: str, **fields: object) -> str:
    """``msgid`` in the command line's language, filled in (i18n is imported only here, on
    the error path: ``hexnet --help`` stays fast)."""
    from hexnet.i18n import from_environment, translations

    return translations("interface", LANG[0] or from_environment()).gettext(msgid).format(
        **fields)


def _shown(x: float) -> str:
    return f"{x:g}"


@dataclass(frozen=True)
class Number:
    """A number option's type: ``kind`` (int or float), finite, within ``low``..``high``
    (``above``: strictly more than ``low``; ``never``: or exactly 0, which means never).
    ``flag`` is filled in by :func:`name_types` so the refusal names the option."""

    kind: type = int
    low: float | None = None
    high: float | None = None
    above: bool = False
    in_seconds: bool = False
    never: bool = False  # 0 is allowed too, and means "never"
    flag: str = ""

    def __call__(self, text: str) -> int | float:
        value = self.read(text)
        if value == 0 and self.never:
            return value
        if not self.holds(value):
            raise argparse.ArgumentTypeError(self.refusal(text))
        return value

    def read(self, text: str) -> int | float:
        """``text`` as a finite number of ``kind`` (a refusal otherwise)."""
        try:
            value = self.kind(text.strip())
        except ValueError:
            raise argparse.ArgumentTypeError(say(
                NOT_WHOLE if self.kind is int else NOT_A_NUMBER, flag=self.flag,
                value=repr(text))) from None
        if isinstance(value, float) and not math.isfinite(value):
            raise argparse.ArgumentTypeError(self.refusal(text))
        return value

    def holds(self, value: float) -> bool:
        """Whether ``value`` (finite) lies in the domain."""
        if self.low is not None and (value <= self.low if self.above else value < self.low):
            return False
        return self.high is None or value <= self.high

    def refusal(self, text: str) -> str:
        fields = {"flag": self.flag, "value": text.strip(), "low": _shown(self.low or 0),
                  "high": _shown(self.high or 0)}
        if self.never:
            return say(NEVER_OR_BETWEEN, **fields)
        if self.high is not None and self.above:
            return say(ABOVE_UP_TO, **fields)
        if self.high is not None:
            return say(BETWEEN_SECONDS if self.in_seconds else BETWEEN, **fields)
        if self.low is None:
            return say(NOT_A_NUMBER, **fields)
        return say(ABOVE if self.above else AT_LEAST, **fields)


def whole(low: int | None = None, high: int | None = None) -> Number:
    """A whole number from ``low`` to ``high`` (None: no bound)."""
    return Number(int, low, high)


def seconds(low: float, high: float | None = None, above: bool = False,
            never: bool = False) -> Number:
    """A number of seconds from ``low`` (``above``: more than it) to ``high`` (``never``: or
    0, which means never)."""
    return Number(float, low, high, above=above, in_seconds=True, never=never)


PORT = whole(0, 65535)  # 0: any free port
# a search bot's budget (hexnet.search.MAX_THINK and MAX_PLAYOUTS, not imported: --help stays
# fast; a test checks they agree)
THINK = seconds(0, 10.0, above=True)
PLAYOUTS = whole(1, 20_000)


@dataclass(frozen=True)
class OutputFile:
    """A file the command will write (``--out``, ``--json``): refused now unless it can be
    written — it is not a directory, and opening it for writing works (a file the probe made
    is removed again). ``folders``: the command makes missing folders on the way (the probe
    then writes in the nearest one that exists, which must be a directory)."""

    flag: str = ""
    folders: bool = False

    def __call__(self, text: str) -> str:
        path = Path(text)
        if path.is_dir():
            raise argparse.ArgumentTypeError(say(CANNOT_WRITE, flag=self.flag, path=text,
                                                 reason=say(IS_A_FOLDER)))
        probe = path
        if self.folders:
            folder = path.absolute().parent
            while not folder.exists() and folder != folder.parent:
                folder = folder.parent
            if not folder.is_dir():
                raise argparse.ArgumentTypeError(say(CANNOT_WRITE, flag=self.flag, path=text,
                                                     reason=say(NOT_A_FOLDER, path=folder)))
            if folder != path.absolute().parent:
                probe = folder / f".{path.name}.probe"
        existed = probe.exists()
        try:
            with probe.open("a", encoding="utf-8"):
                pass
        except OSError as exc:
            raise argparse.ArgumentTypeError(say(CANNOT_WRITE, flag=self.flag, path=text,
                                                 reason=exc.strerror or str(exc))) from None
        if not existed:
            probe.unlink(missing_ok=True)
        return text


# where a directory option keeps what (whole sentences: each language words them its own way)
KEY_FOLDER = N_("cannot keep the host key in {path} ({flag}): it is a file, not a directory")
JOURNAL_FOLDER = N_("cannot keep journals in {path} ({flag}): it is a file, not a directory")
IDENTITY_FOLDER = N_("cannot keep your identity in {path} ({flag}): it is a file, not a "
                     "directory")
CLUB_FOLDER = N_("cannot keep the club database in {path} ({flag}): it is a file, not a "
                 "directory")


@dataclass(frozen=True)
class Folder:
    """A directory the command keeps files in (``--data-dir``, ``--config-dir``), made when
    missing: refused now if it, or the nearest folder above it that exists, is a file."""

    refusal: str
    flag: str = ""

    def __call__(self, text: str) -> str:
        path = Path(text).absolute()
        while not path.exists() and path != path.parent:
            path = path.parent
        if not path.is_dir():
            raise argparse.ArgumentTypeError(say(self.refusal, flag=self.flag, path=text))
        return text


def name_types(parser: argparse.ArgumentParser) -> None:
    """Give every checked type in ``parser`` (and its subcommands) the name of its option."""
    for action in parser._actions:
        if isinstance(action.type, Number | OutputFile | Folder) and not action.type.flag:
            action.type = replace(action.type, flag=(action.option_strings or [action.dest])[0])
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                name_types(sub)


def one_line(parser: argparse.ArgumentParser) -> None:
    """``parser`` and its subcommands report a mistake in one line on stderr (``hexnet play:
    --port must be 0–65535, not 99999``) and exit 2 — no usage block."""
    def error(message: str) -> None:
        import sys

        name, _, rest = message.partition(": ")
        if name.startswith("argument ") and name[9:].split("/")[0] in rest:
            message = rest  # the check already names the option
        print(f"{parser.prog}: {message}", file=sys.stderr)
        sys.exit(2)

    parser.error = error  # type: ignore[method-assign]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                one_line(sub)
