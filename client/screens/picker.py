"""A small modal list: pick one of a few labelled choices by keyboard (Escape cancels).

Over a table the list is *live*: its ``source`` gives the choices that are still possible, and
the table calls :meth:`Picker.refresh_choices` with every new view. A list whose entries changed
is redrawn (keys wait a moment, :mod:`client.widgets.guard`); one with nothing left closes by
itself (``gone``) — the table then says that the moment passed. So a pick is never sent for a
choice the table no longer offers. The host's countdown shows in the list's title line.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from client.screens.dialog import Dialog
from client.widgets.guard import GUARD_SECONDS, PAUSED, KeyGuard
from client.widgets.hint import tap_hint
from client.widgets.tall import TallOptionList
from hexnet.i18n import N_, _

Choices = list[tuple[str, Any]]


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


class Picker(Dialog[Any]):
    """Dismisses with the value of the chosen entry, or None on Escape (or when ``gone``).

    ``side`` puts it at the right edge, leaving the table on the left in view. ``source``
    (optional) gives the current choices for :meth:`refresh_choices`; ``clock`` (optional) the
    countdown's text ("⏱ 6s" or "").
    """

    BINDINGS = [Binding("escape", "cancel", N_("Cancel"))]

    def __init__(self, title: str, choices: Choices, side: bool = False,
                 source: Callable[[], Choices] | None = None,
                 clock: Callable[[], str] | None = None) -> None:
        super().__init__(classes="-side" if side else None)
        self._title = title
        self._choices = list(choices)
        self._source = source
        self._clock = clock
        self.guard = KeyGuard()
        self.gone = False  # closed because nothing it offered is possible any more

    def compose(self) -> ComposeResult:
        with Vertical(id="picker"):
            yield Label(self._title, id="picker-title", markup=False)
            if self._clock is not None:
                yield Static("", id="picker-clock", markup=False)
            yield TallOptionList(*self._options(), id="picker-list")
            # by touch: ↑/↓ page through a long list (a swipe does not scroll a terminal)
            yield tap_hint(_("↑↓ Enter pick · Esc cancel"), "screen.cancel",
                           {"↑": "screen.page(-1)", "↓": "screen.page(1)"})

    def _options(self) -> list[Option]:
        return [Option(Text(str(label)), id=str(i)) for i, (label, _v) in
                enumerate(self._choices)]

    def on_mount(self) -> None:
        boxes = self.query(OptionList)
        if not boxes:  # closed before it was mounted (its flow was cancelled)
            return
        boxes.first().focus()
        if self._clock is not None:
            self._tick()
            self.set_interval(0.5, self._tick)

    def _tick(self) -> None:
        clocks = self.query("#picker-clock")
        if self._clock is None or not self.is_attached or not clocks:
            return
        text = self._clock()
        if self.guard.active:
            text = f"{PAUSED} {text}".strip()
        clock = clocks.first(Static)
        clock.update(text)
        clock.display = bool(text)

    @property
    def choices(self) -> Choices:
        """The entries shown now."""
        return list(self._choices)

    def refresh_choices(self) -> None:
        """Show the choices the source gives now: unchanged → nothing; changed → redrawn with
        the cursor kept on the same value, keys waiting a moment; none left → closed (gone)."""
        if self._source is None or self.answered or not self.query(OptionList):
            return
        fresh = self._source()
        if not fresh:
            self.gone = True
            self.close(None)
            return
        if [label for label, _v in fresh] == [label for label, _v in self._choices] and all(
                _same(a, b) for (_l, a), (_m, b) in zip(fresh, self._choices, strict=True)):
            return
        box = self.query_one(OptionList)
        keep = (self._choices[box.highlighted][1]
                if box.highlighted is not None and box.highlighted < len(self._choices) else None)
        self._choices = list(fresh)
        box.clear_options()
        box.add_options(self._options())
        index = next((i for i, (_l, v) in enumerate(fresh) if _same(v, keep)), 0)
        box.highlighted = index
        self.guard.arm()
        self._tick()
        self.set_timer(GUARD_SECONDS + 0.05, self._tick)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if self.guard.active:  # the list just changed under the cursor
            self.app.bell()
            return
        index = int(event.option_id or 0)
        if 0 <= index < len(self._choices):
            self.close(self._choices[index][1])

    def action_page(self, step: int) -> None:
        """A page down (``step`` 1) or up (-1) the list, its cursor along (a tap on ↓ or ↑)."""
        boxes = self.query(OptionList)
        if boxes:
            box = boxes.first()
            box.action_page_down() if step > 0 else box.action_page_up()

    def action_cancel(self) -> None:
        self.close(None)
