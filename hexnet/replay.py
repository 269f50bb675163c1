"""Stepping through a recorded game: positions, views, rounds.

Position ``p`` (``0 ≤ p ≤ len(steps)``) is the game after its first ``p`` steps; position 0 is
the deal. A :class:`Replay` plays the record once (keeping a snapshot every
:data:`SNAPSHOT_EVERY` steps) and then builds any position's view on demand — from one seat's
point of view (exactly the view that seat was sent: ``game.view(state, seat)``), the public one
(``seat`` None), or all-seeing (every event, with its audience; only for a finished game).

Rounds: a game names the view field that counts its rounds (``Game.round_field``: Hexenhammer's
``round``, Fang's ``day``, Hranice's ``turns``); :meth:`Replay.next_round` and
:meth:`Replay.previous_round` jump to where it changes. Words are the client's
(:mod:`client.replay.text`): this module holds data only.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import Any

from hexnet.engine import Event, Game, State, visible
from hexnet.record import Record, RecordError

SNAPSHOT_EVERY = 16
ALL_SEEING_LOG = 80  # events in the all-seeing view's log (every seat's private lines too)
ALL = "all"  # the all-seeing viewer


class ReplayError(ValueError):
    """A replay that may not be shown (all-seeing before the end, an unknown seat)."""


@dataclass
class Position:
    """One position of the game: what was applied to reach it and what it looked like."""

    index: int
    seat: int | None  # who acted to reach it (None: the host, or the deal at index 0)
    action: dict[str, Any] | None
    label: dict[str, Any] | None  # the action as data (``describe_action``), None for the host
    events: list[Event]  # the events of that step (with their audience)


class Replay:
    """A record, played once, viewable at every position by ``viewer`` (a seat, None for the
    public view, or :data:`ALL`)."""

    def __init__(self, record: Record, viewer: int | str | None = None) -> None:
        self.record = record
        self.game: Game = record.engine()
        players = len(record.players)
        if viewer == ALL and not record.finished:
            raise ReplayError("the game has not finished: a running game replays only from "
                              "one seat or the public view")
        if viewer is not None and viewer != ALL and (
                not isinstance(viewer, int) or not 0 <= viewer < players):
            raise ReplayError(f"no seat {viewer!r} at this table (seats 0–{players - 1})")
        self.viewer = viewer
        self._snapshots: list[bytes] = []
        self.positions: list[Position] = []
        self.rounds: list[Any] = []  # the round at every position
        self._play()

    # -- playing it once ------------------------------------------------------------------
    def _play(self) -> None:
        game = self.game
        try:
            state = game.setup(list(self.record.players), self.record.seed,
                               self.record.options)
        except Exception as exc:  # noqa: BLE001 - a hostile record gives an error, not a crash
            raise RecordError(f"the game cannot be set up again: {exc}") from exc
        self.positions.append(Position(0, None, None, None, list(state["log"])))
        self._keep(state)
        for i, (seat, action, _digest) in enumerate(self.record.steps, 1):
            label = None
            if seat is not None:
                try:
                    label = game.describe_action(state, seat, action)
                except Exception:  # noqa: BLE001 - an odd action still replays below
                    label = None
            try:
                events = game.apply(state, seat, action)
            except Exception as exc:  # noqa: BLE001
                raise RecordError(f"step {i} does not replay: {exc}") from exc
            self.positions.append(Position(i, seat, dict(action), label, list(events)))
            self._keep(state)

    def _keep(self, state: State) -> None:
        index = len(self.positions) - 1
        if index % SNAPSHOT_EVERY == 0:
            self._snapshots.append(self.game.dump(state))
        field = self.game.round_field
        self.rounds.append(self.game.view(state, None, log=False).get(field) if field else None)

    # -- positions --------------------------------------------------------------------------
    @property
    def last(self) -> int:
        """The last position (after every step)."""
        return len(self.positions) - 1

    def state_at(self, index: int) -> State:
        """The game state at position ``index`` (a fresh copy)."""
        index = max(0, min(self.last, index))
        base = index // SNAPSHOT_EVERY
        state = self.game.load(self._snapshots[base])
        for seat, action, _digest in self.record.steps[base * SNAPSHOT_EVERY:index]:
            self.game.apply(state, seat, action)
        return state

    def view_at(self, index: int, seat: int | None = None) -> dict[str, Any]:
        """The view at position ``index``: the viewer's own (a seat's or the public one); for
        the all-seeing viewer the view of ``seat`` (default 0) with every event of the game in
        its log (each keeping its audience, ``to``)."""
        state = self.state_at(index)
        if self.viewer != ALL:
            return self.game.view(state, self.viewer)  # type: ignore[arg-type]
        shown = seat if isinstance(seat, int) else 0
        view = self.game.view(state, shown)
        view["log"] = [dict(e) for e in state["log"][-ALL_SEEING_LOG:]]
        return view

    def round_starts(self) -> list[int]:
        """The positions where a round (a day, a turn) begins: 0 and each change."""
        return [0] + [i for i in range(1, len(self.rounds)) if self.rounds[i] != self.rounds[i - 1]]

    def next_round(self, index: int) -> int:
        """The start of the round after the one at ``index`` (the last position if none)."""
        starts = self.round_starts()
        found = bisect.bisect_right(starts, index)
        return starts[found] if found < len(starts) else self.last

    def previous_round(self, index: int) -> int:
        """The start of the round at ``index``; if ``index`` is that start, of the one before."""
        starts = self.round_starts()
        found = bisect.bisect_left(starts, index)
        return starts[found - 1] if found > 0 else 0

    def round_at(self, index: int) -> Any:
        """The round (day, turn) number at position ``index``, None for a game without one."""
        return self.rounds[max(0, min(self.last, index))]

    # -- who may see what -------------------------------------------------------------------
    def sees(self, event: Event) -> bool:
        """Whether the viewer may see ``event``."""
        return self.viewer == ALL or visible(event, self.viewer)  # type: ignore[arg-type]

    def sees_action(self, position: Position) -> bool:
        """Whether the viewer may know what was done to reach ``position``: everything once
        the game is over (the reveal shows every step to every seat), else only a seat's own."""
        return self.record.finished or (position.seat is not None
                                        and position.seat == self.viewer)


def parse_seat(text: str, players: list[str]) -> int:
    """A seat named by number (``0``) or by player name (case-insensitive); ReplayError if it
    names none."""
    text = text.strip()
    if text.isdigit() and int(text) < len(players):
        return int(text)
    matches = [i for i, p in enumerate(players) if p.lower() == text.lower()]
    if len(matches) == 1:
        return matches[0]
    raise ReplayError(f"no seat {text!r} at this table; the seats are " + ", ".join(
        f"{i} ({p})" for i, p in enumerate(players)))
