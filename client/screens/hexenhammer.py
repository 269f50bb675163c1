"""The Hexenhammer table: villagers on their stakes, your hand, and the four phases.

Everything shown comes from the view; every move is one of the legal actions the host sent.
"""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import OptionList, Static

from client.screens.table_base import Action, TableScreen
from client.widgets.cards import CardList, card_label
from client.widgets.suspicion import suspicion_bar

PHASES = {1: "accusation", 2: "panic", 3: "trial", 4: "draw"}
VILLAGER_FIELDS = ("accuser", "target", "other", "villager")
KNOWN_VILLAGER_KEYS = {"id", "name", "owner", "start", "suspicion", "alive", "pentagrams",
                       "matches", "ability", "taken_by", "burned_by", "empty_stake", "stake"}


class HexenhammerScreen(TableScreen):
    """Villagers (owner, suspicion bar to 18, stake), your hand with card texts, and prompts."""

    GAME = "hexenhammer"
    TYPE_KEYS = {
        "play": "Enter: play a ▶ card",
        "discard": "Enter: discard a ▶ card",
        "call_inquisition": "i: Inquisition",
        "pass": "p: pass",
        "done": "d: done",
    }
    BINDINGS = [
        Binding("enter", "use_card", "Use card", show=False),
        Binding("i", "inquisition", "Inquisition"),
        Binding("d", "done", "Done"),
        Binding("r", "results", "Results", show=False),
    ]

    def compose_game(self) -> ComposeResult:
        yield Static("", id="villagers")
        yield Static("", id="seats")

    def compose_side(self) -> ComposeResult:
        yield CardList(id="hand")
        yield Static("", id="card-text")

    def focus_default(self) -> None:
        self.query_one(CardList).focus()

    def on_mount(self) -> None:
        self.query_one(CardList).focus()

    # -- drawing --------------------------------------------------------------------------
    def phase_text(self) -> str:
        phase = self.view.get("phase")
        name = PHASES.get(phase, "") if isinstance(phase, int) else str(phase or "")
        inq = self.view.get("inquisitor")
        text = f"Phase {phase} {name}".strip() if phase is not None else ""
        if isinstance(inq, int):
            text += f" │ Inquisitor: {self.player_name(inq)}"
        return text

    def move_heading(self) -> str:
        turn = self.view.get("turn")
        if self.view.get("phase") == 2:
            return "Panic — anyone may play: "
        if isinstance(turn, int) and turn != self.view.get("seat"):
            return "React (out of turn): "
        return "Your turn: "

    def title_text(self) -> str:
        return f"Hexenhammer #{self.table}"

    def show_game(self, view: dict[str, Any], legal: list[Action]) -> None:
        self.query_one("#villagers", Static).update(self.villager_table(view))
        self.query_one("#seats", Static).update(self.seats_text(view))
        playable = {str(a["card"]) for a in legal if "card" in a}
        self.query_one(CardList).show(list(view.get("hand") or []), playable)
        self._show_card_text()

    def villager_table(self, view: dict[str, Any]) -> Table:
        """One row per villager: name, owner, suspicion bar to 18 (▒ = stake floor), value."""
        table = Table(box=None, padding=(0, 1, 0, 0), expand=False, show_edge=False,
                      header_style="bold")
        table.add_column("Villager", no_wrap=True, max_width=12)
        table.add_column("Owner", no_wrap=True, max_width=7)
        table.add_column("Suspicion ▒stake", no_wrap=True)
        table.add_column("", justify="right", no_wrap=True)
        witch = view.get("witch")
        for v in view.get("villagers") or []:
            name = Text(self.short_name(v), style="bold" if v.get("owner") == view.get("seat")
                        else "")
            if v.get("id") == witch:
                name.append(" ◆", style="red")
            owner = self.player_name(v.get("owner"))
            if v.get("alive", True):
                bar = suspicion_bar(int(v.get("suspicion", 0)), int(v.get("start", 0)))
                for tag in self.tags(v):
                    bar.append(f" {tag}", style="italic")
                value = str(v.get("suspicion", 0))
            else:
                bar = Text(self.fate(v), style="dim")
                value = ""
            table.add_row(name, owner, bar, value)
        return table

    def fate(self, villager: dict[str, Any]) -> str:
        """What became of a villager no longer alive."""
        taker = villager.get("taken_by", villager.get("burned_by"))
        if villager.get("empty_stake") or taker is None or taker == villager.get("owner"):
            return "† burned · empty stake"
        return f"† burned · taken by {self.player_name(taker)}"

    @staticmethod
    def tags(villager: dict[str, Any]) -> list[str]:
        """Extra marks the view gives a villager (e.g. a trial card lying on it)."""
        return [k.replace("_", " ") for k, v in villager.items()
                if k not in KNOWN_VILLAGER_KEYS and v is True]

    def seats_text(self, view: dict[str, Any]) -> Text:
        """Cards in each hand, and the empty stakes (⊔) in front of each player."""
        sizes = view.get("hand_sizes") or []
        empty = view.get("empty_stakes") or []
        out = Text("Cards: ")
        for seat, _ in enumerate(view.get("players") or []):
            if seat:
                out.append(" · ")
            out.append(self.player_name(seat), style="bold" if seat == view.get("seat") else "")
            if seat < len(sizes):
                out.append(f" {sizes[seat]}")
            if seat < len(empty) and empty[seat]:
                out.append(f" ⊔{empty[seat]}")
        return out

    def short_name(self, villager: dict[str, Any]) -> str:
        return str(villager.get("id", "?")).capitalize()

    def villager(self, vid: Any) -> dict[str, Any] | None:
        for v in self.view.get("villagers") or []:
            if v.get("id") == vid:
                return v
        return None

    def _show_card_text(self) -> None:
        cid = self.query_one(CardList).highlighted_id
        card = next((c for c in self.view.get("hand") or [] if str(c.get("id")) == cid), None)
        text = ""
        if card:
            text = f"{card_label(card)}: {card.get('text', '')}".strip().rstrip(":")
        self.query_one("#card-text", Static).update(text)

    @on(OptionList.OptionHighlighted, "#hand")
    def _card_highlighted(self) -> None:
        self._show_card_text()

    # -- naming ---------------------------------------------------------------------------
    def label_value(self, field: str, value: Any) -> str:
        if field in VILLAGER_FIELDS:
            v = self.villager(value)
            if v is not None:
                owner = self.player_name(v.get("owner"))
                owner = "yours" if owner == "you" else owner
                return (f"{v.get('name', self.short_name(v))} ({owner}, "
                        f"{v.get('suspicion', '?')}/18)")
        if field == "card":
            card = next((c for c in self.view.get("hand") or [] if c.get("id") == value), None)
            if card:
                return card_label(card)
        if field == "type" and value == "play":
            return "play it"
        return super().label_value(field, value)

    # -- moves ----------------------------------------------------------------------------
    @on(OptionList.OptionSelected, "#hand")
    def _card_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_use_card()

    def action_use_card(self) -> None:
        """Play (or discard) the highlighted card: pick accuser, target… among legal actions."""
        cid = self.query_one(CardList).highlighted_id
        uses = [a for a in self.legal if str(a.get("card")) == cid]
        if not uses:
            self.notify("You cannot use that card now.", severity="warning")
            return
        self.choose_and_send(uses)

    def action_inquisition(self) -> None:
        calls = self.actions_of_type("call_inquisition")
        if not calls:
            self.notify("You cannot call the Inquisition now.", severity="warning")
            return
        self.choose_and_send(calls)

    def action_done(self) -> None:
        """Phase 2: say you are done (play a card later to take it back)."""
        self.action_pass_turn()
