"""The key bar at the bottom of every screen, in the reader's language.

Bindings are declared with English descriptions marked ``N_("…")``; this footer words them
through the interface catalog each time it is drawn, so a language switch shows at the next
redraw (``refresh(recompose=True)``).
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from hexnet.i18n import N_, _

# Textual's own descriptions that show in our footer (the command palette key)
TEXTUAL_WORDS = (N_("palette"),)


class LocalFooter(Footer):
    """A :class:`~textual.widgets.Footer` whose key descriptions are translated. The command
    palette's key (ctrl+p) is left out: at 80 columns the screen's own keys need the room (the
    help screen lists it)."""

    def __init__(self) -> None:
        super().__init__(show_command_palette=False)

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            if isinstance(widget, FooterKey) and widget.description:
                widget.description = _(widget.description)
            yield widget
