"""The engine's presence action (issue 14, item 1): a log line as data, words in every language,
the game itself untouched; a malformed one refused with nothing changed."""

from __future__ import annotations

import copy

import pytest

from hexnet import i18n
from hexnet.engine import IllegalAction
from hexnet.games import get_game

PLAYERS = ["Anna", "Béla", "Cili"]


@pytest.fixture(params=["hexenhammer", "hranice", "fang"])
def game(request):
    engine = get_game(request.param)
    players = PLAYERS + (["Dora", "Emil", "Feri"] if request.param == "fang" else [])
    return engine, engine.setup(players, 5, {})


EXPECTED = {
    "en": "Béla lost the connection and is reconnecting; absent in 45 seconds unless back.",
    "hu": "Béla elvesztette a kapcsolatot, újracsatlakozik; 45 másodperc múlva távollévő, ha "
          "nem tér vissza.",
    "de": "Béla hat die Verbindung verloren und verbindet neu; in 45 Sekunden abwesend, falls "
          "nicht zurück.",
    "cs": "Béla ztratil spojení a připojuje se znovu; za 45 sekund nepřítomen, pokud se "
          "nevrátí.",
}
DISCONNECTED = {
    "en": "Béla is disconnected; absent in 45 seconds unless back.",
    "hu": "Béla nincs kapcsolatban; 45 másodperc múlva távollévő, ha nem tér vissza.",
    "de": "Béla ist nicht verbunden; in 45 Sekunden abwesend, falls nicht zurück.",
    "cs": "Béla není připojen; za 45 sekund nepřítomen, pokud se nevrátí.",
}


@pytest.mark.parametrize("lang", sorted(EXPECTED))
def test_a_lost_connection_is_a_log_line_in_every_language(game, lang) -> None:
    engine, state = game
    before = {k: v for k, v in state.items() if k not in ("log", "version")}
    events = engine.apply(state, None, {"type": "presence", "seat": 1, "state": "reconnecting",
                                        "count": 45})
    assert events == [{"n": len(state["log"]) - 1, "key": "presence_reconnecting", "seat": 1,
                       "count": 45}]
    assert {k: v for k, v in state.items() if k not in ("log", "version")} == before
    assert i18n.render(engine.name, events[0], state["players"], lang) == EXPECTED[lang]


@pytest.mark.parametrize("lang", sorted(DISCONNECTED))
def test_a_closed_client_is_a_disconnected_line_not_a_reconnecting_one(game, lang) -> None:
    engine, state = game
    events = engine.apply(state, None, {"type": "presence", "seat": 1, "state": "disconnected",
                                        "count": 45})
    assert [e["key"] for e in events] == ["presence_disconnected"]
    assert i18n.render(engine.name, events[0], state["players"], lang) == DISCONNECTED[lang]


def test_every_presence_line_has_words_in_every_language(game) -> None:
    engine, state = game
    for what, count in (("lost", 0), ("gone", 0), ("reconnecting", 9), ("disconnected", 9),
                        ("back", 0), ("absent", 0), ("bot", 0), ("played", 3)):
        event = engine.apply(state, None, {"type": "presence", "seat": 2, "state": what,
                                           "count": count})[0]
        for lang in i18n.LANGS:
            text = i18n.render(engine.name, event, state["players"], lang)
            assert "Cili" in text or what == "played", (what, lang, text)
            assert "⟦" not in text, (what, lang, text)


def test_what_was_played_for_a_player_is_told_to_them_only(game) -> None:
    engine, state = game
    event = engine.apply(state, None, {"type": "presence", "seat": 0, "state": "played",
                                       "count": 2})[0]
    assert event["to"] == [0]
    assert event not in engine.view(state, 1)["log"]
    assert i18n.render(engine.name, event, state["players"], "en") == (
        "While you were away 2 moves were played for you (see the log above).")


@pytest.mark.parametrize("action", [
    {"type": "presence", "seat": 9, "state": "back", "count": 0},
    {"type": "presence", "seat": 0, "state": "asleep", "count": 0},
    {"type": "presence", "seat": 0, "state": "back", "count": -1},
    {"type": "presence", "seat": 0, "state": "back"},
])
def test_a_malformed_presence_action_is_refused_and_changes_nothing(game, action) -> None:
    engine, state = game
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction):
        engine.apply(state, None, action)
    assert state == before
