"""The tutorials (``hexnet play GAME --tutorial``) as games: each plays to its end along the
line its hints suggest, the same way every time, with a hint for every view of the player in
every language."""

from __future__ import annotations

import random

import pytest

from hexnet.games import get_game, get_policy
from hexnet.i18n import LANGS, MISSING
from hexnet.tutorial import available, hint, hint_text, load

# The player's moves along the hints (an index into the legal actions, or an action).
LINES = {
    "hexenhammer": [{"type": "play", "card": "gegenanklage"}, "pass", {"type": "call_inquisition"},
                    "pass", "pass", "pass"],
    "fang": [{"type": "pick", "place": "brunnen"}, "confirm", {"type": "see", "target": 2},
             "end_talk", {"type": "propose", "members": "0,1,2"},
             {"type": "vote_proposal", "yes": True}, "confirm", "lay", "confirm",
             {"type": "vote", "target": 2}],
    "hranice": [{"type": "citizen", "card": "rolnik"}, {"type": "accuse", "target": "knez-1"},
                "pass", "pass", {"type": "react", "card": "alibi"}, "pass", "pass", "pass", "pass"],
}
ENDS = {  # what each tutorial's line ends with
    "hexenhammer": {"winners": [0], "scores": [7, 2, 0]},
    "fang": {"winners": [0, 1, 3], "reason": "knights_witch"},
    "hranice": {"winners": [0], "result": "win"},
}


def _pick(move, legal, hand):
    if isinstance(move, str):
        return next(a for a in legal if a["type"] == move)
    if move.get("type") == "play":  # a card named by kind: the first of that kind in hand
        ids = [c["id"] for c in hand if c["kind"] == move["card"]]
        return next(a for a in legal if a["type"] == "play" and a["card"] in ids)
    found = next((a for a in legal if all(a.get(k) == v for k, v in move.items())), None)
    assert found is not None, f"{move} is not legal now: {legal}"
    return found


def play_line(game: str, moves: list | None = None):
    """Play the tutorial of ``game`` with its bots and the player's line (``moves``: another
    line, played until it runs out); (state, the player's views and legal actions)."""
    tut = load(game)
    engine = get_game(game)
    players = ["Ada"] + [f"bot {i + 1}" for i in range(1, tut.seats)]
    state = engine.setup(players, tut.seed, tut.options)
    bots = get_policy(game, "tutorial")
    line = list(LINES[game] if moves is None else moves)
    views = []
    for _ in range(500):
        if engine.outcome(state) is not None:
            break
        waiting = engine.waiting_for(state)
        if not waiting:
            engine.apply(state, None, {"type": "timeout", "key": engine.deadline(state).key})
            continue
        others = [s for s in waiting if s != tut.seat]
        if others:
            seat = others[0]
            view = engine.view(state, seat)
            engine.apply(state, seat, bots(view, engine.legal_actions(state, seat),
                                           random.Random(99)))
            continue
        view, legal = engine.view(state, tut.seat), engine.legal_actions(state, tut.seat)
        views.append((view, legal))
        if moves is not None and not line:
            return state, views
        assert line, f"the line ran out; the player may do {legal}"
        engine.apply(state, tut.seat, _pick(line.pop(0), legal, view.get("hand") or []))
    views.append((engine.view(state, tut.seat), []))
    return state, views


def test_every_game_has_a_tutorial():
    assert available() == sorted(LINES)


@pytest.mark.parametrize("game", sorted(LINES))
def test_the_tutorial_ends_the_way_its_hints_lead(game):
    state, views = play_line(game)
    outcome = get_game(game).outcome(state)
    assert outcome is not None and len(views) <= 40
    assert {k: outcome[k] for k in ENDS[game]} == ENDS[game]


@pytest.mark.parametrize("game", sorted(LINES))
def test_the_tutorial_plays_the_same_every_time(game):
    first, _ = play_line(game)
    second, _ = play_line(game)
    assert first["log"] == second["log"]


@pytest.mark.parametrize("game", sorted(LINES))
def test_every_view_of_the_player_has_a_hint_in_every_language(game):
    _, views = play_line(game)
    for view, legal in views:
        assert hint(game, view, legal) is not None, view
        for lang in LANGS:
            text = hint_text(game, view, legal, lang)
            assert text and "⟦" not in text and MISSING.format("") not in text, (lang, text)


def test_the_hexenhammer_hint_names_the_reaction_that_saves_your_villager():
    _, views = play_line("hexenhammer")
    first, legal = views[0]
    assert hint("hexenhammer", first, legal) == {
        "key": "counter", "answer": "gegenanklage", "player": 2, "kind": "falsches_zeugnis",
        "value": 3, "target": "karl", "accuser": "theresa",
        "owners": {"karl": 0, "luitger": 0, "maria": 1, "theresa": 2}}
    assert hint_text("hexenhammer", first, legal, "en").startswith(
        "Theresa accuses your Karl with Falsches Zeugnis +3. Answer with Gegenanklage")
    assert hint_text("hexenhammer", first, legal, "hu").startswith(
        "Vádló: Theresa, vádlott: a te falusid, Karl (Hamis vád +3). Válaszolj ezzel: "
        "Viszonvád")


def test_the_end_hint_explains_the_score_from_the_outcome():
    _, views = play_line("hexenhammer")
    final, _ = views[-1]
    assert hint_text("hexenhammer", final, [], "en") == (
        "The game is over: only 3 villagers live, no more than the players. You score 7: 6 for "
        "the pentagrams of your living villagers, 1 for the matches of the villagers you took "
        "as the inquisitor, 0 for trial cards you kept and 0 for empty stakes in front of the "
        "others. Most points win: Ada.")


def test_tutorial_bots_follow_their_script_where_it_is_legal():
    choose = get_policy("fang", "tutorial")
    view = {"game": "fang", "seat": 2, "state_id": 5}
    legal = [{"type": "attack", "target": 1}, {"type": "attack", "target": 3},
             {"type": "no_attack"}]
    assert choose(view, legal, random.Random(1)) == {"type": "attack", "target": 3}


def test_a_hranice_hint_says_to_stop_a_rival_whose_token_is_active_before_anything_else():
    # Ada draws instead of accusing: bot 2 burns her Kovář, bot 3 turns its token active with
    # 10 influence. On her next turn Kat would give her 7, but bot 3's turn comes first.
    _, views = play_line("hranice", [{"type": "citizen", "card": "rolnik"}, "draw",
                                     {"type": "react", "card": "alibi"}, "pass", "pass",
                                     "pass"])
    view, legal = views[-1]
    assert (view["turn"], view["tokens"], view["influence"]) == (0, [False, False, True],
                                                                 [2, 4, 10])
    assert hint("hranice", view, legal) == {"key": "stop_token", "player": 2, "influence": 10,
                                            "target": 5}
    assert hint_text("hranice", view, legal, "en").startswith(
        "bot 3's dominance token is active with 10 influence: they win as their turn begins")
