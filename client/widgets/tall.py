"""A list whose rows are three cells tall in the one-column layout (:mod:`client.layout`): on
a phone a row is then at least 44 CSS px, a finger's size. Elsewhere it is an ordinary
:class:`~textual.widgets.OptionList`.

(Textual 8.2's OptionList counts an option's height without the vertical padding of its
``option-list--option`` style, so the rows are padded here, in the option's own visual.)
"""

from __future__ import annotations

from textual import events
from textual.geometry import Spacing
from textual.visual import Padding, Visual
from textual.widgets import OptionList
from textual.widgets.option_list import Option

TALL = Spacing(1, 0, 1, 0)


class TallOptionList(OptionList):
    """An OptionList whose rows get a blank line above and below while the app is ``narrow``."""

    _tall = False

    def _get_visual(self, option: Option) -> Visual:
        visual = super()._get_visual(option)
        return Padding(visual, TALL) if self._tall else visual

    def _follow_layout(self) -> None:
        tall = self.app.has_class("narrow")
        if tall != self._tall:
            self._tall = tall
            self._clear_caches()
            self._update_lines()
            self.refresh()

    def on_mount(self) -> None:
        self._follow_layout()

    def on_resize(self, event: events.Resize) -> None:
        self._follow_layout()
