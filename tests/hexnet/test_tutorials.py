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
    "fang": ["ready", {"type": "witch_place", "place": "wald"}, {"type": "spell", "spell": "none"},
             {"type": "attack", "target": 1}, "confirm", "end_talk",
             {"type": "propose", "members": "0,2"}, {"type": "vote_proposal", "yes": True},
             "confirm", {"type": "lay", "card": "fluchkraut"}, "confirm",
             {"type": "vote", "target": 2}],
    "hranice": [{"type": "citizen", "card": "rolnik"}, {"type": "accuse", "target": "knez-1"},
                "pass", "pass"] + [{"type": "react", "card": "alibi"}] * 3,
}
ENDS = {  # what each tutorial's line ends with
    "hexenhammer": {"winners": [0], "scores": [7, 2, 0]},
    "fang": {"winners": [0], "result": "witches"},
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
    view = {"game": "fang", "seat": 3, "state_id": 5}
    legal = [{"type": "vote", "target": 0}, {"type": "vote", "target": 2}, {"type": "abstain"}]
    assert choose(view, legal, random.Random(1)) == {"type": "vote", "target": 2}


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


# -- Hranice: won by the hints whatever the dice (issue 26, item 7) ---------------------------

def hinted(view, legal) -> list[dict]:
    """The player's actions the Hranice hint for ``view`` names (every one of them)."""
    h = hint("hranice", view, legal)
    key = h["key"]

    def of(*types):
        return [a for a in legal if a["type"] in types]

    def cards(*kinds):
        return [a for a in legal if a.get("card") in kinds]

    def accusing(player):
        owned = set(view["councils"][player])
        return [a for a in of("accuse") if a["target"] in owned]

    return {
        "reach": lambda: [a for a in of("citizen") if a["card"] == h["card"]],
        "hold": lambda: of("accuse", "draw"),
        "alibi": lambda: cards("alibi") + (of("pass") if "trust the die" in hint_text(
            "hranice", view, legal, "en") else []),
        "accused": lambda: of("pass"),
        "roll": lambda: of("pass") + cards("uplatek", "svedek"),
        "to_pyre": lambda: of("pass") + cards("primluva"),
        "protest": lambda: of("pass") + cards("protest"),
        "discard": lambda: of("discard"),
        "stop_token": lambda: accusing(h["player"]),
        "accuse_leader": lambda: accusing(h["player"]),
        "play_citizen": lambda: of("citizen", "draw", "accuse"),
    }.get(key, lambda: list(legal))()


def every_ending(game: str = "hranice"):
    """Every way the tutorial can end when the player does only what the hints say, each die
    showing any of its six faces: (the outcome, the dice rolled) for each."""
    import copy

    tut = load(game)
    engine = get_game(game)
    bots = get_policy(game, "tutorial")
    start = engine.setup(["Ada"] + [f"bot {i + 1}" for i in range(1, tut.seats)], tut.seed,
                         tut.options)
    start["dice"] = []  # every roll is one of the branches below
    todo = [(start, ())]
    while todo:
        state, rolled = todo.pop()
        while engine.outcome(state) is None:
            waiting = engine.waiting_for(state)
            assert waiting, "Hranice's tutorial has no host-timed step"
            seat = next((s for s in waiting if s != tut.seat), tut.seat)
            view, legal = engine.view(state, seat), engine.legal_actions(state, seat)
            choices = ([bots(view, legal, random.Random(99))] if seat != tut.seat
                       else hinted(view, legal))
            assert choices, (hint(game, view, legal), legal)
            branches = []
            for action in choices:
                for face in range(1, 7):
                    after = copy.deepcopy(state)
                    after["dice"] = [face]
                    engine.apply(after, seat, action)
                    if after["dice"]:  # no die was rolled: one branch, not six
                        after["dice"] = []
                        branches.append((after, rolled))
                        break
                    branches.append((after, (*rolled, face)))
            (state, rolled), more = branches[0], branches[1:]
            todo += more
        yield engine.outcome(state), rolled


def test_the_hranice_tutorial_is_won_by_its_hints_whatever_the_dice_show():
    endings = list(every_ending())
    lost = [rolled for outcome, rolled in endings if outcome.get("winners") != [0]]
    assert lost == [], f"{len(lost)} of {len(endings)} ways lose, e.g. dice {lost[:3]}"
    assert len(endings) > 6  # dice were rolled along the way, and every face was tried


def test_the_fang_tutorial_is_a_whole_day_from_the_witches_side():
    """Issue 26, item 7: it started on day 5, the knights' day, with the player the seer: a
    new player never saw a whole day, nor the witches' side. Now: day 1 from the role card to
    the vote, as the witch — her window (place, spell, attack), the circle she gets into and
    spoils, the vote — and the witches win."""
    _, views = play_line("fang")
    scenes = [view.get("scene") for view, legal in views if legal]
    assert scenes == ["ready", "witches", "witches", "witches", "announce", "talk", "proposal",
                      "proposal_vote", "proposal_result", "ritual", "ritual_result", "vote"]
    assert {view["day"] for view, legal in views[1:] if legal} == {1}  # (0: before day 1)
    assert views[0][0]["role"] == "hexe"
    keys = [hint("fang", view, legal)["key"] for view, legal in views]
    assert keys[1:4] == ["witch_place", "witch_spell", "witch_attack"]
    assert {"propose_as_witch", "lay_witch", "vote_as_witch", "over_won"} <= set(keys)
