"""Issue 17, correction 1 at the table: trials may be played at any time in their phases, even
out of turn. A seat the game does not wait on but that holds a trial is offered it, and the
prompt says so ("A trial, at any time") instead of calling it the seat's turn. Views come from
the real engine."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from client.screens.hexenhammer import HexenhammerScreen
from hexnet.games.hexenhammer import GAME
from tests.client.conftest import wait_until
from tests.client.harness import ScreenApp
from tests.hexnet.hexenhammer.util import card, scenario, start

# seat 0 (us): Theresa, Heinbichl · seat 1: Karl, Maria · seat 2 (the inquisitor): Raphael,
# Bertram; phase 3, Karl the current witch
ROWS = [["theresa", "heinbichl"], ["karl", "maria"], ["raphael", "bertram"]]


def phase3(turn: int) -> tuple[dict[str, Any], list[dict[str, Any]], str]:
    """Seat 0's view and legal actions in phase 3 with ``turn`` to play, and its trial's id."""
    state = start(scenario(ROWS, [["wasserprobe_schwimmt", "beweys:1"], ["beweys:1"], []],
                           phase=3, inquisitor=2, turn=turn, suspicion={"karl": 10}))
    return GAME.view(state, 0), GAME.legal_actions(state, 0), card(state, 0,
                                                                   "wasserprobe_schwimmt")


async def shown(view: dict[str, Any], legal: list[dict[str, Any]]) -> tuple[str, Any]:
    app = ScreenApp("trial", source=SimpleNamespace(trial_view=lambda: (view, legal)),
                    show_lobby=False)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_until(pilot, lambda: isinstance(app.screen, HexenhammerScreen)
                                  and app.screen, what="the table")
        return str(screen.query_one("#prompt").render()), screen.legal


async def test_a_trial_out_of_turn_is_offered_as_a_trial_at_any_time() -> None:
    view, legal, trial = phase3(turn=1)
    assert view["active"] == [1] and legal == [{"type": "play", "card": trial}]
    prompt, offered = await shown(view, legal)
    assert prompt.startswith("A trial, at any time: Enter: play a ▶ card")
    assert offered == [{"type": "play", "card": trial}]


async def test_on_ones_own_phase_three_turn_the_prompt_is_ones_turn() -> None:
    view, legal, trial = phase3(turn=0)
    assert view["active"] == [0] and {"type": "play", "card": trial} in legal
    prompt, _ = await shown(view, legal)
    assert prompt.startswith("Your turn: ")
