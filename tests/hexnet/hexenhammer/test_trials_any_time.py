"""Issue 17, correction 1: a trial may be played at any time in its phases, even out of turn
("a megfelelő fázis során bármikor (akkor is, ha nem ő van éppen soron)"), by anyone who is not
the inquisitor — during another player's phase-3 turn, after saying done in the panic, and inside
a reaction window — without the game waiting for it or showing anyone who holds one; it does not
use up the phase-3 card; and the ruling on the card whose reaction window a trial interrupts."""

import pytest

from hexnet.engine import IllegalAction
from hexnet.games.hexenhammer import GAME
from tests.hexnet.hexenhammer.util import card, close_window, play, scenario, start, susp

# seat 0: Theresa, Heinbichl · seat 1: Karl, Maria · seat 2 (the inquisitor): Raphael, Bertram
ROWS = [["theresa", "heinbichl"], ["karl", "maria"], ["raphael", "bertram"]]
PASS = {"type": "pass"}


def trial_game(hands, phase=3, turn=1, suspicion=None, **extra):
    """Seat 2 is the inquisitor, ``turn`` to act; Karl (seat 1) is the current witch at 10."""
    sus = {"karl": 10}
    sus.update(suspicion or {})
    return start(scenario(ROWS, hands, phase=phase, inquisitor=2, turn=turn, suspicion=sus,
                          **extra))


def plays_of(state, seat):
    return [a for a in GAME.legal_actions(state, seat) if a["type"] == "play"]


def test_a_trial_may_be_played_during_another_players_phase_three_turn():
    st = trial_game([["wasserprobe_schwimmt"], ["beweys:1"], []])
    cid = card(st, 0, "wasserprobe_schwimmt")
    assert GAME.waiting_for(st) == [1]
    assert GAME.legal_actions(st, 0) == [{"type": "play", "card": cid}]
    GAME.apply(st, 0, {"type": "play", "card": cid})
    assert st["window"]["trigger"]["type"] == "trial" and GAME.waiting_for(st) == [1, 2]
    close_window(st)
    assert not st["villagers"]["karl"]["alive"] and st["taken"][2] == ["karl"]
    assert st["kept"][0] == [cid] and st["phase"] == 4


def test_a_trial_may_be_played_after_saying_done_in_the_panic():
    st = trial_game([["wiegeprobe_leichter"], [], []], phase=2)
    GAME.apply(st, 0, PASS)
    assert 0 not in GAME.waiting_for(st)
    play(st, 0, "wiegeprobe_leichter")
    close_window(st)
    assert st["taken"][2] == ["karl"] and st["phase"] == 4


def test_the_inquisitor_may_not_play_a_trial_out_of_turn_either():
    st = trial_game([[], [], ["wasserprobe_schwimmt"]])
    assert GAME.legal_actions(st, 2) == []
    before = GAME.dump(st)
    with pytest.raises(IllegalAction):
        play(st, 2, "wasserprobe_schwimmt")
    assert GAME.dump(st) == before


def test_a_trial_is_not_played_out_of_its_phases():
    st = trial_game([["teufelsmal_ja", "wasserprobe_schwimmt"], [], []], phase=2)
    GAME.apply(st, 0, PASS)
    assert [st["cards"][a["card"]][0] for a in plays_of(st, 0)] == ["wasserprobe_schwimmt"]
    with pytest.raises(IllegalAction) as refused:
        play(st, 0, "teufelsmal_ja")
    assert refused.value.key == "wrong_phase"


def test_out_of_turn_only_a_trial_may_be_played():
    st = trial_game([["wasserprobe_schwimmt", "advocatus"], [], []])
    with pytest.raises(IllegalAction) as refused:
        play(st, 0, "advocatus", target="karl")
    assert refused.value.key == "phase3_own_turn"
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(st, 0, PASS)
    assert refused.value.key == "not_your_turn"


def test_a_seat_waited_on_in_a_reaction_window_may_answer_with_a_trial():
    st = trial_game([["wasserprobe_schwimmt"], ["beweys:2"], []])
    play(st, 1, "beweys:2", accuser="karl", target="theresa")
    assert GAME.waiting_for(st) == [0, 2]
    cid = card(st, 0, "wasserprobe_schwimmt")
    assert {"type": "play", "card": cid} in GAME.legal_actions(st, 0)


def test_a_trial_that_stands_ends_the_phase_and_the_card_waiting_in_its_window_lapses():
    st = trial_game([["wasserprobe_schwimmt"], ["beweys:2"], []])
    beweys = card(st, 1, "beweys:2")
    play(st, 1, "beweys:2", accuser="karl", target="theresa")
    play(st, 0, "wasserprobe_schwimmt")
    assert GAME.view(st, 2)["interrupted"]["trigger"]["kind"] == "beweys"
    assert st["window"]["pending"] == [1, 2]
    close_window(st)
    assert susp(st, "theresa") == 2 and beweys in st["discard"]
    assert not st["villagers"]["karl"]["alive"] and st["phase"] == 4
    assert st["window"] is None and st["interrupted"] is None
    lapsed = [e for e in st["log"] if e["key"] == "lapses"]
    assert lapsed == [{"n": lapsed[0]["n"], "key": "lapses", "kind": "beweys", "player": 1}]


def test_a_trial_in_a_panic_cards_window_skips_phase_three_and_the_card_lapses():
    st = trial_game([["wasserprobe_schwimmt"], ["spende:2"], []], phase=2)
    play(st, 1, "spende:2", target="theresa", sign=1)
    play(st, 0, "wasserprobe_schwimmt")
    close_window(st)
    assert susp(st, "theresa") == 2 and st["phase"] == 4 and st["taken"][2] == ["karl"]


def test_a_twin_cancelling_an_interrupting_trial_reopens_the_window_where_it_stopped():
    st = trial_game([["wasserprobe_schwimmt"], ["beweys:2", "wasserprobe_sinkt"], []])
    play(st, 1, "beweys:2", accuser="karl", target="theresa")
    GAME.apply(st, 2, PASS)  # the inquisitor lets the Beweys pass; seat 0 is still asked
    key = GAME.deadline(st).key
    play(st, 0, "wasserprobe_schwimmt")
    play(st, 1, "wasserprobe_sinkt")
    assert st["window"]["trigger"]["kind"] == "beweys" and st["window"]["pending"] == [0]
    assert GAME.deadline(st).key != key and GAME.deadline(st).seats == ()  # (issue 22)
    assert st["interrupted"] is None
    close_window(st)
    assert susp(st, "theresa") == 4 and st["villagers"]["karl"]["alive"]
    assert st["phase"] == 3 and GAME.waiting_for(st) == [2]  # the Beweys was seat 1's card


def test_a_cancelled_trial_does_not_use_up_the_phase_three_card():
    st = trial_game([["wasserprobe_schwimmt", "gestaendnis:5"], ["wasserprobe_sinkt"], []],
                    turn=0)
    play(st, 0, "wasserprobe_schwimmt")
    play(st, 1, "wasserprobe_sinkt")
    assert st["phase"] == 3 and GAME.waiting_for(st) == [0]
    play(st, 0, "gestaendnis:5", accuser="theresa", target="maria")
    close_window(st)
    assert susp(st, "maria") == 7 and GAME.waiting_for(st) == [1]


def test_a_cancelled_out_of_turn_trial_leaves_the_turn_where_it_was():
    st = trial_game([["wasserprobe_schwimmt"], ["wasserprobe_sinkt"], []])
    play(st, 0, "wasserprobe_schwimmt")
    play(st, 1, "wasserprobe_sinkt")
    assert st["phase"] == 3 and st["turn"] == 1 and GAME.waiting_for(st) == [1]


def test_no_trial_while_another_trial_waits_for_its_twin():
    st = trial_game([["wasserprobe_schwimmt"], ["teufelsmal_ja"], []], turn=0)
    play(st, 0, "wasserprobe_schwimmt")
    assert GAME.legal_actions(st, 1) == [PASS]
    with pytest.raises(IllegalAction) as refused:
        play(st, 1, "teufelsmal_ja")
    assert refused.value.key == "trial_in_trial_window"


def test_no_trial_while_the_inquisitor_breaks_a_tie():
    st = trial_game([["wasserprobe_schwimmt"], ["teufelsmal_ja"], []], turn=0,
                    suspicion={"bertram": 10})
    play(st, 0, "wasserprobe_schwimmt")
    close_window(st)
    assert GAME.waiting_for(st) == [2] and GAME.legal_actions(st, 1) == []


def _seen_by_others(st, holder):
    """What every seat but ``holder`` (and the host) can observe now."""
    others = [s for s in range(len(st["players"])) if s != holder]
    return (GAME.waiting_for(st), GAME.deadline(st),
            [GAME.view(st, s) for s in [*others, None]],
            [GAME.legal_actions(st, s) for s in others])


def test_holding_a_trial_shows_nothing_to_the_others_and_is_never_waited_for():
    seen = []
    for trial in (True, False):
        st = trial_game([["beweys:1"], ["wasserprobe_schwimmt" if trial else "verleumdung"], []],
                        turn=0)
        steps = [_seen_by_others(st, 1)]
        assert bool(plays_of(st, 1)) == trial  # seat 0's turn: only seat 1 knows it may try
        play(st, 0, "beweys:1", accuser="theresa", target="karl")
        steps.append(_seen_by_others(st, 1))
        GAME.apply(st, 2, PASS)  # seat 1, asked too, has not answered yet
        steps.append(_seen_by_others(st, 1))
        GAME.apply(st, 1, PASS)
        steps.append(_seen_by_others(st, 1))  # seat 1's own phase-3 turn
        seen.append(steps)
    assert seen[0] == seen[1]
    assert [s[0] for s in seen[0]] == [[0], [1, 2], [1], [1]]
