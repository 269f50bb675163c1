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
from client.widgets.cards import CardList
from client.widgets.suspicion import suspicion_bar
from hexnet import i18n
from hexnet.games.hexenhammer.view import action_label
from hexnet.i18n import N_, _

GAME = "hexenhammer"
VILLAGER_FIELDS = ("accuser", "target", "other", "villager")
HELP_NOTES = (
    N_("The bar: a villager's suspicion on its way to 18 — ▒ up to its stake's starting value "
       "(the floor), █ above it, · the rest. St is the stake. ◆ marks the current witch."),
    N_("▶ marks the cards you can use now; Enter on one asks for accuser and target as "
       "needed."),
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

    _was_asked = False

    def compose_game(self) -> ComposeResult:
        yield Static("", id="villagers", markup=False)
        yield Static("", id="seats", markup=False)

    # -- words ----------------------------------------------------------------------------
    def phase_text(self) -> str:
        phase = self.view.get("phase")
        name = i18n.word(GAME, "phase", phase) if phase is not None else ""
        text = (_("Phase {phase} {name}").format(phase=phase, name=name)
                if isinstance(phase, int) else name)
        inq = self.view.get("inquisitor")
        if isinstance(inq, int):
            text += " │ " + _("Inq: {name}").format(name=self.player_name(inq))
        done = self.view.get("done") or []
        if self.view.get("phase") == 2 and done:
            text += " │ " + _("done: {who}").format(
                who=", ".join(self.player_name(s) for s in done))
        return text

    def title_text(self) -> str:
        return _("Hexenhammer #{table}").format(table=self.table)

    def help_notes(self) -> str:
        """The keys' notes, then every villager at the table with its ability."""
        lines = [super().help_notes(), "", _("The villagers:")]
        for v in self.view.get("villagers") or []:
            vid = v.get("id")
            lines.append(f"{i18n.word(GAME, 'villager_full', vid)}: "
                         f"{i18n.word(GAME, 'ability', vid)}")
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
        view = self.view
        if (view.get("phase") == 2 and not self.legal and not view.get("window")
                and view.get("seat") in (view.get("done") or [])):
            return _("You are done panicking — waiting for {who}. A new card asks everyone "
                     "again.").format(who=self.waiting_text())
        return super().prompt_text()

    def move_heading(self) -> str:
        if self.view.get("seat") not in (self.view.get("active") or []):
            # not waited on, yet a move is offered: a trial, playable at any time in its phases
            return _("A trial, at any time: ")
        window = self.view.get("window")
        if window:
            return self.trigger_text(window.get("trigger") or {}) + " — "
        choice = self.view.get("choice")
        if choice:
            return (_("Choose the witch to burn: ") if choice.get("purpose") == "burn"
                    else _("Choose the witch for the trial: "))
        if self.view.get("phase") == 2:
            return _("Panic! ")
        return _("Your turn: ")

    def trigger_text(self, trigger: dict[str, Any]) -> str:
        """What the open reaction window answers, in a few words."""
        who = self.player_name(trigger.get("player"))
        if trigger.get("type") == "call":
            return _("{who} called the Inquisition").format(who=who)
        card = i18n.show(GAME, "played", trigger.get("kind"), value=trigger.get("value"))
        aimed = self.villager(trigger.get("aimed", trigger.get("target")))
        target = self.villager(trigger.get("target"))
        accuser = self.villager(trigger.get("accuser"))
        if accuser and aimed:
            text = _("{who}: {card}, {accuser} accuses {aimed}").format(
                who=who, card=card, accuser=self.short_name(accuser),
                aimed=self.short_name(aimed))
        elif aimed:
            text = _("{who}: {card} on {aimed}").format(who=who, card=card,
                                                       aimed=self.short_name(aimed))
        else:
            text = _("{who}: {card}").format(who=who, card=card)
        if target and aimed and target is not aimed:
            text += " " + _("(now hits {target})").format(target=self.short_name(target))
        return text

    def short_name(self, villager: dict[str, Any]) -> str:
        return i18n.word(GAME, "villager", villager.get("id", "?"))

    def card_label(self, card: dict[str, Any]) -> str:
        """A card of your hand as printed: ``Beweys +2``, ``Spende ±1``, ``Gegenanklage``."""
        return i18n.show(GAME, "label", card.get("kind"), value=card.get("value"))

    def describe(self, action: Action) -> str:
        cards = {c.get("id"): (c.get("kind"), c.get("value")) for c in self.view.get("hand") or []}
        return i18n.render_label(GAME, action_label(action, cards),
                                 self.view.get("players") or [])

    def villager(self, vid: Any) -> dict[str, Any] | None:
        for v in self.view.get("villagers") or []:
            if v.get("id") == vid:
                return v
        return None

    def label_value(self, field: str, value: Any) -> str:
        if field in VILLAGER_FIELDS:
            v = self.villager(value)
            if v is not None:
                owner = (_("yours") if v.get("owner") == self.view.get("seat")
                         else self.player_name(v.get("owner")))
                return f"{self.short_name(v)} · {owner} · {v.get('suspicion')}"
        if field == "card":
            card = next((c for c in self.view.get("hand") or [] if c.get("id") == value), None)
            if card:
                return self.card_label(card)
        return super().label_value(field, value)

    # -- drawing --------------------------------------------------------------------------
    def show_game(self, view: dict[str, Any], legal: list[Action]) -> None:
        self.query_one("#villagers", Static).update(self.villager_table(view))
        self.query_one("#seats", Static).update(self.seats_text(view))
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
        choice = view.get("choice")
        if choice and choice.get("seat") == view.get("seat") and legal:
            self.choose_and_send(self.actions_of_type("choose"),
                                 _("The Inquisitor decides: which villager?"))

    def villager_table(self, view: dict[str, Any]) -> Table:
        """One row per villager: name, owner, suspicion bar to 18 (▒ = stake floor), suspicion,
        and the stake's starting value."""
        table = Table(box=None, padding=(0, 1, 0, 0), expand=False, show_edge=False,
                      header_style="bold")
        table.add_column(_("Villager"), no_wrap=True, max_width=12)
        table.add_column(_("Owner"), no_wrap=True, max_width=7)
        table.add_column(_("Suspicion ▒stake"), no_wrap=True)
        table.add_column("", justify="right", no_wrap=True)
        table.add_column(_("St"), justify="right", no_wrap=True)
        witches = set(view.get("current_witches") or [])
        for v in view.get("villagers") or []:
            mine = v.get("owner") == view.get("seat")
            name = Text(("◆" if v.get("id") in witches else " ") + self.short_name(v),
                        style="bold" if mine else "")
            owner = Text(self.player_name(v.get("owner")))
            if v.get("alive", True):
                bar = suspicion_bar(int(v.get("suspicion", 0)), int(v.get("start", 0)))
                if v.get("trial_card"):
                    trial = i18n.word(GAME, "card", v["trial_card"])
                    bar.append(f" ⚖{trial}", style="italic")
                value = str(v.get("suspicion", 0))
            else:
                bar, value = Text(self.fate(v.get("id")), style="dim"), ""
            table.add_row(name, owner, bar, value, str(v.get("start", "")))
        return table

    def fate(self, vid: Any) -> str:
        """What became of a villager no longer alive."""
        for seat, taken in enumerate(self.view.get("taken") or []):
            if vid in taken:
                return _("† burned, taken by {who}").format(who=self.player_name(seat))
        return _("† burned · empty stake")

    def seats_text(self, view: dict[str, Any]) -> Text:
        """Cards in each hand, empty stakes (⊔) and kept trials (⚖) in front of each player."""
        sizes = view.get("hand_sizes") or []
        empty = view.get("empty_stakes") or []
        kept = view.get("kept_trials") or []
        out = Text(_("hands") + " ")
        for seat in range(len(view.get("players") or [])):
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
            out.append(" · " + _("deck {n}").format(n=view["draw_pile"]))
        return out

    def card_text(self, card_id: str) -> str:
        card = next((c for c in self.view.get("hand") or [] if str(c.get("id")) == card_id), None)
        if not card:
            return ""
        star = "★ " if card.get("reaction") else ""
        text = i18n.word(GAME, "card_text", card.get("kind"))
        return f"{star}{self.card_label(card)}: {text}"

    # -- moves ----------------------------------------------------------------------------

    def action_use_card(self) -> None:
        """Play (or discard) the highlighted card: pick accuser, target… among legal actions."""
        cid = self.query_one(CardList).highlighted_id
        uses = [a for a in self.legal if str(a.get("card")) == cid]
        if not uses:
            self.notify(_("You cannot use that card now."), severity="warning")
            return
        self.choose_and_send(uses)

    def action_inquisition(self) -> None:
        calls = self.actions_of_type("call_inquisition")
        if not calls:
            self.notify(_("You cannot call the Inquisition now."), severity="warning")
            return
        self.choose_and_send(calls)

    def action_done(self) -> None:
        """Phase 2: say you are done (playing a card later takes it back)."""
        self.action_pass_turn()
