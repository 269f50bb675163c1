""""Replay this game" from a results screen: the reveal the client received is the record.

At the end of a game the host reveals seed, salt, options and every step to each seat
(:mod:`client.fairplay` checks them and keeps them in ``app.revealed``); that is all a replay
needs, so the results screen replays the game without any journal file.
"""

from __future__ import annotations

from typing import Any

from hexnet.i18n import _


def open_replay(app: Any, table: int, view: dict[str, Any], everyone: bool = False) -> bool:
    """Push the replay of ``table`` (its results ``view``): as that seat saw it, or with
    ``everyone`` all-seeing. False (and a notification saying why) if it cannot be replayed."""
    from client.replay.screen import replay_screen
    from hexnet.record import Record, RecordError
    from hexnet.replay import ALL, Replay

    parts = getattr(app, "revealed", {}).get(table)
    verdict = getattr(app, "fair_play_verdicts", {}).get(table)
    if not parts or verdict is None:
        app.notify(_("The host has not revealed this game yet; try again in a moment."),
                   severity="warning")
        return False
    if not verdict.ok:
        app.notify(_("The revealed game failed the fair-play check; it is not replayed."),
                   severity="error")
        return False
    seat = view.get("seat")
    try:
        record = Record.from_reveal(parts, view.get("outcome"))
        replay = Replay(record, ALL if everyone or not isinstance(seat, int) else seat)
    except (RecordError, ValueError) as exc:
        app.notify(str(exc), severity="error", markup=False)
        return False
    record.table = table
    note = _("Fair play verified ✓ — the game as the host revealed it")
    app.push_screen(replay_screen(replay, note, seat if isinstance(seat, int) else None))
    return True
