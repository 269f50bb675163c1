"""Every game has its rules text in every language, and each translation stays in step with the
English text (``seeds/rules/<game>.md``): the same headings level by level, the same number of
table rows, the same backticked ids, keys and option names (each as often), the same number of
marked rulings, and no prose line left in English. A change to one text that is not carried into
the others fails here instead of drifting silently. The English text marks the rulings issue 17
names and quotes the defaults of the seed tables as they are.
"""

from __future__ import annotations

import re
from collections import Counter
from importlib import resources
from importlib.resources.abc import Traversable

import pytest

from hexnet.cli import GAMES
from hexnet.seeds import table

LANGS = ("hu", "de", "cs")
# The word each text uses to mark a ruling: "**Ruling — …**" or "**Ruling:**".
RULING_WORD = {"en": "Ruling", "hu": "Döntés", "de": "Regelentscheidung", "cs": "Rozhodnutí"}
HEADING = re.compile(r"^(#+) ", re.MULTILINE)
TICKED = re.compile(r"`([^`]+)`")  # a code span may run over a line break
WORD = re.compile(r"[^\W\d_]+")
# Rulings issue 17 asks to be marked as rulings, by the title each has in the English text.
MARKED = {
    "hexenhammer": ("the caller of a cancelled Inquisition does not draw",
                    "the inquisitor does not answer a trial with its twin"),
    "fang": ("the pond as a place", "three submissions"),
    "hranice": ("reaction priority", "the 60-round cap"),
}
# English words no translation keeps: a line with one of them left as in English is untranslated.
ENGLISH = frozenset({"the", "and", "of", "to", "is", "it", "with", "when", "you", "your"})


def path(game: str, lang: str = "en") -> Traversable:
    name = f"{game}.md" if lang == "en" else f"{game}.{lang}.md"
    return resources.files("seeds").joinpath("rules", name)


def text(game: str, lang: str = "en") -> str:
    return path(game, lang).read_text("utf-8")


def headings(md: str) -> list[int]:
    return [len(m.group(1)) for m in HEADING.finditer(md)]


def ticked(md: str) -> Counter[str]:
    """The backticked tokens, each with its whitespace as one space (as Markdown shows it)."""
    return Counter(" ".join(token.split()) for token in TICKED.findall(md))


def table_rows(md: str) -> int:
    return sum(1 for line in md.splitlines() if line.startswith("|"))


def rulings(md: str, lang: str) -> int:
    return len(re.findall(rf"\*\*{RULING_WORD[lang]}(?: —|:\*\*)", md))


def prose_lines(md: str) -> set[str]:
    """Lines of English running text: six words or more outside backticks, some of them the
    little words of English (lines of ids, numbers or names are the same in every language)."""
    out = set()
    for line in md.splitlines():
        words = WORD.findall(TICKED.sub("", line))
        if len(words) >= 6 and ENGLISH & {w.lower() for w in words}:
            out.add(line.strip())
    return out


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_a_rules_text_in_every_language(game: str, lang: str) -> None:
    assert path(game, lang).is_file(), f"seeds/rules/{game}.{lang}.md is missing"
    assert text(game, lang).startswith("# ")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_translation_has_the_english_headings_and_tables(game: str, lang: str) -> None:
    english, translated = text(game), text(game, lang)
    assert headings(translated) == headings(english)
    assert table_rows(translated) == table_rows(english)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_translation_keeps_every_id_and_option_name(game: str, lang: str) -> None:
    english, translated = ticked(text(game)), ticked(text(game, lang))
    assert {"missing": english - translated, "extra": translated - english} == {
        "missing": Counter(), "extra": Counter()}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_translation_marks_every_ruling(game: str, lang: str) -> None:
    assert rulings(text(game, lang), lang) == rulings(text(game), "en") > 0


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_translation_leaves_no_english_prose(game: str, lang: str) -> None:
    assert prose_lines(text(game, lang)) & prose_lines(text(game)) == set()


@pytest.mark.parametrize("game", GAMES)
def test_english_text_marks_the_rulings_of_issue_17(game: str) -> None:
    md = text(game)
    assert [title for title in MARKED[game] if f"**Ruling — {title}" not in md] == []


def quoted_defaults(game: str) -> list[str]:
    """What the English text says about each default the seed table holds."""
    data = table(game)
    if game == "hexenhammer":
        rules = data["rules"]
        return [f"(`panic_seconds`, default {rules['panic_seconds']:g} s;",
                f"(`reaction_seconds`, default {rules['reaction_seconds']:g} s)"]
    if game == "hranice":
        rules = data["game"]
        return [f"default {rules['turn_cap_rounds']} rounds = {rules['turn_cap_rounds']} ×",
                f"(option `reaction_seconds`, default {rules['reaction_seconds']} s)",
                f"`reaction_seconds` ({rules['reaction_seconds']};"]
    return ([f"at most {data['game']['max_changes']} times (table option `max_changes`)"]
            + [f"| `{timer}_seconds` | {seconds} s" for timer, seconds in data["timers"].items()])


@pytest.mark.parametrize("game", GAMES)
def test_english_text_quotes_the_defaults_of_the_seed_tables(game: str) -> None:
    md = " ".join(text(game).split())
    assert [quote for quote in quoted_defaults(game) if quote not in md] == []


# how each language would name one of the project's issues ("issue 17", "a 17-es hibajegy")
ISSUE = re.compile(r"\b(issue|úloha|hibajegy)\s+\d+|\d+-(es|as|os|ös) hibajegy", re.IGNORECASE)


@pytest.mark.parametrize("lang", ("en", *LANGS))
@pytest.mark.parametrize("game", GAMES)
def test_a_rules_text_speaks_to_players_not_of_the_projects_issues(game: str, lang: str) -> None:
    """Issue 26, item 5: the rules text a player reads mentioned "issue 17"."""
    assert ISSUE.findall(text(game, lang)) == []


def test_no_game_option_describes_itself_by_the_projects_issues() -> None:
    from hexnet.games import get_game

    described = {game: get_game(game).options_help for game in GAMES}
    assert [(g, k) for g, d in described.items() for k, v in d.items() if ISSUE.search(v)] == []
