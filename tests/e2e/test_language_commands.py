"""The commands in the reader's language: ``--lang`` on every client command, the locale as the
default, ``hexnet rules`` falling back to English with a note in the reader's language."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from hexnet.seeds import rules_text

pytestmark = pytest.mark.timeout(60)
HEXNET = [sys.executable, "-m", "hexnet.cli"]


def run(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG")}
    return subprocess.run([*HEXNET, *args], capture_output=True, text=True, timeout=30,
                          env={**base, **env})


@pytest.mark.parametrize("command", ["play", "join", "list", "bot", "replay", "rules"])
def test_every_client_command_takes_a_language(command: str) -> None:
    result = run(command, "--help")
    assert result.returncode == 0, result.stderr
    assert "--lang {en,hu,de,cs}" in result.stdout


def test_a_language_hexnet_does_not_speak_is_refused_in_one_line() -> None:
    result = run("rules", "fang", "--lang", "fr")
    assert result.returncode == 2
    assert "invalid choice: 'fr'" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("lang", ["en", "hu", "de", "cs"])
def test_rules_print_the_text_of_the_chosen_language(lang: str) -> None:
    result = run("rules", "hranice", "--lang", lang)
    assert result.returncode == 0 and result.stderr == ""
    assert result.stdout == rules_text("hranice", lang)
    assert (result.stdout == rules_text("hranice")) == (lang == "en")


@pytest.mark.parametrize(("lang", "note"), [
    ("hu", "hexnet rules: a szabályok (fang) még nincsenek meg ezen a nyelven: Magyar"),
    ("de", "hexnet rules: für fang gibt es noch keinen Text auf Deutsch; hier auf Englisch."),
    ("cs", "hexnet rules: pro fang zatím není text v jazyce Čeština; zde je anglicky.")])
def test_rules_without_a_translation_print_english_with_a_note(
        lang: str, note: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Every rules text has its translations today; a game added later may not."""
    import hexnet.seeds
    from hexnet import cli

    real = hexnet.seeds.rules_text

    def english_only(game: str, language: str = "en") -> str:
        if language != "en":
            raise FileNotFoundError(f"{game}.{language}.md")
        return real(game)

    monkeypatch.setattr(hexnet.seeds, "rules_text", english_only)
    assert cli.main(["rules", "fang", "--lang", lang]) == 0
    out, err = capsys.readouterr()
    assert out == real("fang") and err.startswith(note)


@pytest.mark.mdns("alone")  # no host heard
def test_the_locale_chooses_the_language_when_no_flag_does() -> None:
    result = run("list", "--timeout", "0.1", "--interface", "127.0.0.1",
                 LANG="de_DE.UTF-8")
    assert result.returncode == 0
    assert "keine hexnet-Hosts gefunden" in result.stderr
    result = run("list", "--timeout", "0.1", "--interface", "127.0.0.1", "--lang", "cs",
                 LANG="de_DE.UTF-8", LC_ALL="hu_HU.UTF-8")
    assert "žádní hostitelé hexnet nenalezeni" in result.stderr


def test_the_readme_names_every_command_that_takes_a_language() -> None:
    """The README's "Your language" lists each client command with --lang (host's --lang is the
    headless log's, said in the same section)."""
    from pathlib import Path

    from hexnet.cli import build_parser

    parser = build_parser()
    commands = next(a for a in parser._actions if a.dest == "command").choices
    with_lang = {name for name, sub in commands.items()
                 if any("--lang" in a.option_strings for a in sub._actions)}
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text("utf-8")
    section = readme.split("## Your language", 1)[1].split("\n## ", 1)[0]
    assert with_lang - {"host"} == {"play", "join", "list", "bot", "replay", "rules"}
    for name in with_lang - {"host"}:
        assert f"`{name}`" in section, name
    assert "hexnet host --headless" in section and "`--lang`" in section


@pytest.mark.parametrize(("args", "said"), [
    (["join", "--watch", "1", "--lang", "de"],
     "hexnet join: --watch braucht einen HOST, bei dem zugeschaut wird"),
    (["bot", "127.0.0.1:1", "--game", "fang", "--count", "0", "--lang", "hu"],
     "hexnet bot: a --count legalább 1 legyen, nem 0"),
    (["bot", "127.0.0.1:1", "--count", "2", "--seats", "4", "--lang", "cs"],
     "hexnet bot: --seats udává velikost nového stolu; turnaj své účastníky usazuje sám")])
def test_a_client_commands_mistakes_are_told_in_its_language(args: list[str], said: str) -> None:
    result = run(*args)
    assert result.returncode == 2
    assert result.stderr.strip() == said
