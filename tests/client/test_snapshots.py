"""Snapshots at 80×24 of the lobby, the Hexenhammer table (your turn, a reaction prompt with
its countdown) and the results, from fixed views (tests/client/views.py)."""

from __future__ import annotations

import pytest

from tests.client.harness import ScreenApp

pytestmark = pytest.mark.usefixtures("frozen_clock")


def test_lobby_lists_tables_with_their_seats(snap_compare) -> None:
    assert snap_compare(ScreenApp("lobby"), terminal_size=(80, 24))


def test_table_shows_villagers_hand_and_your_turn(snap_compare) -> None:
    assert snap_compare(ScreenApp("your_turn"), terminal_size=(80, 24))


def test_table_prompts_a_reaction_out_of_turn_with_countdown(snap_compare) -> None:
    assert snap_compare(ScreenApp("reaction"), terminal_size=(80, 24))


def test_picker_asks_the_accuser_after_choosing_a_card(snap_compare) -> None:
    assert snap_compare(ScreenApp("your_turn"), terminal_size=(80, 24), press=["enter"])


def test_results_show_the_full_score_breakdown(snap_compare) -> None:
    assert snap_compare(ScreenApp("over"), terminal_size=(80, 24))
