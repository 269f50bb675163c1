"""A table screen whose side pane is your hand over the highlighted card's text.

Hexenhammer and Hranice share this: the hand is a :class:`CardList` (``#hand``), Enter on a card
uses it (``action_use_card``, each game's own), and when a new decision arrives the cursor moves
to the first card you can use.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.widgets import OptionList, Static

from client.screens.table_base import TableScreen
from client.widgets.cards import CardList
from hexnet.i18n import _


class HandTableScreen(TableScreen):
    """Hand + card text on the side; subclasses say how a card reads (``card_text``)."""

    def compose_side(self) -> ComposeResult:
        yield CardList(id="hand")
        yield Static("", id="card-text", markup=False)

    def focus_default(self) -> None:
        self.query_one(CardList).focus()

    def on_mount(self) -> None:
        self.query_one(CardList).focus()

    def card_text(self, card_id: str) -> str:
        """The text shown under the hand for the highlighted card."""
        return ""

    def help_explain(self) -> str:
        """The highlighted card's text, for the help screen."""
        cid = self.query_one(CardList).highlighted_id
        text = self.card_text(cid) if cid else ""
        return _("The selected card — {text}").format(text=text) if text else ""

    def action_use_card(self) -> None:
        """Use the highlighted card (each game asks what the card needs)."""

    def cursor_to_usable(self, card_ids: list[str], usable: set[str]) -> None:
        """Put the cursor on the first usable card, unless it already rests on one."""
        hand = self.query_one(CardList)
        if hand.highlighted_id not in usable:
            first = next((c for c in card_ids if c in usable), None)
            if first is not None:
                hand.highlight_id(first)

    def _show_card_text(self) -> None:
        cid = self.query_one(CardList).highlighted_id
        self.query_one("#card-text", Static).update(self.card_text(cid) if cid else "")

    @on(OptionList.OptionHighlighted, "#hand")
    def _card_highlighted(self) -> None:
        self._show_card_text()

    @on(OptionList.OptionSelected, "#hand")
    def _card_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_use_card()
