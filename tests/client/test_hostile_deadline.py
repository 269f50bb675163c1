"""The client survives any deadline a host sends (issue 9, finding 3): NaN, infinities,
negative, huge, or not a number at all — the table screen keeps running and shows a sane
countdown or none."""

from __future__ import annotations

import copy

import pytest

from client.widgets.countdown import Countdown
from tests.client.harness import ScreenApp

LONGEST = 99_999  # the most a countdown shows (client.widgets.countdown.LONGEST)

HOSTILE = [(float("nan"), None), (float("inf"), "⏱ 27:46 h"), (float("-inf"), "⏱ 0s"),
           (-5, "⏱ 0s"), (1e300, "⏱ 27:46 h"), ("soon", None), ([1], None), (True, None),
           (12, "⏱ 12s")]


@pytest.mark.parametrize("seconds, shown", HOSTILE, ids=[repr(s) for s, _ in HOSTILE])
async def test_a_table_screen_survives_any_deadline_value(seconds, shown, frozen_clock) -> None:
    app = ScreenApp("your_turn")  # (the countdown's clock stands still: what it shows is exact)
    async with app.run_test() as pilot:
        await pilot.pause()
        view, legal = copy.deepcopy(app.views[1])
        view["deadline"] = {"key": "hostile", "seconds": seconds, "seats": [0],
                            "on_expiry": "?"}
        view["state_id"] += 1
        app.table_screen.update_view(view, legal)
        await pilot.pause(0.6)  # a tick of the countdown passes
        countdown = app.table_screen.query_one(Countdown)
        text = str(countdown.render())
        if shown is None:
            assert countdown.remaining is None and text == ""
        else:
            assert 0 <= countdown.remaining <= LONGEST
            assert text == shown
        assert app.is_running


@pytest.mark.parametrize("left,shown", [(0, "⏱ 0s"), (59, "⏱ 59s"), (60, "⏱ 1:00"),
                                        (605, "⏱ 10:05"), (3599, "⏱ 59:59"),
                                        (3600, "⏱ 1:00 h"), (7260, "⏱ 2:01 h")])
def test_a_long_countdown_reads_as_minutes_and_hours(left: int, shown: str) -> None:
    """Issue 26, item 7: a tutorial's hour-long window read "⏱ 3599s"."""
    from client.widgets.countdown import clock

    assert clock(left) == shown
