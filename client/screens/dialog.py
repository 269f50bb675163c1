"""Dialogs over a screen: each closes once, and only itself.

Textual's ``Screen.dismiss`` pops whatever screen is on top of the stack. A dialog asked to
close twice — Enter and Esc pressed together, a double Enter on a list, a choice arriving after
the dialog already went — therefore popped the screen *under* it as well: the table screen
"closed by itself" during fast or random keys (``t`` in the lobby brought it back).
:meth:`Dialog.close` closes a dialog at most once, and only while it is the top screen; every
dialog of the client closes through it.

Ctrl+Q reaches every dialog: the app's quit binding has priority (a modal screen otherwise
stops the app's own keys).

A flow that waits for a dialog's answer waits through :func:`answer` — never Textual's
``push_screen_wait``, which first runs the app's pending callbacks *in the waiting worker's task*:
a dialog being taken away (a pick flow cancelled by a newer one closes its list) was then removed
in that worker, and when a third flow cancelled it mid-removal the cancellation reached the
dialog's widgets and from them the app's own task, which ended the whole client without a word
(``hexnet play`` exited 0 in the middle of a game, under fast keys).
"""

from __future__ import annotations

import asyncio
from typing import Any, TypeVar

from textual.app import App
from textual.screen import ModalScreen, Screen

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


async def answer(app: App[Any], screen: Screen[ResultT]) -> ResultT:
    """Show ``screen`` over the app and wait (in a worker) for the result it closes with.

    Cancelling the waiting worker (a newer flow of the same group) only stops the wait: the
    screen's own removal always runs in the app's task, never in the worker's."""
    result: asyncio.Future[ResultT] = asyncio.get_running_loop().create_future()

    def closed(value: ResultT | None) -> None:
        if not result.done():
            result.set_result(value)  # type: ignore[arg-type]

    app.push_screen(screen, callback=closed)
    return await result
