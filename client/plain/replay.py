"""``hexnet replay JOURNAL --plain``: a recorded game stepped through in typed lines.

Each step is said as the text replay prints it (:mod:`client.replay.text`: who did what, then
the events the viewer saw); Enter or ``next`` goes on, ``back`` one step back, ``round`` to
the next round (day, turn), ``start``/``end``, ``go N`` to step N; ``table`` and ``hand`` say
the position as the plain table does (the game's describer), ``seat N`` whose hand an
all-seeing replay shows, ``results`` the outcome, ``quit`` ends.
"""

from __future__ import annotations

import asyncio
from typing import Any

from client.plain.console import Console, sentence
from client.plain.describe import describer_for
from client.replay.text import action_text, event_text, lines, result_text
from hexnet.i18n import _
from hexnet.replay import ALL, Replay


class PlainReplay:
    """One replay, said a step at a time."""

    def __init__(self, replay: Replay, verdict: list[str], console: Console | None = None) -> None:
        self.replay = replay
        self.verdict = verdict
        self.console = console or Console()
        self.position = 0
        self.seat = replay.viewer if isinstance(replay.viewer, int) else 0
        self.describer = describer_for(replay.record.game)

    def say(self, *text: str) -> None:
        self.console.say(*text)

    def view(self) -> dict[str, Any]:
        view = self.replay.view_at(self.position, self.seat)
        view["deadline"] = None  # no clock runs in a replay
        return view

    def step(self, index: int) -> None:
        """Go to position ``index`` and say how it was reached."""
        replay = self.replay
        self.position = max(0, min(replay.last, index))
        position = replay.positions[self.position]
        self.say(_("Step {n} of {last}: {what}").format(
            n=self.position, last=replay.last, what=sentence(action_text(replay, position))))
        self.say(*[event_text(replay, e) for e in position.events if replay.sees(e)])
        if self.position == replay.last:
            self.say(_("This is the last step. Type results for the outcome, back to go back, "
                       "or quit."))

    def help(self) -> None:
        self.say(_("Enter or next: the next step; back: one step back; round: the next round; "
                   "start, end; go and a number: that step."),
                 _("table: the table at this step; hand: the hand shown; seat and a number: "
                   "whose hand an all-seeing replay shows; results; all: the whole game as "
                   "lines; quit."))

    def command(self, line: str) -> bool:
        """Carry out one typed line; False when the replay should end."""
        verb, _sep, rest = line.strip().partition(" ")
        verb = verb.lower()
        replay = self.replay
        words = self.describer.words(self.view(), [], watching=replay.viewer is None,
                                     role_shown=True)
        if verb in ("", "next", "n"):
            self.step(self.position + 1)
        elif verb in ("back", "b"):
            self.step(self.position - 1)
        elif verb == "round":
            self.step(replay.next_round(self.position))
        elif verb == "start":
            self.step(0)
        elif verb == "end":
            self.step(replay.last)
        elif verb == "go" and rest.strip().isdigit():
            self.step(int(rest))
        elif verb == "table":
            self.say(*self.describer.table_lines(words))
        elif verb == "hand":
            self.say(*self.describer.hand_lines(words))
        elif verb == "seat" and rest.strip().isdigit() and replay.viewer == ALL:
            self.seat = max(0, min(len(replay.record.players) - 1, int(rest) - 1))
            self.say(_("Showing the hand of {player}.").format(
                player=replay.record.players[self.seat]))
        elif verb == "results":
            self.say(_("Result: {result}").format(result=result_text(replay.record))
                     if replay.record.outcome is not None
                     else _("The game has not finished."))
        elif verb == "all":
            self.say(*lines(replay, self.verdict))
        elif verb in ("quit", "exit", "q"):
            return False
        else:
            self.help()
        return True

    async def run(self) -> int:
        """Say the replay's head and the deal, then follow typed lines until quit."""
        typed: asyncio.Queue[str | None] = asyncio.Queue()
        self.console.start(typed.put_nowait)
        try:
            head = list(lines(self.replay, self.verdict))
            self.say(*[h.removeprefix("# ") for h in head if h.startswith("# ")][:3 + len(
                self.verdict)])
            self.help()
            self.step(0)
            while True:
                line = await typed.get()
                if line is None or not self.command(line):
                    return 0
        finally:
            self.console.stop()


def run(replay: Replay, verdict: list[str]) -> int:
    """Run the plain replay of ``replay`` (checked: ``verdict`` says how)."""
    return asyncio.run(PlainReplay(replay, verdict).run())
