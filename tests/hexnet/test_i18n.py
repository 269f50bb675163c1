"""Words at the edge: the catalogs are complete, every game reads in every language, and the
engines put no words (and no player names) into their events."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from rich.cells import cell_len

from hexnet import i18n
from hexnet.engine import IllegalAction
from hexnet.games import get_game
from hexnet.i18n import check
from hexnet.i18n.catalogs import catalog, from_environment, language_of

GAMES = {"hexenhammer": 4, "fang": 8, "hranice": 4}
# names with spaces and capitals: an event field holding one would fail the id pattern too
PLAYERS = ["Anna Kovács", "Bob Novák", "Cili Szabó", "Dan Müller", "Eva Horák", "Feri Tóth",
           "Gabi Weiß", "Hugo Dvořák"]
ID = re.compile(r"[a-z0-9_]+(-\d+)?(,[a-z0-9_]+(-\d+)?)*")
PLACEHOLDER = re.compile(r"[{}]")


def random_game(game: str, seed: int) -> tuple[Any, dict[str, Any], list[str]]:
    """A random game played to its end (timeouts applied when nobody is waited on); returns
    the engine, the final state and the labels of actions offered along the way (all of them
    at every 20th step, else the one chosen), each rendered in every language."""
    engine = get_game(game)
    players = PLAYERS[:GAMES[game]]
    state = engine.setup(players, seed, {})
    rng = random.Random(seed)
    labels: list[dict[str, Any]] = []
    for step in range(20_000):
        if engine.outcome(state) is not None:
            break
        waiting = engine.waiting_for(state)
        if not waiting:
            engine.apply(state, None, {"type": "timeout", "key": engine.deadline(state).key})
            continue
        seat = rng.choice(waiting)
        legal = engine.legal_actions(state, seat)
        action = rng.choice(legal)
        offered = legal if step % 20 == 0 else [action]
        labels += [engine.describe_action(state, seat, a) for a in offered]
        engine.apply(state, seat, action)
    assert engine.outcome(state) is not None, f"{game} seed {seed} did not end"
    return engine, state, labels


@pytest.fixture(scope="module", params=sorted(GAMES))
def played(request: pytest.FixtureRequest) -> tuple[str, dict[str, Any], list[dict]]:
    game = request.param
    _engine, state, labels = random_game(game, 11)
    return game, state, labels


def test_every_catalog_holds_every_key_the_code_uses_and_no_other() -> None:
    assert check.problems() == []


def test_the_catalog_check_reports_a_missing_and_an_unused_key() -> None:
    english = check._english("hexenhammer")
    wanted = {k: v for k, v in english.items() if k != ("log", "draws")}
    wanted[("log", "no_such_key")] = ["A line nobody wrote."]
    found = list(check._check_catalog("hexenhammer", "hu", wanted))
    assert "hu/hexenhammer.po: missing log|no_such_key" in found
    assert "hu/hexenhammer.po: unused log|draws" in found


def test_plural_forms_are_each_languages_own() -> None:
    counts = {lang: catalog("hexenhammer", lang).num_plurals for lang in i18n.LANGS}
    assert counts == {"en": 2, "hu": 2, "de": 2, "cs": 3}
    forms = {n: i18n.render("hranice", {"key": "draws", "seat": 0, "count": n}, ["Eva"], "cs")
             for n in (1, 3, 5, 21)}
    assert forms == {1: "Eva si líže 1 kartu.", 3: "Eva si líže 3 karty.",
                     5: "Eva si líže 5 karet.", 21: "Eva si líže 21 karet."}
    assert i18n.render("fang", {"key": "chief", "chief": 0, "count": 3}, ["Jonas"], "de") == (
        "Jonas ist Dorfvorsteher und schlägt 3 Katzen vor.")
    assert i18n.render("fang", {"key": "chief", "chief": 0, "count": 1}, ["Jonas"], "de") == (
        "Jonas ist Dorfvorsteher und schlägt 1 Katze vor.")


def test_a_list_of_players_is_joined_the_languages_way() -> None:
    event = {"key": "proposal", "members": [0, 1, 2]}
    names = ["Ada", "Bela", "Cora"]
    assert i18n.render("fang", event, names, "hu") == (
        "A varázskörbe javasolva: Ada, Bela és Cora.")
    assert i18n.render("fang", event, names, "de") == (
        "Vorgeschlagen für den Zauberkreis: Ada, Bela und Cora.")
    # Czech typography: a one-letter word never ends a line (CLDR puts a no-break space after)
    assert i18n.render("fang", event, names, "cs") == "Navrženi do kruhu: Ada, Bela a\xa0Cora."


def test_a_proposal_s_label_lists_its_circle_with_commas_only() -> None:
    # an action label is one line: a circle of six names fits 80 columns without "and"
    label = {"key": "propose", "members": [0, 1, 2]}
    names = ["Ada", "Bela", "Cora"]
    assert i18n.render_label("fang", label, names, "en") == "Propose Ada, Bela, Cora"
    assert i18n.render_label("fang", label, names, "de") == "Vorschlag: Ada, Bela, Cora"
    assert i18n.render_label("fang", label, names, "cs") == "Navrhnout: Ada, Bela, Cora"
    assert i18n.render_label("fang", label, names, "hu") == "Javaslat: Ada, Bela, Cora"


def test_a_missing_key_shows_as_itself_in_brackets_never_as_a_crash() -> None:
    assert i18n.render("fang", {"key": "no_such_event"}, [], "de") == "⟦no_such_event⟧"
    assert i18n.render("fang", {"key": "chief"}, [], "en") == "⟦chief⟧"  # no arguments


def test_every_event_of_a_random_game_reads_in_every_language(played) -> None:
    game, state, _labels = played
    for lang in i18n.LANGS:
        for event in state["log"]:
            line = i18n.render(game, event, state["players"], lang)
            assert i18n.MISSING.format(event["key"]) != line, (lang, event)
            assert not PLACEHOLDER.search(line), (lang, event, line)


def test_every_action_label_reads_in_every_language_on_one_80_column_line(played) -> None:
    game, state, labels = played
    for lang in i18n.LANGS:
        for label in labels:
            text = i18n.render_label(game, label, state["players"], lang)
            assert "⟦" not in text and not PLACEHOLDER.search(text), (lang, label, text)
            assert cell_len(text) <= 80, (lang, text)


def test_engines_put_no_words_and_no_player_names_into_events(played) -> None:
    game, state, _labels = played
    english = catalog(game, "en")
    keys = {m.id if isinstance(m.id, str) else m.id[0] for m in english if m.context == "log"}

    def strings(value: Any) -> list[str]:
        if isinstance(value, str):
            return [value]
        if isinstance(value, dict):
            return [s for k, v in value.items() for s in strings(k) + strings(v)]
        if isinstance(value, list | tuple):
            return [s for v in value for s in strings(v)]
        assert value is None or isinstance(value, bool | int), value
        return []

    for event in state["log"]:
        assert event["key"] in keys, event
        for text in strings(event):
            assert ID.fullmatch(text), f"free text in {event}: {text!r}"


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_names_fit_their_columns(lang: str) -> None:
    """Hexenhammer's villager column (11 cells), the hand list (31 cells after the mark) for
    Hexenhammer and Hranice cards, Fang's places and ingredients in the choice list."""
    from hexnet.games.hexenhammer import data as hh
    from hexnet.games.hranice import cards as hr

    for vid in hh.VILLAGERS:
        assert cell_len(i18n.word("hexenhammer", "villager", vid, lang)) <= 11, vid
    for kind, value in hh.full_deck():
        assert cell_len(i18n.show("hexenhammer", "label", kind, lang=lang, value=value)) <= 31
    for kind in hr.kinds():
        assert cell_len(i18n.word("hranice", "card", kind, lang)) <= 24, kind
    for place in ("wald", "brunnen", "kraeutergarten", "friedhof", "muehle", "teich"):
        assert cell_len(i18n.word("fang", "place", place, lang)) <= 18, place


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_refusals_read_in_every_language(lang: str) -> None:
    engine = get_game("hexenhammer")
    state = engine.setup(PLAYERS[:3], 5, {})
    idle = next(s for s in range(3) if s not in engine.waiting_for(state))
    for seat, action in ((idle, {"type": "pass"}), (engine.waiting_for(state)[0],
                                                     {"type": "discard", "card": "c1"})):
        with pytest.raises(IllegalAction) as refused:
            engine.apply(state, seat, action)
        text = i18n.render_reason(refused.value.game, refused.value.as_dict(),
                                  state["players"], lang)
        assert "⟦" not in text and not PLACEHOLDER.search(text), text
    with pytest.raises(IllegalAction) as refused:
        get_game("fang").setup(PLAYERS[:2], 1, {})
    assert refused.value.as_dict() == {"key": "players_out_of_range", "title": "Fang die Hexe",
                                       "low": 4, "high": 12, "count": 2}


def test_a_refusal_is_english_for_logs() -> None:
    engine = get_game("hranice")
    state = engine.setup(PLAYERS[:2], 3, {})
    idle = 1 - engine.waiting_for(state)[0]
    with pytest.raises(IllegalAction) as refused:
        engine.apply(state, idle, {"type": "draw"})
    assert refused.value.key == "not_your_turn"
    assert refused.value.reason == str(refused.value) == "It is not your turn to act."


@pytest.mark.parametrize(("value", "lang"), [
    ("hu_HU.UTF-8", "hu"), ("de_AT", "de"), ("cs_CZ.utf8@euro", "cs"), ("en_GB.UTF-8", "en"),
    ("C", "en"), ("POSIX", "en"), ("fr_FR.UTF-8", None), ("", None)])
def test_a_locale_name_means_a_language(value: str, lang: str | None) -> None:
    assert language_of(value) == lang


def test_the_locale_decides_lc_all_first_then_lc_messages_then_lang() -> None:
    assert from_environment({"LANG": "de_DE.UTF-8"}) == "de"
    assert from_environment({"LC_MESSAGES": "cs_CZ", "LANG": "de_DE"}) == "cs"
    assert from_environment({"LC_ALL": "hu_HU", "LC_MESSAGES": "cs_CZ"}) == "hu"
    assert from_environment({"LANG": "fr_FR.UTF-8"}) == "en"
    assert from_environment({}) == "en"


@pytest.mark.parametrize("points", [1, 3, 5])
def test_czech_influence_from_the_pyre_reads_right_for_any_number(points: int) -> None:
    """No noun agrees with the number (3 trvalé body, 5 trvalých bodů): the sentence reads
    for every count the table's rules may give."""
    event = {"key": "ignites", "seat": 0, "card": "kovar", "points": points}
    assert i18n.render("hranice", event, ["Eva"], "cs") == (
        f"Hranice hoří! Eva si bere kartu Kovář: trvalý vliv +{points}.")
