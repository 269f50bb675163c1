"""A hand of cards as a keyboard-driven list; playable cards are marked."""

from __future__ import annotations

from rich.text import Text
from textual.widgets.option_list import Option

from client.widgets.tall import TallOptionList


class CardList(TallOptionList):
    """The seat's own cards. Option ids are card ids; ``▶`` marks cards with a legal action now."""

    def show(self, hand: list[tuple[str, str]], playable: set[str]) -> None:
        """Replace the list with ``hand`` (card id, how it reads), keeping the highlighted card
        if it is still held."""
        keep = None
        if self.highlighted is not None and self.option_count:
            keep = self.get_option_at_index(self.highlighted).id
        self.clear_options()
        options = []
        for cid, text in hand:
            mark = "▶ " if cid in playable else "  "
            label = Text(mark + text, style="bold" if cid in playable else "")
            options.append(Option(label, id=cid))
        self.add_options(options)
        if not options:
            return
        ids = [o.id for o in options]
        self.highlighted = ids.index(keep) if keep in ids else 0

    def highlight_id(self, card_id: str) -> None:
        """Move the cursor to the card ``card_id`` (if held)."""
        for index in range(self.option_count):
            if self.get_option_at_index(index).id == card_id:
                self.highlighted = index
                return

    @property
    def highlighted_id(self) -> str | None:
        """The id of the highlighted card, if any."""
        if self.highlighted is None or not self.option_count:
            return None
        return self.get_option_at_index(self.highlighted).id
