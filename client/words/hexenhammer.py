"""Hexenhammer's words: the phase, the reaction a window answers, villagers and cards as they
read, an action as a sentence, and a card's foreseen effect before it is played."""

from __future__ import annotations

from typing import Any

from client.choosing import MISSING
from client.widgets.hexenhammer_board import preview_lines
from client.words.table import Action, TableWords
from hexnet import i18n
from hexnet.games.hexenhammer.preview import preview
from hexnet.games.hexenhammer.view import action_label
from hexnet.i18n import _

GAME = "hexenhammer"
VILLAGER_FIELDS = ("accuser", "target", "other", "villager")


class HexenhammerWords(TableWords):
    """Hexenhammer's table in words."""

    GAME = GAME
    CONFIRM_FIELDS = frozenset({"accuser", "target", "other"})

    # -- the table's state ----------------------------------------------------------------
    def phase_parts(self) -> list[str]:
        """The phase with its name; the Inquisitor; who is done panicking in phase 2."""
        phase = self.view.get("phase")
        name = i18n.word(GAME, "phase", phase) if phase is not None else ""
        parts = [_("Phase {phase} {name}").format(phase=phase, name=name)
                 if isinstance(phase, int) else name]
        inq = self.view.get("inquisitor")
        if isinstance(inq, int):
            parts.append(_("Inq: {name}").format(name=self.short_name(inq)))
        done = self.view.get("done") or []
        if phase == 2 and done:
            parts.append(_("done: {who}").format(who=", ".join(self.short_name(s)
                                                                for s in done)))
        return [p for p in parts if p]

    def done_panicking(self) -> bool:
        """Whether you said you are done in the panic phase and nothing asks you again yet."""
        view = self.view
        return (view.get("phase") == 2 and not self.legal and not view.get("window")
                and view.get("seat") in (view.get("done") or []))

    def done_text(self) -> str:
        """The prompt while you are done panicking."""
        return _("You are done panicking — waiting for {who}. A new card asks everyone "
                 "again.").format(who=self.waiting_text())

    def move_heading(self) -> str:
        """What you are asked: a trial at any time, a reaction to a card, the Inquisitor's
        choice, panic, or your turn."""
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
                who=who, card=card, accuser=self.villager_word(accuser),
                aimed=self.villager_word(aimed))
        elif aimed:
            text = _("{who}: {card} on {aimed}").format(who=who, card=card,
                                                       aimed=self.villager_word(aimed))
        else:
            text = _("{who}: {card}").format(who=who, card=card)
        if target and aimed and target is not aimed:
            text += " " + _("(now hits {target})").format(target=self.villager_word(target))
        return text

    # -- villagers and cards --------------------------------------------------------------
    def villager(self, vid: Any) -> dict[str, Any] | None:
        """The villager ``vid`` of the view (None if not there)."""
        for v in self.view.get("villagers") or []:
            if v.get("id") == vid:
                return v
        return None

    @staticmethod
    def villager_name(vid: Any) -> str:
        """A villager's name."""
        return i18n.word(GAME, "villager", vid)

    def villager_word(self, villager: dict[str, Any]) -> str:
        """The name of a villager of the view."""
        return self.villager_name(villager.get("id", "?"))

    def villager_owner(self, vid: Any) -> str:
        """Whose villager ``vid`` is."""
        return self.player_name((self.villager(vid) or {}).get("owner"))

    def card(self, card_id: Any) -> dict[str, Any] | None:
        """The card ``card_id`` of your hand (None if you do not hold it)."""
        return next((c for c in self.view.get("hand") or []
                     if str(c.get("id")) == str(card_id)), None)

    @staticmethod
    def card_label(card: dict[str, Any]) -> str:
        """A card of your hand as printed: ``Beweys +2``, ``Spende ±1``, ``Gegenanklage``."""
        return i18n.show(GAME, "label", card.get("kind"), value=card.get("value"))

    def rule_text(self, card: dict[str, Any]) -> str:
        """What a card does, as its rule text says, with its own value (Spende ±1: "gains or
        loses 1 suspicion")."""
        value = card.get("value")
        return i18n.fill(GAME, "card_text", card.get("kind"),
                         {"value": abs(value) if isinstance(value, int) else value},
                         self.view.get("players") or [])

    def card_text(self, card_id: Any) -> str:
        """A card of your hand with its rule text (★ a reaction)."""
        card = self.card(card_id)
        if not card:
            return ""
        star = "★ " if card.get("reaction") else ""
        return f"{star}{self.card_label(card)}: {self.rule_text(card)}"

    # -- actions --------------------------------------------------------------------------
    def describe(self, action: Action) -> str:
        cards = {c.get("id"): (c.get("kind"), c.get("value")) for c in self.view.get("hand") or []}
        return i18n.render_label(GAME, action_label(action, cards),
                                 self.view.get("players") or [])

    def label_value(self, field: str, value: Any) -> str:
        if value is not MISSING and field in VILLAGER_FIELDS:
            v = self.villager(value)
            if v is not None:
                owner = (_("yours") if v.get("owner") == self.view.get("seat")
                         else self.player_name(v.get("owner")))
                return f"{self.villager_word(v)} · {owner} · {v.get('suspicion')}"
        if field == "sign" and isinstance(value, int):
            return _("raise (+)") if value > 0 else _("lower (−)")
        if field == "card":
            card = self.card(value)
            if card:
                return self.card_label(card)
        return super().label_value(field, value)

    def choice_label(self, key: str, value: Any, candidates: list[Action]) -> str:
        """A list entry; where the entry settles the card's effect, what it does to whom
        (``Maria · Bela · 5 → 9``)."""
        text = self.label_value(key, value)
        chosen = [a for a in candidates if a.get(key) == value and type(a.get(key)) is type(value)]
        if key in ("target", "other", "sign") and len(chosen) == 1:
            foreseen = preview(self.view, chosen[0])
            if foreseen is not None and foreseen.hits:
                text += f" → {foreseen.hits[-1].after}"
        return text

    def confirm_text(self, action: Action) -> str:
        """The card, whom it hits and how much, with every modifier — before it is sent."""
        if action.get("type") != "play":
            return ""
        lines = [self.describe(action)]
        foreseen = preview(self.view, action)
        if foreseen is not None:
            card = self.card(action.get("card")) or {"kind": foreseen.kind}
            lines += preview_lines(foreseen, self.villager_name, self.villager_owner,
                                   self.rule_text(card))
        return "\n".join(lines)

    def scores_text(self) -> str:
        """Each player's score so far as its sum: ``Ada 5 = 3+1+0+1``."""
        return " · ".join(
            f"{self.player_name(seat)} {part.get('total', 0)} = {part.get('pentagrams', 0)}+"
            f"{part.get('matches', 0)}+{part.get('trials', 0)}+{part.get('empty_stakes', 0)}"
            for seat, part in enumerate(self.view.get("scores") or []))
