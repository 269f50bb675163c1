"""The Hranice table: councils with influence and dominance tokens, the pyre, your hand, the
two-action counter, the dice as they fall, and reaction prompts out of turn.

Everything shown comes from the view; every move is one of the legal actions the host sent
(cards in actions are named by kind, citizens by their physical id).
"""

from __future__ import annotations

from typing import Any, cast

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from client.screens.dialog import answer
from client.screens.hand_table import HandTableScreen
from client.screens.hranice_results import HraniceResultsScreen
from client.screens.picker import Picker
from client.screens.table_base import Action
from client.widgets import hranice_board as board
from client.widgets.cards import CardList
from client.widgets.log import GameLog
from client.words.hranice import HraniceWords
from hexnet.i18n import N_, _

HELP_NOTES = (
    N_("Each row: ▶ on turn · player · ✋ cards in hand · influence/target · ● active "
       "dominance token (○ inactive) · the council, each citizen with its influence; (n) = its "
       "defence when a Kovář raises it; +3 Name = a citizen taken from the pyre (3 permanent "
       "influence)."),
    N_("Pyre 2/3: the citizens on the pyre — the third one ignites it; pile: cards left to "
       "draw; discards: the discard pile."),
    N_("Your turn has two actions (●● in the status line). ▶ marks hand cards you can use now: "
       "Enter plays one (citizen into your council, an action card, or a reaction when asked). "
       "d draws, x accuses a citizen, s cleanses one from the pyre, a lists every action."),
    N_("Out of turn the host asks each player in turn whether to react to a card, an "
       "accusation, a roll or a citizen going to the pyre; the countdown (⏱) stands before "
       "the prompt, p lets it pass."),
    N_("With manual flip: f flips your dominance token at the end of the turn, e ends "
       "without."),
)

AIMED = {"target", "player", "sign"}


class HraniceScreen(HandTableScreen):
    """Councils, pyre, dice and the prompt on the left; your hand, card text and log right."""

    GAME = "hranice"
    HELP_TITLE = N_("Hranice")
    HELP_NOTES = HELP_NOTES
    BINDINGS = [
        Binding("enter", "use_card", N_("Use card"), show=False),
        Binding("d", "draw", N_("Draw")),
        Binding("x", "accuse", N_("Accuse")),
        Binding("s", "cleanse", N_("Cleanse")),
        Binding("f", "flip", N_("Flip"), show=False),
        Binding("e", "end", N_("End"), show=False),
        Binding("r", "results", N_("Results"), show=False),
        # not in the bottom bar (it ended "^q Qui" at 80 columns); ? lists it
        Binding("l", "lobby", N_("Lobby"), show=False),
    ]
    DEFAULT_CSS = """
    HraniceScreen #hr-councils-box { height: 1fr; }
    HraniceScreen #hr-pyre, HraniceScreen #hr-dice, HraniceScreen #hr-now { height: auto; }
    HraniceScreen #hr-now { text-style: bold; }
    /* the cursor must show without colours (NO_COLOR) */
    HraniceScreen #hand > .option-list--option-highlighted { text-style: bold reverse; }
    """

    WORDS = HraniceWords
    _usable: set[str] = set()
    _peek_key: Any = None

    def compose_game(self) -> ComposeResult:
        with VerticalScroll(id="hr-councils-box"):
            yield Static("", id="hr-councils", markup=False)
        yield Static("", id="hr-pyre", markup=False)
        yield Static("", id="hr-dice", markup=False)
        yield Static("", id="hr-now", markup=False)

    # -- words ----------------------------------------------------------------------------
    def words(self) -> HraniceWords:
        return cast(HraniceWords, super().words())

    def names(self, seat: int | None) -> str:
        return self.words().names(seat)

    def title_text(self) -> str:
        return f"Hranice #{self.table}"

    def type_keys(self) -> dict[str, str]:
        if self.view.get("window"):
            return {"react": _("Enter: react with a ▶ card"), "pass": _("p: let it pass")}
        return {"draw": _("d: draw"), "citizen": _("Enter: play a ▶ card"),
                "action": _("Enter: play a ▶ card"), "accuse": _("x: accuse"),
                "cleanse": _("s: cleanse"), "pass": _("p: pass (nothing else to do)"),
                "discard": _("Enter: discard one"), "flip": _("f: flip the token"),
                "end": _("e: end without flipping")}

    # -- drawing --------------------------------------------------------------------------
    def show_game(self, view: dict[str, Any], legal: list[Action]) -> None:
        self.query_one("#hr-councils", Static).update(board.councils_table(
            view, self.names_in(board.PLAYER_CELLS)))
        self.query_one("#hr-pyre", Static).update(board.pyre_text(view))
        roll = board.last_roll(view)
        self.query_one("#hr-dice", Static).update(
            _("Dice: {roll}").format(roll=roll or _("no roll yet")))
        self.query_one("#hr-now", Static).update(board.now_text(view, self.names))
        hand = self.query_one(CardList)
        mine = self.words().hand()
        usable = self.words().usable_cards()
        hand.show([(c, board.hand_label(c)) for c in mine], usable)
        if usable != self._usable:
            # A new decision (your turn, or a reaction out of turn): the cursor goes to the
            # first card you can use, unless it already rests on one.
            self.cursor_to_usable(mine, usable)
        self._usable = usable
        self._show_card_text()
        # the hand and card text change height: keep the newest log lines in sight
        log = self.query_one(GameLog)
        self.call_after_refresh(log.scroll_end, animate=False)
        self._maybe_ask_discard(view, legal)

    def _maybe_ask_discard(self, view: dict[str, Any], legal: list[Action]) -> None:
        """Výslech: once per look, ask which of the looked-at cards to discard."""
        discards = [a for a in legal if a.get("type") == "discard"]
        if not discards or view.get("peek") is None:
            self._peek_key = None
            return
        if self._peek_key is None:
            self._peek_key = view.get("state_id")
            self.action_use_card()

    def card_text(self, card_id: str) -> str:
        return board.card_text(card_id)

    # -- moves ----------------------------------------------------------------------------

    @work(exclusive=True, group="pick")
    async def pick_and_send(self, candidates: list[Action], title: str) -> None:
        """Send the one candidate that names nobody; otherwise list them all as sentences
        (even a single one: an accusation or a target is always confirmed)."""
        if len(candidates) == 1 and not AIMED & set(candidates[0]):
            await self.send_action(candidates[0])
            return
        plain = [self.describe(a) for a in candidates]
        labels = [f"{label} ·{plain[:i].count(label) + 1}" if plain.count(label) > 1 else label
                  for i, label in enumerate(plain)]  # two copies of a citizen in one council
        picked = await answer(
            self.app, Picker(title, list(zip(labels, candidates, strict=True)), side=True))
        if picked is not None:
            await self.send_action(picked)

    def action_use_card(self) -> None:
        """Use the highlighted card (play it, or react with it); pick its target if any."""
        discards = self.actions_of_type("discard")
        if discards:
            who = self.names((self.view.get("peek") or {}).get("player"))
            self.pick_and_send(discards, _("{card}: discard which of {who}'s cards?").format(
                card=board.name("vyslech"), who=who))
            return
        cid = self.query_one(CardList).highlighted_id
        kind = board.row(cid)["id"] if cid else None
        uses = [a for a in self.legal if a.get("card") == kind]
        if not uses:
            self.notify(_("You cannot use that card now."), severity="warning")
            return
        fields = set().union(*uses)
        how = (_("on whom?") if "target" in fields else _("which player?") if "player" in fields
               else _("+1 or −1?") if "sign" in fields else _("how?"))
        self.pick_and_send(uses, f"{board.name(str(kind))}: {how}")

    def _do(self, kind: str, title: str, nothing: str) -> None:
        options = self.actions_of_type(kind)
        if not options:
            self.notify(nothing, severity="warning")
            return
        self.pick_and_send(options, title)

    def key_fits(self, action: str) -> bool:
        """``d``, ``x`` and ``s`` while you may draw, accuse or cleanse; ``p`` while you may
        pass (Hranice refuses a pass while there is anything else to do)."""
        if action in ("draw", "accuse", "cleanse"):
            return action in self.legal_types()
        if action == "pass_turn":
            return "pass" in self.legal_types()
        return True

    def action_draw(self) -> None:
        self._do("draw", _("Draw?"), _("You cannot draw now."))

    def action_accuse(self) -> None:
        self._do("accuse", _("Accuse whom? (roll ≥ defence)"), _("You cannot accuse now."))

    def action_cleanse(self) -> None:
        self._do("cleanse", _("Cleanse whom? (roll > influence)"),
                 _("You cannot cleanse now (nobody on the pyre, or not your turn)."))

    def action_flip(self) -> None:
        self._do("flip", _("Flip?"), _("There is no token to flip now."))

    def action_end(self) -> None:
        self._do("end", _("End?"), _("Nothing to end now."))

    # -- the end --------------------------------------------------------------------------
    def update_view(self, view: dict[str, Any], legal: list[Action]) -> None:
        """As the base, but the end of the game opens the Hranice results."""
        if view.get("outcome") and self._ready and not self._results_shown:
            self._results_shown = True
            super().update_view(view, legal)
            # a watcher has typed nothing for the table: its results take keys at once
            self.app.push_screen(HraniceResultsScreen(self.table, view, asked=self.watching))
            return
        super().update_view(view, legal)

    def action_results(self) -> None:
        if self.view.get("outcome"):
            self.app.push_screen(HraniceResultsScreen(self.table, self.view, asked=True))

