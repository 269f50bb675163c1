"""One test per card kind and reaction, each built from a scenario."""

import pytest

from hexnet.engine import IllegalAction
from hexnet.games.hexenhammer import GAME
from tests.hexnet.hexenhammer.util import card, close_window, play, scenario, start, susp

ROWS = [["theresa", "heinbichl"], ["karl", "maria"], ["raphael", "bertram"]]


def game(hands, phase=1, **extra):
    extra.setdefault("turn", 0)
    extra.setdefault("inquisitor", 2 if phase > 1 else None)
    return start(scenario(ROWS, hands, **extra, phase=phase))


def test_ableugnung_takes_two_in_phase_one():
    st = game([["ableugnung"], [], []], suspicion={"karl": 9})
    play(st, 0, "ableugnung", accuser="heinbichl", target="karl")
    close_window(st)
    assert susp(st, "karl") == 7


def test_beweys_adds_its_value_in_phase_two():
    st = game([["beweys:1", "beweys:2"], [], []], phase=2)
    play(st, 0, "beweys:1", accuser="theresa", target="maria")
    close_window(st)
    play(st, 0, "beweys:2", accuser="heinbichl", target="bertram")
    close_window(st)
    assert (susp(st, "maria"), susp(st, "bertram")) == (3, 4)


def test_falsches_zeugnis_adds_four():
    st = game([["falsches_zeugnis:4"], [], []])
    play(st, 0, "falsches_zeugnis:4", accuser="heinbichl", target="raphael")
    close_window(st)
    assert susp(st, "raphael") == 6


def test_gestaendnis_adds_five_in_phase_three():
    st = game([["gestaendnis:5"], [], []], phase=3)
    play(st, 0, "gestaendnis:5", accuser="heinbichl", target="raphael")
    close_window(st)
    assert susp(st, "raphael") == 7


def test_verleumdung_adds_one_and_may_target_the_accuser_itself():
    st = game([["verleumdung"], [], []])
    play(st, 0, "verleumdung", accuser="heinbichl", target="heinbichl")
    close_window(st)
    assert susp(st, "heinbichl") == 3


def test_advocatus_takes_four_without_accuser():
    st = game([["advocatus"], [], []], phase=3, suspicion={"karl": 12})
    play(st, 0, "advocatus", target="karl")
    close_window(st)
    assert susp(st, "karl") == 8


def test_spende_lets_the_player_choose_the_sign():
    st = game([["spende:2", "spende:1"], [], []], phase=2, suspicion={"karl": 10})
    play(st, 0, "spende:2", target="karl", sign=-1)
    close_window(st)
    play(st, 0, "spende:1", target="maria", sign=1)
    close_window(st)
    assert (susp(st, "karl"), susp(st, "maria")) == (8, 3)


def test_cards_are_played_only_in_their_phases():
    st = game([["beweys:1", "gestaendnis:5", "advocatus", "spende:1"], [], []])
    kinds = {st["cards"][a["card"]][0] for a in GAME.legal_actions(st, 0) if a["type"] == "play"}
    assert kinds == set()
    with pytest.raises(IllegalAction):
        play(st, 0, "beweys:1", accuser="theresa", target="karl")


def test_gegenanklage_turns_the_card_on_its_accuser():
    st = game([["falsches_zeugnis:3"], ["gegenanklage"], []])
    play(st, 0, "falsches_zeugnis:3", accuser="heinbichl", target="karl")
    play(st, 1, "gegenanklage")
    close_window(st)
    assert (susp(st, "karl"), susp(st, "heinbichl")) == (2, 5)


def test_gegenanklage_cannot_answer_a_yellow_card():
    st = game([["spende:1"], ["gegenanklage"], []], phase=2)
    play(st, 0, "spende:1", target="karl", sign=1)
    assert GAME.legal_actions(st, 1) == [{"type": "pass"}]


def test_geteyltes_leyd_gives_a_named_villager_the_same_points():
    st = game([["falsches_zeugnis:3"], [], ["geteyltes_leyd"]])
    play(st, 0, "falsches_zeugnis:3", accuser="heinbichl", target="karl")
    assert {"type": "play", "card": card(st, 2, "geteyltes_leyd"), "other": "heinbichl"} \
        not in GAME.legal_actions(st, 2)   # never the accuser
    play(st, 2, "geteyltes_leyd", other="theresa")
    close_window(st)
    assert (susp(st, "karl"), susp(st, "theresa")) == (5, 5)


def test_keyne_inquisition_cancels_the_call_and_gives_the_reactor_the_turn():
    st = game([[], [], ["keyne_inquisition"]])
    GAME.apply(st, 0, {"type": "call_inquisition"})
    assert GAME.waiting_for(st) == [1, 2]
    play(st, 2, "keyne_inquisition")
    assert (st["phase"], st["inquisitor"], GAME.waiting_for(st)) == (1, None, [2])
    assert len(st["hands"][0]) == 0   # the caller draws nothing
    assert {"type": "call_inquisition"} in GAME.legal_actions(st, 2)


def test_verwechslung_sends_the_card_to_a_named_villager_not_the_accuser():
    st = game([["falsches_zeugnis:3"], ["verwechslung"], []])
    play(st, 0, "falsches_zeugnis:3", accuser="heinbichl", target="karl")
    others = {a.get("other") for a in GAME.legal_actions(st, 1)}
    assert "heinbichl" not in others and "karl" not in others and "bertram" in others
    play(st, 1, "verwechslung", other="bertram")
    close_window(st)
    assert (susp(st, "karl"), susp(st, "bertram")) == (2, 5)


def test_widerruf_voids_a_confession():
    st = game([["gestaendnis:6"], ["widerruf"], []], phase=3)
    play(st, 0, "gestaendnis:6", accuser="heinbichl", target="karl")
    play(st, 1, "widerruf")
    assert st["window"] is None
    assert susp(st, "karl") == 2


def test_a_later_redirect_overrides_an_earlier_one():
    st = game([["falsches_zeugnis:3"], ["verwechslung"], ["verwechslung"]])
    play(st, 0, "falsches_zeugnis:3", accuser="heinbichl", target="karl")
    play(st, 1, "verwechslung", other="raphael")
    play(st, 2, "verwechslung", other="maria")
    close_window(st)
    assert (susp(st, "karl"), susp(st, "raphael"), susp(st, "maria")) == (2, 2, 6)


def test_the_reaction_window_asks_every_other_seat_even_without_reactions():
    st = game([["verleumdung"], [], []])
    play(st, 0, "verleumdung", accuser="heinbichl", target="karl")
    assert GAME.waiting_for(st) == [1, 2]
    assert GAME.legal_actions(st, 1) == [{"type": "pass"}]
    d = GAME.deadline(st)
    assert d.seats == () and d.seconds == 8.0  # (who still thinks is nobody's to know)
    GAME.apply(st, 1, {"type": "pass"})
    assert susp(st, "karl") == 2 and GAME.waiting_for(st) == [2]
    # issue 22: nobody sees who has answered (how long each took would tell a fitting card)
    for seat, seen in ((0, [1, 2]), (1, [2]), (2, [1, 2]), (None, [1, 2])):
        view = GAME.view(st, seat)
        assert view["active"] == view["window"]["pending"] == seen, seat
    GAME.apply(st, 2, {"type": "pass"})
    assert susp(st, "karl") == 3 and GAME.waiting_for(st) == [0]


def test_a_reaction_reopens_the_window_for_every_seat():
    st = game([["verleumdung"], ["verwechslung"], []])
    play(st, 0, "verleumdung", accuser="heinbichl", target="karl")
    GAME.apply(st, 2, {"type": "pass"})
    play(st, 1, "verwechslung", other="raphael")
    assert GAME.waiting_for(st) == [0, 1, 2]


def test_the_reaction_window_timeout_makes_everyone_pass():
    st = start(scenario(ROWS, [["verleumdung"], [], []], turn=0), reaction_seconds=3)
    play(st, 0, "verleumdung", accuser="heinbichl", target="karl")
    d = GAME.deadline(st)
    assert d.seconds == 3.0
    GAME.apply(st, None, {"type": "timeout", "key": d.key})
    assert st["window"] is None and susp(st, "karl") == 3


def test_a_turn_is_untimed_unless_turn_seconds_is_set():
    st = start(scenario(ROWS, [["verleumdung"], [], []], turn=0))
    assert GAME.waiting_for(st) == [0] and GAME.deadline(st) is None


def test_turn_seconds_times_a_turn_and_expiry_makes_the_absent_move():
    timed = start(scenario(ROWS, [["verleumdung"], [], []], turn=0), turn_seconds=20)
    absent = start(scenario(ROWS, [["verleumdung"], [], []], turn=0), turn_seconds=20)
    d = GAME.deadline(timed)
    assert (d.key, d.seconds, d.seats, d.on_expiry) == (
        f"turn-{timed['version']}", 20.0, (0,), "turn")
    GAME.apply(timed, None, {"type": "timeout", "key": d.key})
    GAME.apply(absent, None, {"type": "absent", "seat": 0})
    assert GAME.dump(timed) == GAME.dump(absent)  # the same move as an absent player's
    assert GAME.deadline(timed).key == f"turn-{timed['version']}" != d.key  # afresh


def test_a_reaction_window_keeps_its_own_clock_under_turn_seconds():
    st = start(scenario(ROWS, [["verleumdung"], [], []], turn=0), reaction_seconds=3,
               turn_seconds=20)
    play(st, 0, "verleumdung", accuser="heinbichl", target="karl")
    d = GAME.deadline(st)
    assert (d.seconds, d.on_expiry) == (3.0, "window")
