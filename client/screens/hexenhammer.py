"""The Hexenhammer table: villagers on their stakes, your hand, and the four phases.

Everything shown comes from the view; every move is one of the legal actions the host sent.
"""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from client.screens.hand_table import HandTableScreen
from client.screens.table_base import Action
from client.widgets.cards import CardList, card_label
from client.widgets.suspicion import suspicion_bar

PHASES = {1: "accusation", 2: "panic", 3: "trial", 4: "draw", "over": "game over"}
VILLAGER_FIELDS = ("accuser", "target", "other", "villager")
HELP_NOTES = "\n".join([
    "The bar: a villager's suspicion on its way to 18 — ▒ up to its stake's starting value "
    "(the floor), █ above it, · the rest. St is the stake. ◆ marks the current witch.",
    "▶ marks the cards you can use now; Enter on one asks for accuser and target as needed.",
    "Phase 1: play cards on your turn or call the Inquisition (i); p ends your turn (draw).",
    "Phase 2 (panic): anyone plays; d says you are done until a new card is played.",
    "Phase 3: one card or p. Phase 4: Enter discards the ▶ card, p draws up to 6.",
    "Reactions (★) come out of turn with a countdown: Enter plays one, p lets the card pass.",
])


class HexenhammerScreen(HandTableScreen):
    """Villagers (owner, suspicion bar to 18, stake), your hand with card texts, and prompts."""

    GAME = "hexenhammer"
    HELP_NOTES = HELP_NOTES
    BINDINGS = [
        Binding("enter", "use_card", "Use card", show=False),
        Binding("i", "inquisition", "Inquisition"),
        Binding("d", "done", "Done"),
        Binding("r", "results", "Results", show=False),
    ]

    _was_asked = False

    def compose_game(self) -> ComposeResult:
        yield Static("", id="villagers", markup=False)
        yield Static("", id="seats", markup=False)

    # -- words ----------------------------------------------------------------------------
    def phase_text(self) -> str:
        phase = self.view.get("phase")
        text = f"Phase {phase} {PHASES.get(phase, '')}".strip() if isinstance(phase, int) else (
            PHASES.get(phase, str(phase or "")))
        inq = self.view.get("inquisitor")
        if isinstance(inq, int):
            text += f" │ Inq: {self.player_name(inq)}"
        done = self.view.get("done") or []
        if self.view.get("phase") == 2 and done:
            text += " │ done: " + ", ".join(self.player_name(s) for s in done)
        return text

    def title_text(self) -> str:
        return f"Hexenhammer #{self.table}"

    def type_keys(self) -> dict[str, str]:
        phase = self.view.get("phase")
        keys = {"play": "Enter: play a ▶ card", "discard": "Enter: discard a ▶ card",
                "call_inquisition": "i: Inquisition", "choose": "a: choose",
                "pass": "p: pass"}
        if self.view.get("window"):
            keys["pass"] = "p: let it pass"
        elif phase == 2:
            keys["pass"] = "d: done"
        elif phase == 4:
            keys["pass"] = "p: draw up to 6"
        elif phase == 1:
            keys["pass"] = "p: end turn (draw)"
        return keys

    def prompt_text(self) -> str:
        view = self.view
        if (view.get("phase") == 2 and not self.legal and not view.get("window")
                and view.get("seat") in (view.get("done") or [])):
            return (f"You are done panicking — waiting for {self.waiting_text()}. "
                    "A new card asks everyone again.")
        return super().prompt_text()

    def move_heading(self) -> str:
        window = self.view.get("window")
        if window:
            return self.trigger_text(window.get("trigger") or {}) + " — "
        choice = self.view.get("choice")
        if choice:
            return f"Choose ({str(choice.get('purpose', '')).replace('_', ' ')}): "
        if self.view.get("phase") == 2:
            return "Panic! "
        return "Your turn: "

    def trigger_text(self, trigger: dict[str, Any]) -> str:
        """What the open reaction window answers, in a few words."""
        who = self.player_name(trigger.get("player"))
        if trigger.get("type") == "call":
            return f"{who} called the Inquisition"
        name = trigger.get("name") or trigger.get("kind", "a card")
        value = trigger.get("value")
        if isinstance(value, int) and value:
            name = f"{name} {value:+d}"
        aimed = self.villager(trigger.get("aimed", trigger.get("target")))
        target = self.villager(trigger.get("target"))
        accuser = self.villager(trigger.get("accuser"))
        text = f"{who}: {name}"
        if accuser:
            text += f", {self.short_name(accuser)} accuses"
        if aimed:
            text += f" {self.short_name(aimed)}" if accuser else f" on {self.short_name(aimed)}"
        if target and aimed and target is not aimed:
            text += f" (now hits {self.short_name(target)})"
        return text

    def short_name(self, villager: dict[str, Any]) -> str:
        return str(villager.get("short") or villager.get("id", "?")).capitalize()

    def villager(self, vid: Any) -> dict[str, Any] | None:
        for v in self.view.get("villagers") or []:
            if v.get("id") == vid:
                return v
        return None

    def label_value(self, field: str, value: Any) -> str:
        if field in VILLAGER_FIELDS:
            v = self.villager(value)
            if v is not None:
                owner = self.player_name(v.get("owner"))
                owner = "yours" if owner == "you" else owner
                return f"{self.short_name(v)} · {owner} · {v.get('suspicion')}"
        if field == "card":
            card = next((c for c in self.view.get("hand") or [] if c.get("id") == value), None)
            if card:
                return card_label(card)
        return super().label_value(field, value)

    # -- drawing --------------------------------------------------------------------------
    def show_game(self, view: dict[str, Any], legal: list[Action]) -> None:
        self.query_one("#villagers", Static).update(self.villager_table(view))
        self.query_one("#seats", Static).update(self.seats_text(view))
        playable = {str(a["card"]) for a in legal if "card" in a}
        hand = self.query_one(CardList)
        hand.show(list(view.get("hand") or []), playable)
        asked = bool(legal)
        if asked and not self._was_asked:
            # Just asked (e.g. a reaction out of turn): put the cursor on a card you can use.
            self.cursor_to_usable([str(c.get("id")) for c in view.get("hand") or []], playable)
        self._was_asked = asked
        self._show_card_text()
        choice = view.get("choice")
        if choice and choice.get("seat") == view.get("seat") and legal:
            self.choose_and_send(self.actions_of_type("choose"),
                                 "The Inquisitor decides: which villager?")

    def villager_table(self, view: dict[str, Any]) -> Table:
        """One row per villager: name, owner, suspicion bar to 18 (▒ = stake floor), suspicion,
        and the stake's starting value."""
        table = Table(box=None, padding=(0, 1, 0, 0), expand=False, show_edge=False,
                      header_style="bold")
        table.add_column("Villager", no_wrap=True, max_width=12)
        table.add_column("Owner", no_wrap=True, max_width=7)
        table.add_column("Suspicion ▒stake", no_wrap=True)
        table.add_column("", justify="right", no_wrap=True)
        table.add_column("St", justify="right", no_wrap=True)
        witches = set(view.get("current_witches") or [])
        for v in view.get("villagers") or []:
            mine = v.get("owner") == view.get("seat")
            name = Text(("◆" if v.get("id") in witches else " ") + self.short_name(v),
                        style="bold" if mine else "")
            owner = Text(self.player_name(v.get("owner")))
            if v.get("alive", True):
                bar = suspicion_bar(int(v.get("suspicion", 0)), int(v.get("start", 0)))
                if v.get("trial_card"):
                    bar.append(f" ⚖{v['trial_card']}", style="italic")
                value = str(v.get("suspicion", 0))
            else:
                bar, value = Text(self.fate(v.get("id")), style="dim"), ""
            table.add_row(name, owner, bar, value, str(v.get("start", "")))
        return table

    def fate(self, vid: Any) -> str:
        """What became of a villager no longer alive."""
        for seat, taken in enumerate(self.view.get("taken") or []):
            if vid in taken:
                return f"† burned, taken by {self.player_name(seat)}"
        return "† burned · empty stake"

    def seats_text(self, view: dict[str, Any]) -> Text:
        """Cards in each hand, empty stakes (⊔) and kept trials (⚖) in front of each player."""
        sizes = view.get("hand_sizes") or []
        empty = view.get("empty_stakes") or []
        kept = view.get("kept_trials") or []
        out = Text("hands ")
        for seat, _ in enumerate(view.get("players") or []):
            if seat:
                out.append(" ")
            out.append(self.player_name(seat), style="bold" if seat == view.get("seat") else "")
            if seat < len(sizes):
                out.append(f":{sizes[seat]}")
            if seat < len(empty) and empty[seat]:
                out.append(f" ⊔{len(empty[seat])}")
            if seat < len(kept) and kept[seat]:
                out.append(f" ⚖{len(kept[seat])}")
        if "draw_pile" in view:
            out.append(f" · deck {view['draw_pile']}")
        return out

    def card_text(self, card_id: str) -> str:
        card = next((c for c in self.view.get("hand") or [] if str(c.get("id")) == card_id), None)
        if not card:
            return ""
        star = "★ " if card.get("reaction") else ""
        return f"{star}{card_label(card)}: {card.get('text', '')}".strip().rstrip(":")

    # -- moves ----------------------------------------------------------------------------

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
        """Phase 2: say you are done (playing a card later takes it back)."""
        self.action_pass_turn()
