"""Dialogs over a screen: each closes once, and only itself.

Textual's ``Screen.dismiss`` pops whatever screen is on top of the stack. A dialog asked to
close twice — Enter and Esc pressed together, a double Enter on a list, a choice arriving after
the dialog already went — therefore popped the screen *under* it as well: the table screen
"closed by itself" during fast or random keys (``t`` in the lobby brought it back).
:meth:`Dialog.close` closes a dialog at most once, and only while it is the top screen; every
dialog of the client closes through it.

Ctrl+Q reaches every dialog: the app's quit binding has priority (a modal screen otherwise
stops the app's own keys).
"""

from __future__ import annotations

from typing import Any, TypeVar

from textual.screen import ModalScreen

ResultT = TypeVar("ResultT")


class Dialog(ModalScreen[ResultT]):
    """A modal screen that closes through :meth:`close`."""

    _answered = False  # (not ``_closed``: Textual's message pump uses that name)

    @property
    def answered(self) -> bool:
        """Whether the dialog has closed (or is closing)."""
        return self._answered

    def close(self, result: Any = None) -> bool:
        """Close with ``result`` unless already closed or not on top; True if it closed now."""
        if self._answered or not self.is_attached or self.app.screen is not self:
            return False
        self._answered = True
        self.dismiss(result)
        return True
