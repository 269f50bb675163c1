"""The replay screen: a game's own table screen, driven by a recorded game instead of a host.

:func:`replay_screen` builds it from the game's table screen (so a replay looks exactly like the
table did) with :class:`ReplayControls` in front: the keys step through the positions of a
:class:`hexnet.replay.Replay` and every move key of the table is switched off (a replay sends
nothing). The status line says where you are (step, round, whose eyes), the prompt line what
was done to reach this position.

Keys: → / ← one step, PgDn / PgUp (or ] / [) the start of the next / this (or the previous)
round, Home / End the deal / the end, Space plays on at the chosen speed (+ / − change it),
v (all-seeing) shows the next seat's hand, r the results at the end, Esc closes the replay.
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual.binding import Binding
from textual.timer import Timer
from textual.widgets import Static

from client.replay.text import action_text, event_text, viewer_text
from client.screens import table_screen_for
from client.screens.table_base import Action, TableScreen
from client.widgets.log import GameLog
from hexnet.i18n import N_, _
from hexnet.replay import ALL, Replay

SPEEDS = (0.5, 1.0, 2.0, 4.0, 8.0, 16.0)  # steps a second
DEFAULT_SPEED = 2.0
# the actions a replay answers to; every other binding of the table screen is switched off
REPLAY_ACTIONS = frozenset({
    "step_forward", "step_back", "next_round", "previous_round", "to_start", "to_end",
    "play_pause", "faster", "slower", "next_seat", "results", "close_replay", "app.help",
    "help", "quit", "next_language"})
ROUND_WORDS = {"hexenhammer": N_("round {n}"), "fang": N_("day {n}"), "hranice": N_("turn {n}")}
HELP_NOTES = (
    N_("→ ← one step forward / back; PgDn PgUp (or ] [) the start of the next round (day, "
       "turn) / of this one (again: the one before); Home End the deal / the end."),
    N_("Space plays the game on by itself; + and − change the speed."),
    N_("All-seeing (--all): v shows the next player's hand; private lines of the log name whom "
       "they were for."),
    N_("r shows the results at the end; Esc closes the replay."),
)


class ReplayControls:
    """The replay's half of a replay screen (mixed in before a game's table screen)."""

    HELP_TITLE: ClassVar[str] = N_("Replay")
    HELP_NOTES: ClassVar[tuple[str, ...] | str] = HELP_NOTES
    # priority: the hand's and the choice list's own keys (PgUp, Home, …) must not take them
    BINDINGS: ClassVar[list[Binding]] = [
        Binding("right,full_stop", "step_forward", N_("Step"), priority=True),
        Binding("left,comma", "step_back", N_("Back"), priority=True),
        # the rounds' keys are in ? (help): shown too, the key bar ran past 80 columns
        Binding("pagedown,right_square_bracket", "next_round", N_("Next round"),
                key_display="PgDn", priority=True, show=False),
        Binding("pageup,left_square_bracket", "previous_round", N_("Round start"),
                key_display="PgUp", priority=True, show=False),
        Binding("home", "to_start", N_("Deal"), show=False, priority=True),
        Binding("end", "to_end", N_("End"), show=False, priority=True),
        Binding("space", "play_pause", N_("Play"), priority=True),
        Binding("plus,equals_sign", "faster", N_("Faster"), show=False),
        Binding("minus", "slower", N_("Slower"), show=False),
        Binding("v", "next_seat", N_("Next hand"), show=False),
        Binding("r", "results", N_("Results"), show=False),
        Binding("escape", "close_replay", N_("Close")),
    ]

    def __init__(self, replay: Replay, verdict: str = "", seat: int | None = None,
                 speed: float = DEFAULT_SPEED) -> None:
        super().__init__(replay.record.table or 0)  # type: ignore[call-arg]
        self.replay = replay
        self.verdict = verdict
        self.position = 0
        self.shown_seat = seat if isinstance(seat, int) else 0  # all-seeing: whose hand
        self.speed = speed
        self.playing: Timer | None = None
        self._results_shown = True  # results only on r: stepping must not be interrupted
        self.role_shown = True  # Fang: the role card face up (it is a replay)

    # -- what the table screen asks -------------------------------------------------------
    def on_mount(self) -> None:
        # Textual calls every on_mount of the class's ancestry (this one first): draw after them
        self.call_later(self._first_draw)  # type: ignore[attr-defined]

    def _first_draw(self) -> None:
        self.show_position(0)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Only the replay's keys (and help, language, quit) work here."""
        if action == "next_seat":
            return self.replay.viewer == ALL
        return action in REPLAY_ACTIONS

    def event_text(self, event: dict[str, Any]) -> str:
        return event_text(self.replay, event)

    def status_text(self) -> str:
        """Where the replay is first (step, round, whose eyes, playing), then the game's own
        status (its title and phase) — at 80 columns the end may be cut, never the position."""
        replay = self.replay
        parts = ["↺ " + _("step {n}/{last}").format(n=self.position, last=replay.last)]
        round_no = replay.round_at(self.position)
        if round_no is not None:
            parts.append(_(ROUND_WORDS.get(replay.record.game, N_("round {n}"))).format(
                n=round_no))
        who = viewer_text(replay)
        if replay.viewer == ALL:
            who += " · " + _("hand of {player}").format(
                player=replay.record.players[self.shown_seat])
        parts.append(who)
        if self.playing is not None:
            parts.append(_("▶ {speed:g}/s").format(speed=self.speed))
        parts += [self.title_text(), self.phase_text()]  # type: ignore[attr-defined]
        return " │ ".join(p for p in parts if p)

    def prompt_text(self) -> str:
        position = self.replay.positions[self.position]
        return action_text(self.replay, position)

    def title_text(self) -> str:
        return _("Replay: {game}").format(game=self.replay.game.title)

    def player_name(self, seat: int | None, you: bool = True) -> str:
        # "you" only where the replay is seen through that seat's eyes
        mine = you and self.replay.viewer not in (None, ALL)
        return super().player_name(seat, mine)  # type: ignore[misc]

    def show_hint(self, view: dict[str, Any], legal: list[Action]) -> None:
        """No tutorial hints in a replay (they speak to a player who is to move)."""
        self.query_one("#tutorial-hint", Static).display = False  # type: ignore[attr-defined]

    def action_use_card(self) -> None:
        """Enter on a card does nothing in a replay (its text shows below the hand)."""

    async def send_action(self, action: Action) -> None:
        """A replay sends nothing."""

    # -- moving -----------------------------------------------------------------------------
    def show_position(self, index: int) -> None:
        """Show the game at position ``index`` (clamped to the game)."""
        index = max(0, min(self.replay.last, index))
        log = self.query_one(GameLog)  # type: ignore[attr-defined]
        if index != self.position + 1:
            log.reset()  # back or a jump: the log starts afresh from this view's lines
            if self.verdict:
                log.add_note(self.verdict, warning=False)
        self.position = index
        view = self.replay.view_at(index, self.shown_seat)
        view["deadline"] = None  # no clock runs in a replay
        if index == self.replay.last:
            self._stop()
        self.update_view(view, [])  # type: ignore[attr-defined]

    def action_step_forward(self) -> None:
        self.show_position(self.position + 1)

    def action_step_back(self) -> None:
        self.show_position(self.position - 1)

    def action_next_round(self) -> None:
        self.show_position(self.replay.next_round(self.position))

    def action_previous_round(self) -> None:
        self.show_position(self.replay.previous_round(self.position))

    def action_to_start(self) -> None:
        self.show_position(0)

    def action_to_end(self) -> None:
        self.show_position(self.replay.last)

    def action_next_seat(self) -> None:
        if self.replay.viewer == ALL:
            self.shown_seat = (self.shown_seat + 1) % len(self.replay.record.players)
            self.query_one(GameLog).reset()  # type: ignore[attr-defined]
            self.position -= 1  # redraw the same position whole
            self.show_position(self.position + 1)

    def action_play_pause(self) -> None:
        if self.playing is not None:
            self._stop()
        else:
            if self.position >= self.replay.last:
                self.show_position(0)
            self.playing = self.set_interval(  # type: ignore[attr-defined]
                1.0 / self.speed, self.action_step_forward)
        self.query_one("#status", Static).update(self.status_text())  # type: ignore[attr-defined]

    def _stop(self) -> None:
        if self.playing is not None:
            self.playing.stop()
            self.playing = None

    def _set_speed(self, faster: bool) -> None:
        i = min(range(len(SPEEDS)), key=lambda k: abs(SPEEDS[k] - self.speed))
        self.speed = SPEEDS[max(0, min(len(SPEEDS) - 1, i + (1 if faster else -1)))]
        if self.playing is not None:
            self._stop()
            self.action_play_pause()
        else:
            self.query_one("#status", Static).update(  # type: ignore[attr-defined]
                self.status_text())
        self.notify(_("Speed: {speed:g} steps a second").format(  # type: ignore[attr-defined]
            speed=self.speed))

    def action_faster(self) -> None:
        self._set_speed(True)

    def action_slower(self) -> None:
        self._set_speed(False)

    def action_close_replay(self) -> None:
        self._stop()
        self.dismiss(None)  # type: ignore[attr-defined]


def replay_screen(replay: Replay, verdict: str = "", seat: int | None = None,
                  speed: float = DEFAULT_SPEED) -> TableScreen:
    """The replay screen of ``replay``: its game's table screen with the replay's keys."""
    base = table_screen_for(replay.record.game)
    # Textual merges BINDINGS only from its own classes' bodies: give the new class ours
    cls = type(f"Replay{base.__name__}", (ReplayControls, base),
               {"BINDINGS": ReplayControls.BINDINGS})
    return cls(replay, verdict, seat, speed)
