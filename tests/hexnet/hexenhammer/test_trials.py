"""One test per trial, the twins cancelling, and who may play trials."""

from hexnet.games.hexenhammer import GAME
from tests.hexnet.hexenhammer.util import card, close_window, play, scenario, start, susp

ROWS = [["theresa", "heinbichl"], ["karl", "maria"], ["raphael", "bertram"]]


def trial_game(hands, phase=3, suspicion=None, **extra):
    """Seat 2 is the inquisitor, seat 0 to act; Karl (seat 1) is the current witch."""
    sus = {"karl": 10}
    sus.update(suspicion or {})
    extra.setdefault("turn", 0)
    return start(scenario(ROWS, hands, phase=phase, inquisitor=2, suspicion=sus, **extra))


def test_wasserprobe_schwimmt_burns_the_witch_and_is_kept_for_two():
    st = trial_game([["wasserprobe_schwimmt"], [], []])
    cid = card(st, 0, "wasserprobe_schwimmt")
    play(st, 0, "wasserprobe_schwimmt")
    close_window(st)
    assert not st["villagers"]["karl"]["alive"]
    assert st["taken"][2] == ["karl"] and st["kept"][0] == [cid]
    assert st["phase"] == 4 and GAME.waiting_for(st) == [2]


def test_wasserprobe_schwimmt_in_the_panic_skips_phase_three():
    st = trial_game([["wasserprobe_schwimmt"], [], []], phase=2)
    play(st, 0, "wasserprobe_schwimmt")
    close_window(st)
    assert st["taken"][2] == ["karl"] and st["phase"] == 4


def test_wasserprobe_sinkt_drowns_the_witch_for_the_cards_player():
    st = trial_game([["wasserprobe_sinkt"], [], []])
    cid = card(st, 0, "wasserprobe_sinkt")
    play(st, 0, "wasserprobe_sinkt")
    close_window(st)
    assert st["taken"][0] == ["karl"] and st["taken"][2] == []
    assert cid in st["removed"] and st["kept"][0] == []


def test_wasserprobe_sinkt_on_own_villager_leaves_an_empty_stake():
    st = trial_game([["wasserprobe_sinkt"], [], []], suspicion={"karl": 2, "theresa": 12})
    play(st, 0, "wasserprobe_sinkt")
    close_window(st)
    assert st["empty_stakes"][0] == ["theresa"] and not st["villagers"]["theresa"]["alive"]


def test_wiegeprobe_leichter_burns_and_is_kept_for_one():
    st = trial_game([["wiegeprobe_leichter"], [], []])
    play(st, 0, "wiegeprobe_leichter")
    close_window(st)
    assert st["taken"][2] == ["karl"]
    assert [st["cards"][c][0] for c in st["kept"][0]] == ["wiegeprobe_leichter"]


def test_wiegeprobe_schwerer_protects_the_witch_until_the_next_trial_phase():
    st = trial_game([["wiegeprobe_schwerer", "verleumdung"], [], []],
                    deck=["verleumdung"] * 10 + ["ableugnung"] * 8)
    play(st, 0, "wiegeprobe_schwerer")
    close_window(st)
    assert st["phase"] == 4 and st["protected"]["villager"] == "karl"
    assert GAME.view(st, 1)["villagers"][2]["trial_card"] == "wiegeprobe_schwerer"
    for seat in (2, 0, 1):
        GAME.apply(st, seat, {"type": "pass"})
    assert st["phase"] == 1 and GAME.waiting_for(st) == [0]
    targets = {a.get("target") for a in GAME.legal_actions(st, 0)}
    assert "karl" not in targets and "maria" in targets
    GAME.apply(st, 0, {"type": "call_inquisition"})
    close_window(st)
    for seat in range(3):
        GAME.apply(st, seat, {"type": "pass"})
    assert st["phase"] == 3 and st["protected"] is None


def test_teufelsmal_ja_sends_the_witch_to_eighteen():
    st = trial_game([["teufelsmal_ja"], [], []])
    play(st, 0, "teufelsmal_ja")
    close_window(st)
    assert susp(st, "karl") == 18 and st["villagers"]["karl"]["alive"] and st["phase"] == 4


def test_teufelsmal_nein_sends_a_named_villager_back_to_its_start():
    st = trial_game([["teufelsmal_nein"], [], []], suspicion={"maria": 9})
    play(st, 0, "teufelsmal_nein", target="maria")
    close_window(st)
    assert susp(st, "maria") == 2 and st["phase"] == 4


def test_twin_trials_cancel_each_other():
    st = trial_game([["wasserprobe_schwimmt"], ["wasserprobe_sinkt"], []])
    a, b = card(st, 0, "wasserprobe_schwimmt"), card(st, 1, "wasserprobe_sinkt")
    play(st, 0, "wasserprobe_schwimmt")
    play(st, 1, "wasserprobe_sinkt")
    assert st["window"] is None and st["villagers"]["karl"]["alive"]
    assert st["discard"][-2:] == [a, b]
    assert st["phase"] == 3 and GAME.waiting_for(st) == [0]  # seat 0 still plays its card


def test_the_devils_mark_cannot_be_answered_by_verwechslung():
    st = trial_game([["teufelsmal_ja"], ["verwechslung", "gegenanklage", "geteyltes_leyd"], []])
    play(st, 0, "teufelsmal_ja")
    assert GAME.legal_actions(st, 1) == [{"type": "pass"}]


def test_the_inquisitor_may_not_play_a_trial():
    st = trial_game([[], [], ["wasserprobe_schwimmt"]], turn=2)
    assert [a for a in GAME.legal_actions(st, 2) if a["type"] == "play"] == []


def test_the_inquisitor_breaks_a_tie_for_the_trials_witch():
    st = trial_game([["wasserprobe_schwimmt"], [], []], suspicion={"bertram": 10})
    play(st, 0, "wasserprobe_schwimmt")
    close_window(st)
    assert GAME.waiting_for(st) == [2]
    assert GAME.legal_actions(st, 2) == [{"type": "choose", "target": "karl"},
                                         {"type": "choose", "target": "bertram"}]
    GAME.apply(st, 2, {"type": "choose", "target": "bertram"})
    assert st["empty_stakes"][2] == ["bertram"] and st["villagers"]["karl"]["alive"]
