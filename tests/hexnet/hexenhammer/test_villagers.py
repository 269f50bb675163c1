"""One test per villager ability, each built from a scenario."""

import pytest

from hexnet.engine import IllegalAction
from hexnet.games.hexenhammer import GAME
from tests.hexnet.hexenhammer.util import close_window, play, scenario, start, susp


def brown(accuser: str, target: str, spec: str, phase: int = 1, suspicion=None,
          owner_rows=None) -> dict:
    """Seat 0 owns ``accuser`` and plays ``spec`` onto ``target`` (owned by seat 1)."""
    rows = owner_rows or [[accuser], [target], ["berta"]]
    st = start(scenario(rows, [[spec], [], []], phase=phase, turn=0, inquisitor=2,
                        suspicion=suspicion or {}))
    play(st, 0, spec, accuser=accuser, target=target)
    close_window(st)
    return st


def test_heinbichl_adds_two_against_ottheinrich():
    assert susp(brown("heinbichl", "ottheinrich", "verleumdung"), "ottheinrich") == 2 + 1 + 2


def test_heinbichl_adds_one_against_maria():
    assert susp(brown("heinbichl", "maria", "verleumdung"), "maria") == 2 + 1 + 1


def test_theresa_adds_one_against_markwart_and_karl():
    assert susp(brown("theresa", "markwart", "falsches_zeugnis:3"), "markwart") == 2 + 3 + 1
    assert susp(brown("theresa", "karl", "falsches_zeugnis:3"), "karl") == 2 + 3 + 1


def test_berta_can_never_accuse():
    st = start(scenario([["berta"], ["karl"], ["maria"]], [["verleumdung"], [], []], turn=0))
    legal = GAME.legal_actions(st, 0)
    assert all(a.get("accuser") != "berta" for a in legal)
    assert [a for a in legal if a["type"] == "play"] == []
    with pytest.raises(IllegalAction):
        play(st, 0, "verleumdung", accuser="berta", target="karl")


def test_raphael_adds_one_to_gegenanklage_against_him():
    st = start(scenario([["theresa"], ["raphael"], ["berta"]],
                        [["falsches_zeugnis:3"], ["gegenanklage"], []], turn=0))
    play(st, 0, "falsches_zeugnis:3", accuser="theresa", target="raphael")
    play(st, 1, "gegenanklage")
    close_window(st)
    assert susp(st, "raphael") == 2
    assert susp(st, "theresa") == 2 + 3 + 1


def test_bertram_adds_one_to_falsches_zeugnis():
    assert susp(brown("bertram", "karl", "falsches_zeugnis:3"), "karl") == 2 + 3 + 1


def test_griseldis_takes_two_from_falsches_zeugnis():
    assert susp(brown("griseldis", "karl", "falsches_zeugnis:4"), "karl") == 2 + 4 - 2


def test_maria_adds_two_against_heinbichl_and_one_against_bertram():
    assert susp(brown("maria", "heinbichl", "verleumdung"), "heinbichl") == 2 + 1 + 2
    assert susp(brown("maria", "bertram", "verleumdung"), "bertram") == 2 + 1 + 1


def test_burckhardt_adds_two_to_verwechslung_against_him():
    st = start(scenario([["theresa"], ["burckhardt"], ["karl"]],
                        [["verleumdung"], ["verwechslung"], []], turn=0))
    play(st, 0, "verleumdung", accuser="theresa", target="burckhardt")
    play(st, 1, "verwechslung", other="karl")
    close_window(st)
    assert susp(st, "burckhardt") == 2
    # Verleumdung +1, Burckhardt's +2, Theresa's +1 against Karl
    assert susp(st, "karl") == 2 + 1 + 2 + 1


def test_luitger_makes_a_denial_minus_three():
    st = brown("luitger", "karl", "ableugnung", suspicion={"karl": 10})
    assert susp(st, "karl") == 10 - 3


def test_katharina_adds_one_against_burckhardt_and_raphael():
    assert susp(brown("katharina", "burckhardt", "verleumdung"), "burckhardt") == 2 + 1 + 1
    assert susp(brown("katharina", "raphael", "verleumdung"), "raphael") == 2 + 1 + 1


def test_tochter_adds_one_against_luitger_and_martha():
    assert susp(brown("tochter", "luitger", "verleumdung"), "luitger") == 2 + 1 + 1
    assert susp(brown("tochter", "martha", "verleumdung"), "martha") == 2 + 1 + 1


def test_markwart_adds_one_to_beweys():
    assert susp(brown("markwart", "karl", "beweys:2", phase=2), "karl") == 2 + 2 + 1


def test_martha_gives_one_more_to_the_shared_sorrow():
    st = start(scenario([["theresa"], ["martha"], ["karl"]],
                        [["verleumdung"], [], ["geteyltes_leyd"]], turn=0))
    play(st, 0, "verleumdung", accuser="theresa", target="martha")
    play(st, 2, "geteyltes_leyd", other="karl")
    close_window(st)
    assert susp(st, "martha") == 2 + 1
    # the shared villager gets the accused's points (+1, and Theresa's +1 against Karl does not
    # apply: Karl is not the accused) plus Martha's +1
    assert susp(st, "karl") == 2 + 1 + 1


def test_ottheinrich_adds_one_to_verleumdung():
    assert susp(brown("ottheinrich", "karl", "verleumdung"), "karl") == 2 + 1 + 1


def test_karl_adds_one_to_confession():
    st = brown("karl", "maria", "gestaendnis:6", phase=3)
    assert susp(st, "maria") == 2 + 6 + 1


def test_a_villager_without_a_bonus_against_the_accused_adds_nothing():
    assert susp(brown("heinbichl", "karl", "verleumdung"), "karl") == 2 + 1
