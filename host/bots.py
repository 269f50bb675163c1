"""Host-side bots (part of the sans-I/O core): a bot seat the game waits on is asked with a
:class:`host.core.BotTurn` effect; after the host's bot delay the shell calls
:meth:`HostBots.bot_turn` — or, for a policy that ``thinks`` (search), runs it off its event loop
with what :meth:`HostBots.bot_question` gives and hands the choice to :meth:`HostBots.bot_answer`.
A stale question (the table moved on) is ignored, and so is every question and answer while the
table's bots are paused (:mod:`host.pause` asks again when they go on); a missing or refused
choice is the bot's first legal action, so a confused policy never stalls a table. A bot keeping
an absent player's seat counts the moves it made for them
(:meth:`host.presence.Presence.played_for`). At a secret step a bot's choice waits for the step's
next tick like a player's (:mod:`host.pacing`), and is played then if the bot's choice is still
the one it was asked and its bots are not paused meanwhile.
"""

from __future__ import annotations

from typing import Any

from hexnet.engine import IllegalAction
from hexnet.games import get_policy
from host.core import Outbox
from host.playing import Play
from host.presence import Presence
from host.table import Table, accepted


class HostBots:
    """Plays the host's bot seats (the bots' own state is each table's ``bot_rng``)."""

    def __init__(self, out: Outbox, tables: dict[int, Table], presence: Presence,
                 play: Play) -> None:
        self.out = out
        self.tables = tables  # the registry's (read only here)
        self.presence = presence
        self.play = play

    def bot_turn(self, table_id: int, seat: int, state_id: int) -> None:
        """Let the bot in ``seat`` choose from its view, if ``state_id`` is still current."""
        asked = self.bot_question(table_id, seat, state_id)
        if asked is None:
            return
        view, legal, policy, rng = asked
        try:
            action = policy(view, legal, rng)
        except Exception:  # noqa: BLE001 - a confused policy must not stall the table
            action = legal[0]
        self.bot_answer(table_id, seat, state_id, action)

    def bot_question(self, table_id: int, seat: int, state_id: int
                     ) -> tuple[dict[str, Any], list[dict[str, Any]], Any, Any] | None:
        """What the bot in ``seat`` decides on — its view, legal actions, policy and the
        table's bot generator — or None if ``state_id`` is stale. A shell may run a policy that
        ``thinks`` off its event loop and hand the choice to :meth:`bot_answer`."""
        table = self.tables.get(table_id)
        if (table is None or table.status != "playing" or table.version != state_id
                or table.bots_paused or seat not in table.waiting_for()
                or table.seats[seat].kind != "bot"):
            return None
        view, legal = table.view(seat)
        policy = get_policy(table.game_name, table.seats[seat].policy or "random")
        return view, legal, policy, table.bot_rng

    def bot_answer(self, table_id: int, seat: int, state_id: int,
                   action: dict[str, Any] | None) -> None:
        """Apply the bot's choice if ``state_id`` is still current (its first legal action if
        the choice is missing or refused)."""
        table = self.tables.get(table_id)
        if (table is None or table.status != "playing" or table.version != state_id
                or table.bots_paused or seat not in table.waiting_for()
                or table.seats[seat].kind != "bot"):
            return
        if self.play.changes.is_paced(table) and not self.play.ticking:
            table.queued.append(("bot", seat, action, table.choice_now(seat)))
            return
        self.settle(table, seat, action)
        self.out.flush()

    def settle(self, table: Table, seat: int, action: dict[str, Any] | None,
               choice: tuple[Any, bytes] | None = None) -> None:
        """Play the bot's ``action`` now — at a secret step's tick only if its ``choice`` (the
        step key and legal actions it was asked with) is unchanged (else it is asked again)."""
        if (table.status != "playing" or table.bots_paused or seat not in table.waiting_for()
                or table.seats[seat].kind != "bot"
                or (choice is not None and table.choice_now(seat) != choice)):
            return
        legal = table.legal(seat)
        if action is None:  # the policy failed or was stopped: its first legal action
            action = legal[0]
        try:
            events = table.act(seat, action)
        except IllegalAction:
            action = legal[0]
            events = table.act(seat, action)
        self.out.emit(accepted(table, seat, action, events))
        if table.seats[seat].reserved is not None:
            self.presence.played_for(table, seat)
        self.play.advance(table)
