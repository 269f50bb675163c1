"""The Hranice table: councils with influence and dominance tokens, the pyre, your hand, the
two-action counter, the dice as they fall, and reaction prompts out of turn.

Everything shown comes from the view; every move is one of the legal actions the host sent
(cards in actions are named by kind, citizens by their physical id).
"""

from __future__ import annotations

from typing import Any

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from client.screens.hand_table import HandTableScreen
from client.screens.hranice_results import HraniceResultsScreen
from client.screens.picker import Picker
from client.screens.table_base import MISSING, Action
from client.widgets import hranice_board as board
from client.widgets.cards import CardList
from client.widgets.log import GameLog

HELP_NOTES = """\
Each row: ▶ on turn · player · ✋ cards in hand · influence/target · ● active dominance
token (○ inactive) · the council, each citizen with its influence; (n) = its defence when a
Kovář raises it; +3 Name = a citizen taken from the pyre (3 permanent influence).
Your turn has two actions (●● in the status line). ▶ marks hand cards you can use now: Enter
plays one (citizen into your council, an action card, or a reaction when asked). d draws,
x accuses a citizen, s cleanses one from the pyre, a lists every action.
Out of turn the host asks each player in turn whether to react to a card, an accusation, a
roll or a citizen going to the pyre; the countdown is top right, p lets it pass.
With manual flip: f flips your dominance token at the end of the turn, e ends without."""

AIMED = {"target", "player", "sign"}
TYPE_WORDS = {
    "draw": "draw a card", "citizen": "play a citizen", "accuse": "accuse",
    "cleanse": "cleanse", "action": "play an action", "react": "react",
    "pass": "pass", "discard": "discard", "flip": "flip the token", "end": "end the turn",
}


class HraniceScreen(HandTableScreen):
    """Councils, pyre, dice and the prompt on the left; your hand, card text and log right."""

    GAME = "hranice"
    HELP_NOTES = HELP_NOTES
    BINDINGS = [
        Binding("enter", "use_card", "Use card", show=False),
        Binding("d", "draw", "Draw"),
        Binding("x", "accuse", "Accuse"),
        Binding("s", "cleanse", "Cleanse"),
        Binding("f", "flip", "Flip", show=False),
        Binding("e", "end", "End", show=False),
        Binding("r", "results", "Results", show=False),
    ]
    DEFAULT_CSS = """
    HraniceScreen #hr-councils-box { height: 1fr; }
    HraniceScreen #hr-pyre, HraniceScreen #hr-dice, HraniceScreen #hr-now { height: auto; }
    HraniceScreen #hr-now { text-style: bold; }
    /* the cursor must show without colours (NO_COLOR) */
    HraniceScreen #hand > .option-list--option-highlighted { text-style: bold reverse; }
    """

    _usable: set[str] = set()
    _peek_key: Any = None

    def compose_game(self) -> ComposeResult:
        with VerticalScroll(id="hr-councils-box"):
            yield Static("", id="hr-councils", markup=False)
        yield Static("", id="hr-pyre", markup=False)
        yield Static("", id="hr-dice", markup=False)
        yield Static("", id="hr-now", markup=False)

    # -- words ----------------------------------------------------------------------------
    def names(self, seat: int | None) -> str:
        return self.player_name(seat) if isinstance(seat, int) else "nobody"

    def title_text(self) -> str:
        return f"Hranice #{self.table}"

    def phase_text(self) -> str:
        v = self.view
        if v.get("outcome"):
            return "game over"
        turn = v.get("turn")
        return (f"Turn {v.get('turns', '?')}: {self.names(turn)} "
                f"{board.action_dots(int(v.get('actions_left') or 0))}")

    def type_keys(self) -> dict[str, str]:
        if self.view.get("window"):
            return {"react": "Enter: react with a ▶ card", "pass": "p: let it pass"}
        return {"draw": "d: draw", "citizen": "Enter: play a ▶ card",
                "action": "Enter: play a ▶ card", "accuse": "x: accuse",
                "cleanse": "s: cleanse", "pass": "p: pass (nothing else to do)",
                "discard": "Enter: discard one", "flip": "f: flip the token",
                "end": "e: end without flipping"}

    def move_heading(self) -> str:
        window = self.view.get("window")
        if window:
            return board.trigger_text(self.view, window, self.names, reactions=False) + " — "
        step = self.view.get("step") or {}
        if step.get("stage") == "choose":
            return "Výslech: "
        if step.get("stage") == "flip":
            return "End of your turn: "
        left = int(self.view.get("actions_left") or 0)
        return f"Your turn ({left} action{'s' if left != 1 else ''} left): "

    def label_value(self, field: str, value: Any) -> str:
        if value is MISSING:
            return "—"
        if field == "type":
            if value == "pass" and self.view.get("window"):
                return "let it pass"
            return TYPE_WORDS.get(str(value), str(value))
        if field == "card" and isinstance(value, str):
            return board.name(value)
        if field == "target" and isinstance(value, str):
            return board.whose(self.view, value, self.names)
        if field == "player" and isinstance(value, int):
            return self.player_name(value, you=False)
        return super().label_value(field, value)

    def describe(self, action: Action) -> str:
        """A whole action as a sentence, for the list of every action (a)."""
        kind = action.get("type")
        card = action.get("card")
        text = self.label_value("type", kind).capitalize()
        if kind in ("citizen", "action") and card:
            text = f"Play {board.name(card)}"
        elif kind == "react" and card:
            text = f"React with {board.name(card)}"
        elif kind == "discard" and card:
            text = f"Discard their {board.name(card)}"
        if "target" in action:
            text += (" on " if kind == "action" else " ") + self.label_value(
                "target", action["target"])
        if "player" in action:
            text += (" — rob " if kind == "citizen" else " on ") + self.label_value(
                "player", action["player"])
        if "sign" in action:
            text += " (+1)" if action["sign"] == 1 else " (−1)"
        return text

    # -- drawing --------------------------------------------------------------------------
    def show_game(self, view: dict[str, Any], legal: list[Action]) -> None:
        self.query_one("#hr-councils", Static).update(board.councils_table(view, self.names))
        self.query_one("#hr-pyre", Static).update(board.pyre_text(view))
        roll = board.last_roll(view)
        self.query_one("#hr-dice", Static).update(f"Dice: {roll or 'no roll yet'}")
        self.query_one("#hr-now", Static).update(board.now_text(view, self.names))
        hand = self.query_one(CardList)
        mine = board.hand_order([str(c) for c in view.get("hand") or []])
        usable = self.usable_cards(mine)
        hand.show([{"id": c, "name": board.hand_label(c)} for c in mine], usable)
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

    def usable_cards(self, hand: list[str]) -> set[str]:
        """Your cards some legal action now names (not Výslech's pick: that names theirs)."""
        kinds = {str(a["card"]) for a in self.legal if "card" in a and a["type"] != "discard"}
        return {c for c in hand if board.row(c)["id"] in kinds}

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
        picked = await self.app.push_screen_wait(
            Picker(title, list(zip(labels, candidates, strict=True)), side=True))
        if picked is not None:
            await self.send_action(picked)

    def action_use_card(self) -> None:
        """Use the highlighted card (play it, or react with it); pick its target if any."""
        discards = self.actions_of_type("discard")
        if discards:
            who = self.names((self.view.get("peek") or {}).get("player"))
            self.pick_and_send(discards, f"Výslech: discard which of {who}'s cards?")
            return
        cid = self.query_one(CardList).highlighted_id
        kind = board.row(cid)["id"] if cid else None
        uses = [a for a in self.legal if a.get("card") == kind]
        if not uses:
            self.notify("You cannot use that card now.", severity="warning")
            return
        fields = set().union(*uses)
        how = ("on whom?" if "target" in fields else "which player?" if "player" in fields
               else "+1 or −1?" if "sign" in fields else "how?")
        self.pick_and_send(uses, f"{board.name(str(kind))}: {how}")

    def _do(self, kind: str, title: str, nothing: str) -> None:
        options = self.actions_of_type(kind)
        if not options:
            self.notify(nothing, severity="warning")
            return
        self.pick_and_send(options, title)

    def action_draw(self) -> None:
        self._do("draw", "Draw?", "You cannot draw now.")

    def action_accuse(self) -> None:
        self._do("accuse", "Accuse whom? (roll ≥ defence)", "You cannot accuse now.")

    def action_cleanse(self) -> None:
        self._do("cleanse", "Cleanse whom? (roll > influence)",
                 "You cannot cleanse now (nobody on the pyre, or not your turn).")

    def action_flip(self) -> None:
        self._do("flip", "Flip?", "There is no token to flip now.")

    def action_end(self) -> None:
        self._do("end", "End?", "Nothing to end now.")

    # -- the end --------------------------------------------------------------------------
    def update_view(self, view: dict[str, Any], legal: list[Action]) -> None:
        """As the base, but the end of the game opens the Hranice results."""
        if view.get("outcome") and self._ready and not self._results_shown:
            self._results_shown = True
            super().update_view(view, legal)
            self.app.push_screen(HraniceResultsScreen(self.table, view))
            return
        super().update_view(view, legal)

    def action_results(self) -> None:
        if self.view.get("outcome"):
            self.app.push_screen(HraniceResultsScreen(self.table, self.view))

