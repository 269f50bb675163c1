"""Hranice's words: the turn with its two-action counter, what a reaction window answers, cards
and citizens as they read, an action as a sentence (:mod:`client.widgets.hranice_board` draws
the board from the same words)."""

from __future__ import annotations

from typing import Any

from client.choosing import MISSING
from client.widgets import hranice_board as board
from client.words.table import Action, TableWords
from hexnet import i18n
from hexnet.games.hranice.view import action_label
from hexnet.i18n import N_, _, ngettext

TYPE_WORDS = {
    "draw": N_("draw a card"), "citizen": N_("play a citizen"), "accuse": N_("accuse"),
    "cleanse": N_("cleanse"), "action": N_("play an action"), "react": N_("react"),
    "pass": N_("pass"), "discard": N_("discard"), "flip": N_("flip the token"),
    "end": N_("end the turn"),
}


class HraniceWords(TableWords):
    """Hranice's table in words."""

    GAME = board.GAME

    def names(self, seat: int | None) -> str:
        """A player's name ("nobody" for no seat)."""
        return self.player_name(seat) if isinstance(seat, int) else _("nobody")

    def phase_parts(self) -> list[str]:
        """The turn, whose it is and the actions left (``●○``)."""
        v = self.view
        if v.get("outcome"):
            return [_("game over")]
        return [_("Turn {n}: {who} {dots}").format(
            n=v.get("turns", "?"), who=self.short_name(v.get("turn")),
            dots=board.action_dots(int(v.get("actions_left") or 0)))]

    def move_heading(self) -> str:
        """What you are asked: a reaction to what happened, Výslech's pick, the flip at the end
        of your turn, or your turn with the actions left."""
        window = self.view.get("window")
        if window:
            return board.trigger_text(self.view, window, self.names, reactions=False) + " — "
        step = self.view.get("step") or {}
        if step.get("stage") == "choose":
            return board.name("vyslech") + ": "
        if step.get("stage") == "flip":
            return _("End of your turn: ")
        left = int(self.view.get("actions_left") or 0)
        return ngettext("Your turn ({n} action left): ", "Your turn ({n} actions left): ",
                        left).format(n=left)

    def label_value(self, field: str, value: Any) -> str:
        if value is MISSING:
            return "—"
        if field == "type":
            if value == "pass" and self.view.get("window"):
                return _("let it pass")
            return _(TYPE_WORDS[str(value)]) if str(value) in TYPE_WORDS else str(value)
        if field == "card" and isinstance(value, str):
            return board.name(value)
        if field == "target" and isinstance(value, str):
            return board.whose(self.view, value, self.names)
        if field == "player" and isinstance(value, int):
            return self.player_name(value, you=False)
        return super().label_value(field, value)

    def describe(self, action: Action) -> str:
        """A whole action as a sentence."""
        defence = self.view.get("defence") or {}
        label = action_label(action, self.view.get("seat"),
                             lambda card: board.owner_of(self.view, card),
                             lambda card: defence.get(card, 0))
        return i18n.render_label(board.GAME, label, self.view.get("players") or [])

    def hand(self) -> list[str]:
        """Your cards in the order the hand shows them."""
        return board.hand_order([str(c) for c in self.view.get("hand") or []])

    def usable_cards(self) -> set[str]:
        """Your cards some legal action now names (not Výslech's pick: that names theirs)."""
        kinds = {str(a["card"]) for a in self.legal if "card" in a and a["type"] != "discard"}
        return {c for c in self.hand() if board.row(c)["id"] in kinds}
