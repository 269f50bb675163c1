"""The Hexenhammer table: villagers on their stakes with their values, each player's running
score, your hand, and the four phases.

Everything shown comes from the view; every move is one of the legal actions the host sent.
Choosing a card ends in a confirmation that shows what it will do — the villager hit, the
suspicion before and after, and every modifier (:mod:`hexnet.games.hexenhammer.preview`) —
and every question is asked, even one with a single answer (the only free accuser is shown and
confirmed, never taken silently).
"""

from __future__ import annotations

from typing import Any, cast

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from client import layout
from client.screens.hand_table import HandTableScreen
from client.screens.table_base import LARGE_PRINT, Action
from client.widgets.cards import CardList
from client.widgets.hexenhammer_board import (
    BOARD_WIDTH,
    CHROME_ROWS,
    OWNER_CELLS,
    bar_cells,
    score_table,
    trial_line,
    villager_table,
)
from client.words.hexenhammer import HexenhammerWords
from hexnet import i18n
from hexnet.games.hexenhammer.refusals import unusable
from hexnet.i18n import N_, _

GAME = "hexenhammer"
HELP_NOTES = (
    N_("Bar: suspicion on its way to 18 — ▒ up to the stake's start (its floor), █ above (▓ "
       "within 3 of the top), · the rest; then the suspicion. St: the stake's start; ⚖: a "
       "Wiegeprobe: schwerer card lies there (no brown card accuses it in the next phases 1 "
       "and 2). P/M: pentagrams (its owner's points while it lives) / matches (points for "
       "whoever burns it). ◆ the current witch · † burned · ⊔ an empty stake (its owner "
       "burned it)."),
    N_("score = pentagrams of living villagers + matches taken + trials kept + 1 per empty "
       "stake in front of another player (as the end counts it)."),
    N_("▶ cards you can use now: Enter asks accuser and target (even a single one), shows "
       "the effect with every modifier, and Enter plays it."),
    N_("Phase 1: play cards on your turn or call the Inquisition (i); p ends your turn "
       "(draw)."),
    N_("Phase 2 (panic): anyone plays; d says you are done until a new card is played."),
    N_("Phase 3: one card or p. Phase 4: Enter discards the ▶ card, p draws up to 6."),
    N_("Reactions (★) come out of turn with a countdown: Enter plays one, p lets the card "
       "pass."),
)


class HexenhammerScreen(HandTableScreen):
    """Villagers (owner, suspicion bar to 18, stake), your hand with card texts, and prompts."""

    GAME = "hexenhammer"
    HELP_TITLE = N_("Hexenhammer")
    HELP_NOTES = HELP_NOTES
    BINDINGS = [
        Binding("enter", "use_card", N_("Use card"), show=False),
        Binding("i", "inquisition", N_("Inquisition")),
        Binding("d", "done", N_("Done")),
        Binding("r", "results", N_("Results"), show=False),
    ]
    # below 100 columns the side pane narrows so every column of the villagers fits; below 80
    # (large print) the suspicion bars go (the numbers stay)
    HORIZONTAL_BREAKPOINTS = [(0, "-one-column"), (layout.LARGE[0], "-large-print"),
                              (LARGE_PRINT[0], "-narrow"), (100, "-wide")]
    WORDS = HexenhammerWords
    ANSWER_ACTIONS = frozenset({"pass_turn", "use_card", "inquisition", "done"})
    _was_asked = False
    _choice_asked: Any = None  # the state id of the Inquisitor's choice already asked
    _drawn_for: tuple[int, int] | None = None  # the board_fit the board was last drawn for

    def compose_game(self) -> ComposeResult:
        yield Static("", id="villagers", markup=False)
        yield Static("", id="trial", markup=False)
        yield Static("", id="seats", markup=False)
        yield Static("", id="at-stake", markup=False)  # the wide layout's (layout.tcss)

    # -- words ----------------------------------------------------------------------------
    def words(self) -> HexenhammerWords:
        return cast(HexenhammerWords, super().words())

    def title_text(self) -> str:
        return _("Hexenhammer #{table}").format(table=self.table)

    def key_fits(self, action: str) -> bool:
        """``i`` while you may call the Inquisition, ``d`` while you may say you are done
        panicking (phase 2, no card to answer)."""
        if action == "inquisition":
            return "call_inquisition" in self.legal_types()
        if action == "done":
            return ("pass" in self.legal_types() and self.view.get("phase") == 2
                    and not self.view.get("window"))
        return True

    def help_notes(self) -> str:
        """The keys' notes, then each player's score so far in full."""
        return "\n".join([super().help_notes(), "",
                          _("Scores so far (pentagrams + matches + trials + empty stakes):"),
                          self.words().scores_text()])

    def help_extra(self) -> str:
        """Beside the keys: every villager at the table with its ability."""
        lines = [_("The villagers:")]
        for v in self.view.get("villagers") or []:
            vid = v.get("id")
            lines.append(f"{i18n.word(GAME, 'villager', vid)}: {i18n.word(GAME, 'ability', vid)}")
        return "\n".join(lines)

    def type_keys(self) -> dict[str, str]:
        phase = self.view.get("phase")
        keys = {"play": _("Enter: play a ▶ card"), "discard": _("Enter: discard a ▶ card"),
                "call_inquisition": _("i: Inquisition"), "choose": _("a: choose"),
                "pass": _("p: pass")}
        if self.view.get("window"):
            keys["pass"] = _("p: let it pass")
        elif phase == 2:
            keys["pass"] = _("d: done")
        elif phase == 4:
            keys["pass"] = _("p: draw up to 6")
        elif phase == 1:
            keys["pass"] = _("p: end turn (draw)")
        return keys

    def prompt_text(self) -> str:
        said = self.words()
        if said.done_panicking():
            return said.done_text()
        return super().prompt_text()

    def card_label(self, card: dict[str, Any]) -> str:
        """A card of your hand as printed: ``Beweys +2``, ``Spende ±1``, ``Gegenanklage``."""
        return HexenhammerWords.card_label(card)

    def confirm_label(self, action: Action) -> str:
        return _("▶ play it (Enter) · Esc: back")

    def short_name_of(self, vid: Any) -> str:
        """A villager's name."""
        return HexenhammerWords.villager_name(vid)

    # -- drawing --------------------------------------------------------------------------
    def board_fit(self) -> tuple[int, int]:
        """What the board is drawn for: the suspicion bars' cells (from the game area's width
        as laid out now) and the terminal's rows (the scores' room)."""
        # 0 before layout, or while the one-column layout shows another page (then it is
        # the terminal's width)
        area = self.query_one("#game-area").size.width or (
            self.app.size.width if self.app.has_class("narrow") else BOARD_WIDTH)
        # large print (60–79 columns beside the side pane): the bars give way to their numbers
        return (0 if self.has_class("-large-print") else bar_cells(area)), self.app.size.height

    def show_game(self, view: dict[str, Any], legal: list[Action]) -> None:
        self._drawn_for = self.board_fit()
        cells = self._drawn_for[0]
        self.query_one("#villagers", Static).update(
            villager_table(view, self.short_name_of, self.names_in(OWNER_CELLS), cells))
        trial = trial_line(view, self.short_name_of)
        box = self.query_one("#trial", Static)
        box.update(trial)
        box.display = bool(trial)
        rows = len(view.get("villagers") or []) + 1 + (1 if trial else 0)
        room = self.app.size.height - CHROME_ROWS - rows
        self.query_one("#seats", Static).update(score_table(view, self.names_in(OWNER_CELLS),
                                                            room))
        playable = {str(a["card"]) for a in legal if "card" in a}
        hand = self.query_one(CardList)
        hand.show([(str(c.get("id")), self.card_label(c)) for c in view.get("hand") or []],
                  playable)
        asked = bool(legal)
        if asked and not self._was_asked:
            # Just asked (e.g. a reaction out of turn): put the cursor on a card you can use.
            self.cursor_to_usable([str(c.get("id")) for c in view.get("hand") or []], playable)
        self._was_asked = asked
        self._show_card_text()
        self.query_one("#at-stake", Static).update(self.stake_text(playable))
        choice = view.get("choice")
        if choice and choice.get("seat") == view.get("seat") and legal:
            if self._choice_asked != view.get("state_id"):  # once, not at every frame
                self._choice_asked = view.get("state_id")
                self.choose_and_send(lambda a: a.get("type") == "choose",
                                     _("The Inquisitor decides: which villager?"))
        else:
            self._choice_asked = None

    def on_mount(self) -> None:
        # The game area's width is known only once laid out, and it changes after the
        # screen's size does (the breakpoint classes narrow the side pane, the one-column
        # layout shows another page): after every layout, the board is drawn again if it was
        # drawn for another fit.
        self.screen_layout_refresh_signal.subscribe(self, self._refit)

    def _refit(self, _screen: object = None) -> None:
        if self.shown and self.view and self.board_fit() != self._drawn_for:
            self.show_game(self.view, self.legal)

    def stake_text(self, playable: set[str]) -> str:
        """What is at stake while a reaction window is open or the village panics: the card
        or call answered, and each card you could use now with its text ("" otherwise)."""
        window, phase = self.view.get("window"), self.view.get("phase")
        if not window and phase != 2:
            return ""
        lines = []
        if window:
            trigger = window.get("trigger") or {}
            lines.append(_("At stake: {what}").format(what=self.words().trigger_text(trigger)))
            if trigger.get("kind"):  # the card's rule text with its own value (not "{value}")
                lines.append("  " + self.words().rule_text(trigger))
        else:
            lines.append(_("Panic! Anyone may play; the cards you could play now:"))
        lines += [self.card_text(cid) for cid in
                  (str(c.get("id")) for c in self.view.get("hand") or []) if cid in playable]
        return "\n".join(lines)

    def card_text(self, card_id: str) -> str:
        return self.words().card_text(card_id)

    # -- moves ----------------------------------------------------------------------------

    def action_use_card(self) -> None:
        """Play (or discard) the highlighted card: pick accuser, target… among legal actions."""
        if not self.answering():
            return
        cid = self.query_one(CardList).highlighted_id
        if not any(str(a.get("card")) == cid for a in self.legal):
            card = next((c for c in self.view.get("hand") or [] if str(c.get("id")) == cid),
                        None)
            why = (i18n.render_reason(GAME, unusable(self.view, card).as_dict(),
                                      self.view.get("players") or []) if card else "")
            self.notify(why or _("You cannot use that card now."),
                        title=_("You cannot use that card now"), severity="warning",
                        markup=False)
            return
        self.choose_and_send(lambda a: str(a.get("card")) == cid)

    def action_inquisition(self) -> None:
        if not self.answering():
            return
        calls = self.actions_of_type("call_inquisition")
        if not calls:
            self.notify(_("You cannot call the Inquisition now."), severity="warning")
            return
        self.choose_and_send(calls)

    def action_done(self) -> None:
        """Phase 2: say you are done (playing a card later takes it back)."""
        self.action_pass_turn()
