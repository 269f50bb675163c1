"""Every command-line mistake is one line and is caught before any work starts (issue 26, item
3): every number, file and folder option of every ``hexnet`` command declares its domain where
it is declared, and a value outside it is refused while the command line is read — one line on
stderr, exit 2. The walk below tries each typed option of each command with what lies outside
its domain; the processes below it are the mistakes the issue met (a traceback, or a refusal
after the whole job had run)."""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from hexnet import search
from hexnet.cli import build_parser, checks, main, parse

HEXNET = [sys.executable, "-m", "hexnet.cli"]
# what a command needs besides the option under test, so that only that option can be wrong
NEEDS = {"bot": ["127.0.0.1:1"], "rules": ["fang"], "verify": ["x.journal"],
         "tournament": ["--game", "hranice", "--players", "4", "--bots", "random"]}


def commands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
             ) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    """Every (sub)command: its words and its parser."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield (*path, name), sub
                yield from commands(sub, (*path, name))


def typed_options() -> list[tuple[tuple[str, ...], argparse.Action]]:
    return [(words, action) for words, sub in commands(build_parser())
            for action in sub._actions if action.type is not None and action.option_strings]


def outside(kind: object, tmp: Path) -> list[str]:
    """Values outside a type's domain."""
    if isinstance(kind, checks.OutputFile):  # (--results makes its folders: not missing ones)
        (tmp / "a-file").write_text("")
        return [str(tmp / "a-file" / "x.json"), str(tmp)] + (
            [] if kind.folders else [str(tmp / "missing" / "x.json")])
    if isinstance(kind, checks.Folder):
        (tmp / "a-file").write_text("")
        return [str(tmp / "a-file"), str(tmp / "a-file" / "below")]
    assert isinstance(kind, checks.Number)
    bad = ["x", "", "nan", "inf", "-inf", "1e999"] + (["1.5"] if kind.kind is int else [])
    if kind.low is not None:
        bad.append(f"{kind.low:g}" if kind.above else f"{kind.low - 1:g}")
        bad.append(f"{kind.low - 0.5:g}" if kind.kind is float and not kind.above else bad[-1])
    if kind.high is not None:
        bad += [f"{kind.high + 1:g}", "9" * 30]
    return [v for v in bad if not (kind.never and v in ("0", "-0"))]


def argv_for(words: tuple[str, ...], flag: str, value: str) -> list[str]:
    needs = list(NEEDS.get(words[0], []))
    if flag in needs:
        i = needs.index(flag)
        del needs[i:i + 2]
    return [*words, *needs, f"{flag}={value}"]


def refusal(argv: list[str]) -> str:
    """What reading ``argv`` prints on stderr; fails unless it is refused with exit 2 (the
    command is never run: its arguments are only read)."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), pytest.raises(SystemExit) as ended:
        parse(argv)
    assert ended.value.code == 2, argv
    return err.getvalue()


def test_every_number_file_and_folder_option_declares_its_domain() -> None:
    unchecked = [f"{' '.join(words)} {action.option_strings[0]} ({action.type!r})"
                 for words, action in typed_options()
                 if not isinstance(action.type, checks.Number | checks.OutputFile
                                   | checks.Folder)]
    assert unchecked == []
    assert len(typed_options()) > 60  # every command's options, not a few


def test_every_typed_option_of_every_command_refuses_what_lies_outside_it_in_one_line(
        tmp_path) -> None:
    tried = 0
    for words, action in typed_options():
        flag = action.option_strings[0]
        for value in outside(action.type, tmp_path):
            argv = argv_for(words, flag, value)
            said = refusal(argv)
            assert said.count("\n") == 1 and "usage" not in said, (argv, said)
            assert said.startswith(f"hexnet {' '.join(words)}: ") and flag in said, (argv, said)
            tried += 1
        if isinstance(action.type, checks.Number):  # the domain's own edges are taken
            kind = action.type
            edges = [e for e in (kind.low, kind.high) if e is not None
                     and not (e == kind.low and kind.above)]
            for edge in edges:
                args = parse(argv_for(words, flag, f"{edge:g}"))
                assert getattr(args, action.dest) == edge, (words, flag, edge)
    assert tried > 400


def test_a_mistake_argparse_finds_itself_is_one_line_for_every_command() -> None:
    for words, _ in commands(build_parser()):
        said = refusal([*words, *NEEDS.get(words[0], []), "--no-such-option"])
        assert said.count("\n") == 1 and "usage" not in said, said
        assert said.startswith(f"hexnet {' '.join(words)}: "), said
    assert refusal(["frob"]).startswith("hexnet: argument COMMAND: invalid choice: 'frob'")
    assert refusal(["bot"]) == "hexnet bot: the following arguments are required: HOST[:PORT]\n"


def test_the_search_budgets_the_command_line_checks_are_the_search_bots() -> None:
    assert (checks.THINK.low, checks.THINK.high) == (0, search.MAX_THINK)
    assert (checks.PLAYOUTS.low, checks.PLAYOUTS.high) == (1, search.MAX_PLAYOUTS)


def test_a_refused_value_is_told_in_the_language_the_command_line_asks_for(capsys) -> None:
    try:
        assert main(["bot", "127.0.0.1:1", "--count", "0", "--lang", "hu"]) == 2
    finally:
        checks.LANG[0] = None
    assert capsys.readouterr().err == "hexnet bot: a --count legalább 1 legyen, nem 0\n"


def hexnet(tmp: Path, *args: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp / "cfg"), XDG_DATA_HOME=str(tmp / "data"))
    return subprocess.run(HEXNET + list(args), capture_output=True, text=True, timeout=timeout,
                          env=env, check=False, stdin=subprocess.DEVNULL, cwd=tmp)


def one_line(run: subprocess.CompletedProcess[str], said: str) -> None:
    assert run.returncode == 2, run.stdout + run.stderr
    assert run.stderr == said + "\n" and run.stdout == "", run.stdout + run.stderr


@pytest.mark.parametrize("command", ["play", "host"])
@pytest.mark.parametrize("port", ["99999", "-1"])
def test_a_port_outside_0_to_65535_is_one_line_not_an_overflow_error(tmp_path, command,
                                                                      port) -> None:
    one_line(hexnet(tmp_path, command, "--port", port),
             f"hexnet {command}: --port must be 0–65535, not {port}")


def test_replay_list_with_a_file_for_its_data_dir_is_one_line(tmp_path) -> None:
    (tmp_path / "notes").write_text("x")
    one_line(hexnet(tmp_path, "replay", "--list", "--data-dir", str(tmp_path / "notes")),
             f"hexnet replay: cannot keep journals in {tmp_path / 'notes'} (--data-dir): it "
             "is a file, not a directory")


def test_list_refuses_a_negative_timeout(tmp_path) -> None:
    one_line(hexnet(tmp_path, "list", "--timeout", "-1"),
             "hexnet list: --timeout must be 0.1–60 seconds, not -1")


@pytest.mark.parametrize("args", [
    ["bench", "--json", "{missing}/x.json"],
    ["tournament", "--game", "hranice", "--players", "4", "--bots", "random,random,random,random",
     "--rounds", "3", "--out", "{missing}/x.json"]])
def test_an_unwritable_output_file_is_refused_before_the_work_starts(tmp_path, args) -> None:
    argv = [a.format(missing=tmp_path / "missing") for a in args]
    run = hexnet(tmp_path, *argv, timeout=60)
    # refused as read, not after the job: the refusal is all there is — none of the work's
    # output came first (the bench prints each repeat's figures as it ends, the tournament
    # each table's result; a bench that started would not end within the minute at all)
    one_line(run, f"hexnet {argv[0]}: {argv[-2]}: cannot write {argv[-1]}: No such file or "
                  "directory")


@pytest.mark.parametrize("args,said", [
    (["play", "--players", "x"], "hexnet play: --players takes a whole number, not 'x'"),
    (["play", "--pace", "fast"], "hexnet play: argument --pace: invalid choice: 'fast' "
                                 "(choose from 'relaxed', 'normal', 'quick')"),
    (["bot"], "hexnet bot: the following arguments are required: HOST[:PORT]"),
    (["frob"], "hexnet: argument COMMAND: invalid choice: 'frob' (choose from 'play', 'host', "
               "'drill', 'join', 'list', 'bot', 'tournament', 'selfplay', 'replay', 'verify', "
               "'rules', 'bench', 'stats', 'db')"),
    (["join", "--nme"], "hexnet join: unrecognized arguments: --nme")])
def test_an_argparse_mistake_is_the_one_line_the_readme_promises(tmp_path, args, said) -> None:
    one_line(hexnet(tmp_path, *args), said)
