"""A small modal list: pick one of a few labelled choices by keyboard (Escape cancels)."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from client.widgets.hint import tap_hint
from hexnet.i18n import N_, _


class Picker(ModalScreen[Any]):
    """Dismisses with the value of the chosen entry, or None on Escape.

    ``side`` puts it at the right edge, leaving the table on the left in view.
    """

    BINDINGS = [Binding("escape", "cancel", N_("Cancel"))]

    def __init__(self, title: str, choices: list[tuple[str, Any]], side: bool = False) -> None:
        super().__init__(classes="-side" if side else None)
        self._title = title
        self._choices = choices

    def compose(self) -> ComposeResult:
        with Vertical(id="picker"):
            yield Label(self._title, id="picker-title", markup=False)
            yield OptionList(*[Option(Text(str(label)), id=str(i)) for i, (label, _) in
                               enumerate(self._choices)], id="picker-list")
            yield tap_hint(_("↑↓ Enter pick · Esc cancel"), "screen.cancel")

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self._choices[int(event.option_id or 0)][1])

    def action_cancel(self) -> None:
        self.dismiss(None)
