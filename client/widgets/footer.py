"""The key bar at the bottom of every screen, in the reader's language.

Bindings are declared with English descriptions marked ``N_("…")``; this footer words them
through the interface catalog each time it is drawn, so a language switch shows at the next
redraw (``refresh(recompose=True)``). Hungarian, German and Czech words run longer than English:
when the keys do not fit the terminal's width the bar turns compact (one space less around each
key), so a table's keys, Quit included, still fit 80 columns in every language. In the
one-column layout (:mod:`client.layout`) the keys are tiles three cells tall, three a row.
"""

from __future__ import annotations

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from hexnet.i18n import N_, _

# Textual's own descriptions that show in our footer (the command palette key)
TEXTUAL_WORDS = (N_("palette"),)
TILES_A_ROW = 3  # keys a row in the one-column layout (14 columns each at 43)


def key_width(key: FooterKey) -> int:
    """The cells ``key`` takes in the roomy (not compact) footer: `` k  description ``."""
    return cell_len(key.key_display) + cell_len(key.description) + 3


class LocalFooter(Footer):
    """A :class:`~textual.widgets.Footer` whose key descriptions are translated. The command
    palette's key (ctrl+p) is left out: at 80 columns the screen's own keys need the room (the
    help screen lists it)."""

    def __init__(self) -> None:
        super().__init__(show_command_palette=False)
        self._roomy_width = 0
        self._tiles = False

    def compose(self) -> ComposeResult:
        widgets = list(super().compose())
        for widget in widgets:
            if isinstance(widget, FooterKey) and widget.description:
                widget.description = _(widget.description)
        self._roomy_width = sum(key_width(w) for w in widgets if isinstance(w, FooterKey))
        self._tiles = self.app.has_class("narrow")
        self.compact = self._tiles or self._too_wide(self.app.size.width)
        if self._tiles:  # the one-column layout: tiles, TILES_A_ROW a row (client/layout.py)
            self.styles.grid_size_columns = TILES_A_ROW
        yield from widgets

    def _too_wide(self, width: int) -> bool:
        return self._roomy_width > width

    def on_resize(self, event: events.Resize) -> None:
        if self._roomy_width and (self._too_wide(event.size.width) != self.compact
                                  or self.app.has_class("narrow") != self._tiles):
            self.refresh(recompose=True)
