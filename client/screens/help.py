"""Help (``?``): every key of the screen it was opened from, the general keys, and what the
screen's notations mean.

Over a table the help is a pane of the table screen itself (:class:`HelpPane`): the status line,
the countdown, the prompt and the keys stay in view and answer as usual, so reading the help
never costs a reaction window. Elsewhere it is a dialog (:class:`HelpScreen`). Both lay the keys
and the notes side by side on a wide terminal (at 120×40 nothing needs scrolling) and one under
the other on a narrow one. At a table they also say what your role or the selected card
does, and ``r`` opens the game's rules page.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import Label, Static

from client.screens.dialog import Dialog
from client.widgets.hint import tap_hint
from hexnet.i18n import N_, _

GENERAL = [
    ("?", N_("this help")),
    ("Tab / Shift+Tab", N_("move between panes")),
    ("↑ ↓ Enter", N_("choose in a list")),
    ("Esc", N_("back / cancel")),
    ("F2", N_("next language")),
    ("Ctrl+Q", N_("quit")),
]
WIDE = 100  # columns from which keys and notes stand side by side


def key_lines(keys: list[tuple[str, str]], compact: bool = False) -> str:
    """The screen's keys, then the general ones: ``key  what it does`` a line (``compact``:
    each group runs on in one paragraph)."""
    if compact:
        return "\n\n".join(" · ".join(f"{key} {_(what)}" for key, what in group)
                            for group in (keys, GENERAL) if group)
    width = max([len(k) for k, _w in keys + GENERAL] + [1])
    lines = [f"{key:>{width}}  {_(what)}" for key, what in keys]
    lines.append("")
    lines += [f"{key:>{width}}  {_(what)}" for key, what in GENERAL]
    return "\n".join(lines)


class HelpBody(Horizontal):
    """Keys (and the screen's reference, ``extra``) left, notes right; one under the other when
    narrower than :data:`WIDE`."""

    DEFAULT_CSS = """
    HelpBody { height: auto; }
    HelpBody #help-left { width: 1fr; height: auto; padding-right: 2; }
    HelpBody #help-right { width: 1fr; height: auto; }
    HelpBody #help-explain { text-style: italic; }
    HelpBody #help-extra { margin-top: 1; }
    HelpBody.-narrow { layout: vertical; }
    HelpBody.-narrow #help-left { width: 100%; padding-right: 0; margin-bottom: 1; }
    """

    def __init__(self, keys: list[tuple[str, str]], notes: str, extra: str = "",
                 explain: str = "") -> None:
        super().__init__()
        self._keys = keys
        self._notes = notes
        self._extra = extra
        self._explain = explain  # what your role / the selected card does: atop the notes

    def compose(self) -> ComposeResult:
        with Vertical(id="help-left"):
            # beside notes, the general keys in one paragraph (at 120×40 nothing scrolls)
            yield Static(key_lines(self._keys, compact=bool(self._extra)), id="help-keys",
                         markup=False)
            if self._extra:
                yield Static(self._extra, id="help-extra", markup=False, classes="notes")
        if self._notes or self._explain:
            with Vertical(id="help-right"):
                if self._explain:
                    yield Static(self._explain, markup=False, id="help-explain")
                if self._notes:
                    yield Static(self._notes, id="help-notes", markup=False, classes="notes")

    def on_resize(self) -> None:
        self.set_class(self.app.size.width < WIDE, "-narrow")

    def on_mount(self) -> None:
        self.set_class(self.app.size.width < WIDE, "-narrow")


class HelpPane(VerticalScroll):
    """The help over a table's game area: ↑↓ scroll it, Esc or ? closes it, every other key
    works on the table as usual."""

    DEFAULT_CSS = """
    HelpPane .title { margin-bottom: 0; }
    HelpPane .hint { margin-top: 0; }
    """

    BINDINGS = [Binding("escape,q", "close", N_("Close help"), show=False),
                Binding("r", "rules", N_("Rules"), show=False)]

    def show_help(self, title: str, keys: list[tuple[str, str]], notes: str,
                  extra: str = "", explain: str = "", game: str = "") -> None:
        """Fill the pane and show it (it takes the keyboard for scrolling); ``explain``: what
        your role or the selected card does; ``game``: ``r`` opens its rules page."""
        self._title, self._game = title, game
        parts: list[Widget] = [Label(_("Help — {screen}").format(screen=title), classes="title",
                                     markup=False)]
        parts.append(HelpBody(keys, notes, extra, explain))
        if game:
            parts.append(tap_hint(_("r the rules of the game (searchable)"), "rules"))
        parts.append(tap_hint(_("↑↓ scroll · Esc or ? close · the table's keys work as usual"),
                              "close_help"))
        self.run_worker(self._fill(parts), exclusive=True, group="help")

    async def _fill(self, parts: list[Widget]) -> None:
        """The old contents go before the new ones come (their ids are reused), then show."""
        await self.remove_children()
        await self.mount(*parts)
        self.display = True
        self.scroll_home(animate=False)
        self.focus()

    def action_close(self) -> None:
        self.screen.close_help()  # type: ignore[attr-defined]

    def action_rules(self) -> None:
        """The rules page of this table's game (r while the help pane has the keys)."""
        if getattr(self, "_game", ""):
            from client.screens.rules import RulesScreen

            self.app.push_screen(RulesScreen(self._game, self._title))


class HelpScreen(Dialog[None]):
    """Lists ``keys`` (key, what it does) and the general keys; any of Esc, ?, q closes it."""

    BINDINGS = [Binding("escape,question_mark,q", "close", N_("Close")),
                Binding("r", "rules", N_("Rules"))]

    def __init__(self, title: str, keys: list[tuple[str, str]], notes: str = "",
                 explain: str = "", game: str = "") -> None:
        super().__init__()
        self._title = title
        self._keys = keys
        self._notes = notes
        self._explain = explain  # what your role / the selected card does
        self._game = game  # the rules page's game ("" for none)

    def compose(self) -> ComposeResult:
        with Vertical(id="help", classes="dialog"), VerticalScroll(id="help-scroll"):
            yield Label(_("Help — {screen}").format(screen=self._title), classes="title",
                        markup=False)
            yield HelpBody(self._keys, self._notes, explain=self._explain)
            if self._game:
                yield tap_hint(_("r the rules of the game (searchable)"), "screen.rules")
            yield tap_hint(_("↑↓ scroll · Esc close"), "screen.close")

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).focus()  # ↑↓ PgUp PgDn scroll

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return bool(self._game) if action == "rules" else True

    def action_rules(self) -> None:
        """The rules page of this table's game."""
        from client.screens.rules import RulesScreen

        self.app.push_screen(RulesScreen(self._game, self._title))

    def action_close(self) -> None:
        self.close(None)
