"""The day: places, picks, the protector, the herbalist, the witches' window and spells,
and the end of the day (attack, restoration, hand-out)."""

from __future__ import annotations

import pytest

from hexnet.engine import IllegalAction
from hexnet.games.fang import GAME
from tests.hexnet.fang.helpers import (
    EIGHT,
    FIVE,
    act,
    english,
    pick_all,
    scene,
    table,
    witch,
    witches_idle,
)


def test_places_open_three_then_four_then_all_five() -> None:
    for day, count in ((1, 3), (2, 4), (3, 5), (5, 5)):
        state = table(FIVE, day=day)
        assert [a["place"] for a in GAME.legal_actions(state, 3)] == [
            "wald", "brunnen", "kraeutergarten", "friedhof", "muehle"][:count]


def test_morning_draws_the_circle_size_from_open_places_ingredients() -> None:
    for seed in range(20):
        state = table(FIVE, seed=seed)
        assert len(state["required"]) == 2
        assert set(state["required"]) <= {"pilz", "quellwasser", "salbei"}
    assert len(table(EIGHT, day=5)["required"]) == 5  # the band's 3, 3, 4, 4, 5, 5 (balanced too)
    assert len(table(EIGHT, day=5, options={"deal": "standard"})["required"]) == 5


def test_only_non_witches_pick_places() -> None:
    state = table(FIVE)
    assert scene(state) == "pick"
    assert state["scene"]["need"] == [1, 2, 3, 4]
    assert GAME.legal_actions(state, 0) == []


def test_picks_are_changeable_until_every_picker_picked() -> None:
    state = table(FIVE)
    act(state, 3, type="pick", place="wald")
    act(state, 3, type="pick", place="brunnen")
    assert GAME.view(state, 3)["my_choice"] == {"place": "brunnen"}
    pick_all(state, {3: "brunnen"}, default="kraeutergarten")
    assert scene(state) == "witches"
    assert GAME.view(state, 0)["cat_counts"]["brunnen"] == 1
    with pytest.raises(IllegalAction):
        act(state, 3, type="pick", place="wald")


def test_a_seat_may_send_its_pick_at_most_max_changes_times() -> None:
    state = table(FIVE, options={"max_changes": 2})
    act(state, 3, type="pick", place="wald")
    assert 3 in GAME.waiting_for(state)
    act(state, 3, type="pick", place="brunnen")
    assert 3 not in GAME.waiting_for(state)
    assert state["scene"]["choice"][3] == {"place": "brunnen"}


def test_witches_see_only_the_cat_counts_per_place() -> None:
    state = table(FIVE)
    pick_all(state, {1: "wald", 2: "wald", 3: "brunnen", 4: "kraeutergarten"})
    assert GAME.view(state, 0)["cat_counts"] == {
        "wald": 2, "brunnen": 1, "kraeutergarten": 1, "teich": 0}
    for seat in (1, 2, 3, 4):
        assert GAME.view(state, seat)["cat_counts"] is None


def test_witch_attack_turns_a_cat_at_her_place_into_a_frog() -> None:
    state = table(FIVE)
    pick_all(state, {3: "brunnen"})
    witch(state, 0, "brunnen", target=3)
    assert state["form"][3] == "frog"
    assert state["hands"][3] == []
    assert scene(state) == "announce"


def test_attack_on_a_cat_at_another_place_fails() -> None:
    state = table(FIVE)
    pick_all(state, {3: "brunnen"})
    witch(state, 0, "wald", target=3)
    assert state["form"][3] == "cat"
    assert [c["ing"] for c in state["hands"][3]] == ["quellwasser"]


def test_guarded_place_protects_everyone_there_and_the_guard_collects_nothing() -> None:
    state = table(FIVE)
    pick_all(state, {2: "guard", 3: "brunnen"})
    assert scene(state) == "guard"
    assert GAME.view(state, 2)["cat_counts"] == {"wald": 2, "brunnen": 1, "kraeutergarten": 0}
    act(state, 2, type="guard", place="brunnen")
    witch(state, 0, "brunnen", target=3)
    assert state["form"][3] == "cat"
    assert state["hands"][2] == []
    assert state["guard_last"] == "brunnen"


def test_protector_cannot_guard_the_same_place_two_days_running() -> None:
    state = table(FIVE, guard_last="wald")
    pick_all(state, {2: "guard"})
    assert GAME.legal_actions(state, 2) == [
        {"type": "guard", "place": "brunnen"}, {"type": "guard", "place": "kraeutergarten"}]
    with pytest.raises(IllegalAction):
        act(state, 2, type="guard", place="wald")


def test_the_protectors_guard_is_final_once_sent() -> None:
    # "nicht mehr, nachdem der Beschützer 'Bewachen' abgeschickt hat"
    state = table(FIVE)
    act(state, 2, type="guard")
    assert 2 not in GAME.waiting_for(state)
    assert GAME.legal_actions(state, 2) == []
    before = GAME.dump(state)
    for place in ("wald", "brunnen"):
        with pytest.raises(IllegalAction):
            act(state, 2, type="pick", place=place)
    assert GAME.dump(state) == before
    pick_all(state)
    assert scene(state) == "guard" and state["scene"]["need"] == [2]


def test_the_protector_may_still_switch_from_a_place_to_guard() -> None:
    state = table(FIVE)
    act(state, 2, type="pick", place="wald")
    assert {"type": "guard"} in GAME.legal_actions(state, 2)
    act(state, 2, type="guard")
    pick_all(state)
    assert scene(state) == "guard" and state["scene"]["need"] == [2]


def test_the_guard_becoming_final_shows_the_others_nothing() -> None:
    guarding, picking = table(FIVE), table(FIVE)
    act(guarding, 2, type="guard")
    act(picking, 2, type="pick", place="wald")
    for seat in (0, 1, 3, 4, None):
        assert GAME.view(guarding, seat) == GAME.view(picking, seat)
    assert GAME.deadline(guarding) == GAME.deadline(picking)


def test_protector_who_collects_acts_as_a_plain_cat() -> None:
    state = table(FIVE)
    pick_all(state, {2: "wald"})
    assert scene(state) == "witches"
    witch(state, 0, "wald", target=2)
    assert state["form"][2] == "frog"


def test_herbalist_restores_a_frog_at_the_end_of_the_day() -> None:
    state = table(EIGHT, frogs=[7])
    assert {"type": "restore", "frog": 7} in GAME.legal_actions(state, 5)
    pick_all(state, {5: ("restore", 7)})
    witches_idle(state)
    assert state["form"][7] == "cat"
    assert state["hands"][7] == [] and state["hands"][5] == []
    assert "Turned back into cats: p7" in english(state, state["log"][-1])


def test_herbalist_turned_in_the_attack_restores_nobody() -> None:
    state = table(EIGHT, frogs=[7])
    pick_all(state, {5: ("restore", 7)})
    witch(state, 0, "teich", target=5)
    witch(state, 1, "wald")
    assert state["form"][5] == "frog" and state["form"][7] == "frog"


def test_every_cat_at_a_place_collects_its_ingredient_witches_too() -> None:
    state = table(FIVE)
    pick_all(state, {1: "wald", 2: "brunnen", 3: "kraeutergarten", 4: "kraeutergarten"})
    witch(state, 0, "wald")
    assert [[c["ing"] for c in h] for h in state["hands"]] == [
        ["pilz"], ["pilz"], ["quellwasser"], ["salbei"], ["salbei"]]


def test_a_hand_holds_three_and_the_oldest_drops_out() -> None:
    state = table(FIVE, hands=[[], [], [], ["pilz", "salbei", "pilz"]])
    pick_all(state, {3: "brunnen"})
    witches_idle(state)
    assert [c["ing"] for c in state["hands"][3]] == ["salbei", "pilz", "quellwasser"]


def test_spells_unlock_with_rituals_failed_at_the_ritual() -> None:
    expected = {0: ["none"], 1: ["none", "verderben"], 2: ["none", "verderben", "fluch"],
                3: ["none", "verderben", "fluch", "doppelschlag"]}
    for failed, spells in expected.items():
        state = table(FIVE, failed=failed)
        pick_all(state)
        act(state, 0, type="witch_place", place="wald")
        assert [a["spell"] for a in GAME.legal_actions(state, 0)] == spells


def test_verderben_spoils_cards_handed_out_at_her_place_unseen_by_the_holder() -> None:
    state = table(FIVE, failed=1)
    pick_all(state, {3: "wald", 4: "brunnen"})
    witch(state, 0, "wald", spell="verderben")
    assert [c["spoiled"] for c in state["hands"][3]] == [True]
    assert [c["spoiled"] for c in state["hands"][4]] == [False]
    assert "spoiled" not in repr(GAME.view(state, 3))


def test_fluch_starts_tonights_curse_bar_at_one() -> None:
    from tests.hexnet.fang.helpers import confirm_all, end_talk

    state = table(FIVE, failed=2)
    pick_all(state)
    witch(state, 0, "brunnen", spell="fluch")
    confirm_all(state)
    end_talk(state)
    assert scene(state) == "proposal" and state["curse"] == 1


def test_doppelschlag_attacks_a_second_target_at_her_place() -> None:
    state = table(EIGHT, failed=3)
    pick_all(state, {3: "brunnen", 4: "brunnen", 7: "brunnen"})
    witch(state, 0, "brunnen", spell="doppelschlag", target=3, target2=7)
    witch(state, 1, "wald")
    assert [s for s, f in enumerate(state["form"]) if f == "frog"] == [3, 7]


def test_witches_may_attack_witches() -> None:
    state = table(EIGHT)
    pick_all(state)
    witch(state, 0, "brunnen", target=1)
    witch(state, 1, "brunnen")
    assert state["form"][1] == "frog"


def test_restored_frog_kept_its_hand_and_plays_on_normally() -> None:
    from tests.hexnet.fang.helpers import confirm_all, end_talk

    state = table(EIGHT, frogs=[7], hands=[[]] * 7 + [["mehl"]])
    assert GAME.legal_actions(state, 7) == []
    pick_all(state, {5: ("restore", 7)})
    witches_idle(state)
    assert [c["ing"] for c in state["hands"][7]] == ["mehl"]
    confirm_all(state)
    assert 7 in state["scene"]["need"]
    end_talk(state)
    assert any("7" in a["members"] for a in GAME.legal_actions(state, 0))


def test_the_guard_step_looks_like_picking_to_everyone_else() -> None:
    guarding = table(FIVE, options={"time_limits": True})
    collecting = table(FIVE, options={"time_limits": True})
    pick_all(guarding, {2: "guard", 3: "brunnen"})
    key = GAME.deadline(guarding).key
    act(guarding, 2, type="guard", place="wald")
    pick_all(collecting, {2: "wald", 3: "brunnen"})
    assert GAME.deadline(guarding).key != key  # the witches' window
    for seat in (1, 3, 4):
        a, b = GAME.view(guarding, seat), GAME.view(collecting, seat)
        for field in ("scene", "active", "deadline", "submitted", "my_choice"):
            assert a[field] == b[field], field
        assert [e["n"] for e in a["log"]] == [e["n"] for e in b["log"]]


def test_guard_step_keeps_the_pick_timer_running() -> None:
    state = table(FIVE, options={"time_limits": True})
    pick_all(state, {2: "guard"})
    view = GAME.view(state, 3)
    assert view["scene"] == "pick" and view["my_choice"] == {"place": "wald"}
    assert GAME.legal_actions(state, 3) == []
    assert GAME.view(state, 2)["scene"] == "guard"
    assert GAME.deadline(state).key.endswith(":pick")


def test_every_seat_gets_one_private_day_summary() -> None:
    state = table(FIVE, frogs=[4])
    pick_all(state, {2: "guard", 3: "brunnen"})
    act(state, 2, type="guard", place="brunnen")
    witch(state, 0, "brunnen", target=3)
    summaries = [e for e in state["log"] if e.get("kind") == "day_summary"]
    assert [e["to"] for e in summaries] == [[0], [1], [2], [3], [4]]
    assert [e["names_role"] for e in summaries] == [True, False, True, False, False]
    assert [e["key"] for e in summaries] == ["day_witch_collected", "day_collected", "day_guard",
                                             "day_collected", "day_pond"]
    assert [english(state, e) for e in summaries] == [
        "You went to Brunnen, cast no spell and attacked p3. You collected Quellwasser at "
        "Brunnen.",
        "You collected Pilz at Wald.",
        "You guarded Brunnen and collected nothing.",
        "You collected Quellwasser at Brunnen.",
        "You sat the day out at the pond.",
    ]


def test_no_seat_counts_as_needed_while_who_is_needed_is_secret() -> None:
    # The host's idle count (--idle-absent) runs only on needed seats: at a pick the needed
    # set is the non-witches, so an absent mark there would point at the witches.
    state = table(FIVE)
    assert scene(state) == "pick" and GAME.waiting_for(state) == [1, 2, 3, 4]
    assert GAME.needed(state) == []
    pick_all(state)
    assert scene(state) == "witches" and GAME.needed(state) == []


def test_a_seat_that_only_may_change_its_pick_is_waited_on_but_no_bot_is_asked() -> None:
    state = table(FIVE)
    act(state, 3, type="pick", place="wald")
    assert 3 in GAME.waiting_for(state)  # it may still change the pick
    assert 3 not in GAME.bots_asked(state) and 4 in GAME.bots_asked(state)


def test_a_witch_the_herbalist_restores_as_the_witches_win_sees_her_view() -> None:
    """Random play at 11 seats, the role list of 6ef6e3b's balanced table (seed 101): the
    herbalist restores the frog witch 8 at the end of day 6, and that end of day is the
    witches' win. The game ends in the witches' window, where witch 8, a frog when it opened,
    has no choices of her own: her view (and every other) must still be built (CI of 6ef6e3b:
    a TypeError)."""
    from tests.hexnet.redeal import random_positions

    roles = ["hexe"] * 4 + ["kraehe", "seherin", "beschuetzer", "kraeuterkundige", "taschendieb"]
    *_, last = random_positions("fang", 11, 101, 50, options={"roles": roles})
    assert (last["outcome"]["result"], last["scene"]["name"]) == ("witches", "witches")
    assert last["roles"][8] == "hexe" and last["form"][8] == "cat"
    assert last["today"]["witches"][8] is None
    views = [GAME.view(last, seat) for seat in [*range(11), None]]
    assert "witch" not in views[8] and views[0]["witch"]["stage"] == "done"
