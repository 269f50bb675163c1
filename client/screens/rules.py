"""The rules page: a game's rules text in the reader's language, rendered and searchable.

The text is the one ``hexnet rules GAME --lang L`` prints (``seeds/rules/<game>[.<lang>].md``,
English where no translation exists), cut into its sections (one per heading) and shown with
Textual's Markdown widget. Typing in the search box keeps only the sections that contain every
word typed (any case); Enter moves to the next of them, Esc clears the search (and closes the
page when it is empty).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Markdown

from client.widgets.hint import tap_hint
from hexnet import i18n
from hexnet.i18n import N_, _, ngettext
from hexnet.seeds import rules_text

HEADING = re.compile(r"^#{1,4} ", re.MULTILINE)


@dataclass
class Section:
    """One heading and the text under it (up to the next heading)."""

    text: str

    def matches(self, words: list[str]) -> bool:
        low = self.text.lower()
        return all(w in low for w in words)


def sections(text: str) -> list[Section]:
    """``text`` cut before every heading (the part before the first one is a section too)."""
    starts = [m.start() for m in HEADING.finditer(text)]
    if not starts or starts[0] != 0:
        starts.insert(0, 0)
    bounds = [*starts, len(text)]
    return [Section(text[a:b].strip("\n")) for a, b in zip(bounds, bounds[1:], strict=False)
            if text[a:b].strip()]


def load_rules(game: str, lang: str) -> tuple[str, bool]:
    """The rules text of ``game`` in ``lang`` (English if there is none: then False)."""
    try:
        return rules_text(game, lang), True
    except FileNotFoundError:
        try:
            return rules_text(game), lang == "en"
        except FileNotFoundError:
            return "", False


class RulesScreen(ModalScreen[None]):
    """The rules of ``game`` with a search box on top."""

    BINDINGS = [
        Binding("escape", "back", N_("Back")),
        Binding("enter", "next_match", N_("Next match"), show=False),
    ]

    def __init__(self, game: str, title: str = "") -> None:
        super().__init__()
        self.game = game
        self.game_title = title or game
        self.sections: list[Section] = []
        self.shown: list[int] = []
        self.at = 0

    def compose(self) -> ComposeResult:
        text, own = load_rules(self.game, i18n.language())
        self.sections = sections(text)
        with VerticalScroll(id="rules", classes="dialog"):
            yield Label(_("Rules — {game}").format(game=self.game_title), classes="title",
                        markup=False)
            if not own:
                yield Label(_("(not translated yet: the English text)"), classes="hint")
            yield Input(placeholder=_("search the rules (Enter: next match · Esc: clear)"),
                        id="rules-search")
            yield Label("", id="rules-found", markup=False)
            for i, section in enumerate(self.sections):
                yield Markdown(section.text, id=f"rules-{i}", classes="rules-section")
            if not self.sections:
                yield Label(_("There is no rules text for this game."), markup=False)
            yield tap_hint(_("↑↓ scroll · Esc back"), "screen.back")

    def on_mount(self) -> None:
        self.shown = list(range(len(self.sections)))
        self.query_one(Input).focus()

    @on(Input.Changed, "#rules-search")
    def _search(self, event: Input.Changed) -> None:
        words = [w for w in event.value.lower().split() if w]
        self.shown = [i for i, s in enumerate(self.sections) if s.matches(words)]
        for i in range(len(self.sections)):
            self.query_one(f"#rules-{i}", Markdown).display = i in self.shown
        found = self.query_one("#rules-found", Label)
        if not words:
            found.update("")
        elif self.shown:
            found.update(ngettext("{n} section matches", "{n} sections match",
                                  len(self.shown)).format(n=len(self.shown)))
        else:
            found.update(_("Nothing matches {words}.").format(words=repr(event.value)))
        self.at = 0
        self._scroll_to_match()

    @on(Input.Submitted, "#rules-search")
    def _submitted(self) -> None:
        self.action_next_match()

    def action_next_match(self) -> None:
        """Scroll to the next section shown (the first again after the last)."""
        if self.shown:
            self.at = (self.at + 1) % len(self.shown)
            self._scroll_to_match()

    def _scroll_to_match(self) -> None:
        if self.shown:
            target = self.query_one(f"#rules-{self.shown[self.at]}", Markdown)
            self.query_one("#rules", VerticalScroll).scroll_to_widget(
                target, animate=False, top=True)

    def action_back(self) -> None:
        box = self.query_one(Input)
        if box.value:
            box.value = ""
            return
        self.dismiss(None)
