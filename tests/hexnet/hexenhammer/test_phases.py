"""Phase transitions, the stake's floor and cap, the end of the game and scoring."""

import pytest

from hexnet.engine import IllegalAction
from hexnet.games.hexenhammer import GAME
from tests.hexnet.hexenhammer.util import card, close_window, play, scenario, start, susp

ROWS = [["theresa", "heinbichl"], ["karl", "maria"], ["raphael", "bertram"]]
PASS = {"type": "pass"}


def game(hands=None, **extra):
    extra.setdefault("turn", 0)
    return start(scenario(ROWS, hands or [[], [], []], **extra))


def test_a_fresh_game_deals_three_villagers_and_six_cards_and_berta_begins():
    st = GAME.setup(["a", "b", "c", "d"], 7, {})
    assert sorted(len([v for v in st["villagers"].values() if v["owner"] == s])
                  for s in range(4)) == [3, 3, 3, 3]
    assert [len(h) for h in st["hands"]] == [6, 6, 6, 6] and len(st["deck"]) == 78 - 24
    assert GAME.waiting_for(st) == [st["villagers"]["berta"]["owner"]]
    assert set(st["villagers"]) <= {
        "heinbichl", "theresa", "berta", "raphael", "bertram", "maria", "luitger", "markwart",
        "karl", "griseldis", "katharina", "tochter"}


def test_passing_in_phase_one_draws_one_card_and_ends_the_turn():
    st = game(deck=["beweys:1", "beweys:2"])
    GAME.apply(st, 0, PASS)
    assert [st["cards"][c] for c in st["hands"][0]] == [["beweys", 1]]
    assert GAME.waiting_for(st) == [1]


def test_each_villager_accuses_at_most_once_per_turn():
    st = game([["verleumdung", "verleumdung", "verleumdung"], [], []], deck=["beweys:1"])
    play(st, 0, "verleumdung", accuser="theresa", target="karl")
    close_window(st)
    accusers = {a.get("accuser") for a in GAME.legal_actions(st, 0) if a["type"] == "play"}
    assert accusers == {"heinbichl"}
    play(st, 0, "verleumdung", accuser="heinbichl", target="karl")
    close_window(st)
    assert [a for a in GAME.legal_actions(st, 0) if a["type"] == "play"] == []


def test_a_brown_card_without_accuser_is_played_by_the_most_suspected_villager():
    st = game([["verleumdung"], [], []], suspicion={"heinbichl": 7})
    GAME.apply(st, 0, {"type": "play", "card": card(st, 0, "verleumdung"), "target": "karl"})
    assert st["window"]["trigger"]["accuser"] == "heinbichl"


def test_the_inquisition_can_only_be_called_before_playing_a_card():
    st = game([["verleumdung"], [], []])
    assert {"type": "call_inquisition"} in GAME.legal_actions(st, 0)
    play(st, 0, "verleumdung", accuser="theresa", target="karl")
    close_window(st)
    with pytest.raises(IllegalAction):
        GAME.apply(st, 0, {"type": "call_inquisition"})


def test_an_unanswered_call_makes_the_caller_inquisitor_and_starts_the_panic():
    st = game(turn=1)
    GAME.apply(st, 1, {"type": "call_inquisition"})
    close_window(st)
    assert (st["phase"], st["inquisitor"], GAME.waiting_for(st)) == (2, 1, [0, 1, 2])
    assert GAME.deadline(st).seconds == 45.0


def test_the_panic_ends_when_everyone_is_done_since_the_last_card():
    st = game([["spende:1"], [], []], phase=2, inquisitor=1)
    GAME.apply(st, 1, PASS)
    GAME.apply(st, 2, PASS)
    assert GAME.waiting_for(st) == [0] and GAME.view(st, 0)["done"] == [1, 2]
    play(st, 0, "spende:1", target="karl", sign=1)
    close_window(st)
    assert GAME.waiting_for(st) == [0, 1, 2]
    for seat in (0, 1, 2):
        GAME.apply(st, seat, PASS)
    assert st["phase"] == 3 and GAME.waiting_for(st) == [1]


def test_in_the_panic_each_villager_accuses_once_for_the_whole_phase():
    st = game([["beweys:1", "beweys:2", "falsches_zeugnis:3"], [], []], phase=2, inquisitor=1)
    play(st, 0, "beweys:1", accuser="theresa", target="karl")
    close_window(st)
    GAME.apply(st, 1, PASS)
    assert {a.get("accuser") for a in GAME.legal_actions(st, 0) if a["type"] == "play"} == {
        "heinbichl"}


def test_the_panic_timer_ends_the_panic():
    st = start(scenario(ROWS, [[], [], []], phase=2, inquisitor=1), panic_seconds=5)
    d = GAME.deadline(st)
    assert d.seconds == 5.0
    GAME.apply(st, None, {"type": "timeout", "key": d.key})
    assert st["phase"] == 3


def test_phase_three_gives_each_player_one_card_then_burns_the_witch_for_the_inquisitor():
    st = game([["advocatus", "advocatus"], [], []], phase=3, inquisitor=1, turn=1,
              suspicion={"raphael": 9, "karl": 8})
    GAME.apply(st, 1, PASS)
    assert GAME.waiting_for(st) == [2]
    GAME.apply(st, 2, PASS)
    play(st, 0, "advocatus", target="karl")
    close_window(st)
    assert not st["villagers"]["raphael"]["alive"] and st["taken"][1] == ["raphael"]
    assert st["phase"] == 4 and GAME.waiting_for(st) == [1]


def test_burning_the_inquisitors_own_villager_leaves_an_empty_stake():
    st = game(phase=3, inquisitor=1, turn=1, suspicion={"karl": 9})
    for seat in (1, 2, 0):
        GAME.apply(st, seat, PASS)
    assert st["empty_stakes"][1] == ["karl"] and st["taken"][1] == []


def test_the_inquisitor_chooses_between_tied_witches():
    st = game(phase=3, inquisitor=1, turn=1, suspicion={"theresa": 9, "raphael": 9})
    for seat in (1, 2, 0):
        GAME.apply(st, seat, PASS)
    assert GAME.legal_actions(st, 1) == [{"type": "choose", "target": "theresa"},
                                         {"type": "choose", "target": "raphael"}]
    GAME.apply(st, 1, {"type": "choose", "target": "raphael"})
    assert st["taken"][1] == ["raphael"] and st["villagers"]["theresa"]["alive"]


def test_phase_four_discards_then_draws_up_to_six_and_a_new_round_begins_left_of_inquisitor():
    st = game([["verleumdung", "ableugnung"], [], []], phase=4, inquisitor=1, turn=1,
              deck=["beweys:1"] * 3 + ["verleumdung"] * 14)
    GAME.apply(st, 1, PASS)
    GAME.apply(st, 2, PASS)
    GAME.apply(st, 0, {"type": "discard", "card": card(st, 0, "ableugnung")})
    assert len(st["hands"][0]) == 1 and len(st["discard"]) == 1
    GAME.apply(st, 0, PASS)
    assert [len(h) for h in st["hands"]] == [6, 6, 6]
    assert (st["phase"], st["round"], GAME.waiting_for(st)) == (1, 2, [2])


def test_an_empty_draw_pile_is_refilled_from_the_shuffled_discards():
    st = game([["verleumdung", "ableugnung", "beweys:1"], [], []], phase=4, inquisitor=0,
              turn=0, deck=[])
    for spec in ("verleumdung", "ableugnung", "beweys:1"):
        GAME.apply(st, 0, {"type": "discard", "card": card(st, 0, spec)})
    GAME.apply(st, 0, PASS)
    assert len(st["hands"][0]) == 3 and st["discard"] == [] and st["deck"] == []
    assert any(e["key"] == "reshuffle" for e in st["log"])


def test_suspicion_never_falls_below_the_stakes_start():
    st = game([["ableugnung"], [], []], start={"karl": 4}, suspicion={"karl": 5})
    play(st, 0, "ableugnung", accuser="heinbichl", target="karl")
    close_window(st)
    assert susp(st, "karl") == 4


def test_suspicion_never_rises_above_eighteen():
    st = game([["falsches_zeugnis:4"], [], []], suspicion={"karl": 16})
    play(st, 0, "falsches_zeugnis:4", accuser="heinbichl", target="karl")
    close_window(st)
    assert susp(st, "karl") == 18


def test_the_game_ends_when_no_more_villagers_live_than_players():
    rows = [["theresa", "heinbichl"], ["karl"], ["raphael"]]
    st = start(scenario(rows, [[], [], []], phase=3, inquisitor=1, turn=1,
                        suspicion={"heinbichl": 12}))
    for seat in (1, 2, 0):
        GAME.apply(st, seat, PASS)
    out = GAME.outcome(st)
    assert out is not None and GAME.waiting_for(st) == []
    # Anna: Theresa 2; Bob: Karl 3 + Heinbichl's 2 matches; Cleo: Raphael 1
    assert out["scores"] == [2, 5, 1] and out["winners"] == [1]
    assert out["breakdown"][1] == {"pentagrams": 3, "matches": 2, "trials": 0,
                                   "empty_stakes": 0, "total": 5}


def test_scoring_counts_kept_trials_and_other_players_empty_stakes():
    rows = [["theresa", "heinbichl"], ["karl"], ["raphael"]]
    st = start(scenario(rows, [[], ["wiegeprobe_leichter"], []], phase=3, inquisitor=0,
                        turn=1, suspicion={"heinbichl": 12}))
    play(st, 1, "wiegeprobe_leichter")
    close_window(st)
    out = GAME.outcome(st)
    # Heinbichl burned by inquisitor Anna (own villager: empty stake, 1 VP to each other player)
    # Anna: Theresa 2; Bob: Karl 3 + trial 1 + stake 1; Cleo: Raphael 1 + stake 1
    assert out["scores"] == [2, 5, 2] and out["winners"] == [1]
    assert out["breakdown"][1]["trials"] == 1 and out["breakdown"][2]["empty_stakes"] == 1


def test_a_tie_for_most_points_is_a_shared_win():
    rows = [["theresa", "heinbichl"], ["maria"], ["bertram"]]
    st = start(scenario(rows, [[], [], []], phase=3, inquisitor=2, turn=2,
                        suspicion={"heinbichl": 12}))
    for seat in (2, 0, 1):
        GAME.apply(st, seat, PASS)
    # Anna: Theresa 2; Bob: Maria 2; Cleo: Bertram 2 + Heinbichl's 2 matches
    assert GAME.outcome(st)["scores"] == [2, 2, 4]
    st2 = start(scenario([["theresa", "raphael"], ["maria"], ["bertram"]], [[], [], []],
                         phase=3, inquisitor=0, turn=0, suspicion={"bertram": 12}))
    for seat in (0, 1, 2):
        GAME.apply(st2, seat, PASS)
    # Anna: Theresa 2 + Raphael 1 + Bertram's 3 matches
    assert GAME.outcome(st2)["scores"] == [6, 2, 0] and GAME.outcome(st2)["winners"] == [0]


def test_host_bots_wait_a_moment_between_panic_cards_and_nowhere_else():
    """Issue 26, item 4: in the panic each bot card followed the last at once (the host's
    0.4 s bot delay), before a person could get one in; the game asks its host bots to wait
    ``panic_bot_pause`` between cards there — pacing, so nothing else changes."""
    st = game([["spende:1"], [], []], phase=2, inquisitor=1)
    assert GAME.bot_pause(st) == 4.0 and GAME.waiting_for(st) == [0, 1, 2]
    play(st, 0, "spende:1", target="karl", sign=1)
    assert GAME.bot_pause(st) == 0.0  # a reaction window: answering is not panicking
    close_window(st)
    assert GAME.bot_pause(st) == 4.0  # the next card of the panic
    assert GAME.bot_pause(game()) == 0.0  # phase 1: one player's turn, nobody to wait for


@pytest.mark.parametrize(("panic_seconds", "pause"),
                         [(45, 4.0), (30, 4.0 * 30 / 45), (9, 0.8), (90, 4.0), (3600, 4.0)])
def test_a_shorter_panic_has_its_bots_pause_shorter_alike_and_a_longer_one_the_normal_pause(
        panic_seconds: float, pause: float) -> None:
    """The quick pace's 30 s panic has its bots pause 2.7 s between cards (4 s of 45 s would be
    a larger share of a short panic); the relaxed 90 s panic and the tutorial's untimed one
    keep 4 s."""
    st = game([["spende:1"], [], []], phase=2, inquisitor=1)
    st["options"]["panic_seconds"] = panic_seconds
    assert GAME.bot_pause(st) == pytest.approx(pause)


def test_a_card_that_cannot_be_used_is_told_why_from_the_view():
    """Issue 26, item 4: what the client says for Enter on a card it may not play now."""
    from hexnet.games.hexenhammer.refusals import unusable

    st = game([["beweys:1", "spende:1"], [], []], phase=2, inquisitor=1)
    GAME.apply(st, 0, PASS)  # done panicking
    view = GAME.view(st, 0)
    spende = next(c for c in view["hand"] if c["kind"] == "spende")
    assert unusable(view, spende).as_dict() == {"key": "done_panicking"}
    st = game([["beweys:1", "beweys:2", "beweys:1"], [], []], phase=2, inquisitor=1)
    play(st, 0, "beweys:1", accuser="theresa", target="karl")
    close_window(st)
    play(st, 0, "beweys:2", accuser="heinbichl", target="karl")
    close_window(st)
    view = GAME.view(st, 0)
    assert unusable(view, view["hand"][0]).as_dict() == {"key": "no_free_accuser"}
    assert unusable(GAME.view(game([["ableugnung"], [], []], phase=2, inquisitor=1), 0),
                    {"kind": "ableugnung"}).as_dict() == {
        "key": "wrong_phase", "kind": "ableugnung", "phase": 2}
