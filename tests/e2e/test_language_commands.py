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


@pytest.mark.parametrize(("lang", "note"), [
    ("hu", "hexnet rules: a szabályok (hranice) még nincsenek meg ezen a nyelven: Magyar"),
    ("de", "hexnet rules: für hranice gibt es noch keinen Text auf Deutsch; hier auf Englisch."),
    ("cs", "hexnet rules: pro hranice zatím není text v jazyce Čeština; zde je anglicky.")])
def test_rules_without_a_translation_print_english_with_a_note(lang: str, note: str) -> None:
    try:
        rules_text("hranice", lang)
        pytest.skip(f"seeds/rules/hranice.{lang}.md exists")
    except FileNotFoundError:
        pass
    result = run("rules", "hranice", "--lang", lang)
    assert result.returncode == 0
    assert result.stdout == rules_text("hranice")
    assert result.stderr.startswith(note)


def test_the_locale_chooses_the_language_when_no_flag_does() -> None:
    result = run("list", "--timeout", "0.1", "--interface", "127.0.0.1",
                 LANG="de_DE.UTF-8")
    assert result.returncode == 0
    assert "keine hexnet-Hosts gefunden" in result.stderr
    result = run("list", "--timeout", "0.1", "--interface", "127.0.0.1", "--lang", "cs",
                 LANG="de_DE.UTF-8", LC_ALL="hu_HU.UTF-8")
    assert "žádní hostitelé hexnet nenalezeni" in result.stderr
