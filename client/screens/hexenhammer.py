"""The Hexenhammer table: villagers on their stakes with their values, each player's running
score, your hand, and the four phases.

Everything shown comes from the view; every move is one of the legal actions the host sent.
Choosing a card ends in a confirmation that shows what it will do — the villager hit, the
suspicion before and after, and every modifier (:mod:`hexnet.games.hexenhammer.preview`) —
and every question is asked, even one with a single answer (the only free accuser is shown and
confirmed, never taken silently).
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from client.screens.hand_table import HandTableScreen
from client.screens.table_base import Action
from client.widgets.cards import CardList
from client.widgets.hexenhammer_board import (
    CHROME_ROWS,
    OWNER_CELLS,
    preview_lines,
    score_table,
    trial_line,
    villager_table,
)
from hexnet import i18n
from hexnet.games.hexenhammer.preview import preview
from hexnet.games.hexenhammer.refusals import unusable
from hexnet.games.hexenhammer.view import action_label
from hexnet.i18n import N_, _

GAME = "hexenhammer"
VILLAGER_FIELDS = ("accuser", "target", "other", "villager")
HELP_NOTES = (
    N_("Bar: suspicion on its way to 18 — ▒ up to the stake's start (its floor), █ above, · "
       "the rest; then the suspicion. St: the stake's start; ⚖: a Wiegeprobe: schwerer card "
       "lies there (no brown card accuses it in the next phases 1 and 2). P/M: pentagrams "
       "(its owner's points while it lives) / matches (points for whoever burns it). ◆ the "
       "current witch · † burned · ⊔ an empty stake (its owner burned it)."),
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
    # below 100 columns the side pane narrows so every column of the villagers fits
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]
    CONFIRM_FIELDS = frozenset({"accuser", "target", "other"})
    ANSWER_ACTIONS = frozenset({"pass_turn", "use_card", "inquisition", "done"})
    _was_asked = False
    _choice_asked: Any = None  # the state id of the Inquisitor's choice already asked

    def compose_game(self) -> ComposeResult:
        yield Static("", id="villagers", markup=False)
        yield Static("", id="trial", markup=False)
        yield Static("", id="seats", markup=False)

    # -- words ----------------------------------------------------------------------------
    def phase_text(self) -> str:
        phase = self.view.get("phase")
        name = i18n.word(GAME, "phase", phase) if phase is not None else ""
        text = (_("Phase {phase} {name}").format(phase=phase, name=name)
                if isinstance(phase, int) else name)
        inq = self.view.get("inquisitor")
        if isinstance(inq, int):  # a long name is cut: the status line is one line at 80
            text += " │ " + _("Inq: {name}").format(name=self.status_name(inq))
        done = self.view.get("done") or []
        if self.view.get("phase") == 2 and done:
            text += " │ " + _("done: {who}").format(
                who=", ".join(self.status_name(s) for s in done))
        return text

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
        parts = [f"{self.player_name(seat)} {part.get('total', 0)} = "
                 f"{part.get('pentagrams', 0)}+{part.get('matches', 0)}+"
                 f"{part.get('trials', 0)}+{part.get('empty_stakes', 0)}"
                 for seat, part in enumerate(self.view.get("scores") or [])]
        return "\n".join([super().help_notes(), "",
                          _("Scores so far (pentagrams + matches + trials + empty stakes):"),
                          " · ".join(parts)])

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
        if field == "sign" and isinstance(value, int):
            return _("raise (+)") if value > 0 else _("lower (−)")
        if field == "card":
            card = next((c for c in self.view.get("hand") or [] if c.get("id") == value), None)
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
                hit = foreseen.hits[-1]
                text += f" → {hit.after}"
        return text

    def confirm_text(self, action: Action) -> str:
        """The card, whom it hits and how much, with every modifier — before it is sent."""
        if action.get("type") != "play":
            return ""
        lines = [self.describe(action)]
        foreseen = preview(self.view, action)
        if foreseen is not None:
            card = next((c for c in self.view.get("hand") or []
                         if c.get("id") == action.get("card")), {"kind": foreseen.kind})
            lines += preview_lines(foreseen, self.short_name_of, self.player_name_of_villager,
                                   self.card_words(card))
        return "\n".join(lines)

    def confirm_label(self, action: Action) -> str:
        return _("▶ play it (Enter) · Esc: back")

    def short_name_of(self, vid: Any) -> str:
        return i18n.word(GAME, "villager", vid)

    def player_name_of_villager(self, vid: Any) -> str:
        v = self.villager(vid) or {}
        return self.player_name(v.get("owner"))

    # -- drawing --------------------------------------------------------------------------
    def show_game(self, view: dict[str, Any], legal: list[Action]) -> None:
        self.query_one("#villagers", Static).update(
            villager_table(view, self.short_name_of, self.names_in(OWNER_CELLS)))
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
        choice = view.get("choice")
        if choice and choice.get("seat") == view.get("seat") and legal:
            if self._choice_asked != view.get("state_id"):  # once, not at every frame
                self._choice_asked = view.get("state_id")
                self.choose_and_send(lambda a: a.get("type") == "choose",
                                     _("The Inquisitor decides: which villager?"))
        else:
            self._choice_asked = None

    def card_text(self, card_id: str) -> str:
        card = next((c for c in self.view.get("hand") or [] if str(c.get("id")) == card_id), None)
        if not card:
            return ""
        star = "★ " if card.get("reaction") else ""
        return f"{star}{self.card_label(card)}: {self.card_words(card)}"

    def card_words(self, card: dict[str, Any]) -> str:
        """What ``card`` does, with its own value (Spende ±1: "gains or loses 1 suspicion")."""
        value = card.get("value")
        return i18n.fill(GAME, "card_text", card.get("kind"),
                         {"value": abs(value) if isinstance(value, int) else value},
                         self.view.get("players") or [])

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
