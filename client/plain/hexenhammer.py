"""Hexenhammer in plain sentences: every villager with its owner, suspicion, stake and values,
each player's score so far, your cards with their texts, and a card's choices asked field by
field (accuser, target, sign) with its foreseen effect before it is played."""

from __future__ import annotations

from typing import Any

from client.plain.console import sentence
from client.plain.describe import Describer, Entry
from client.widgets.hexenhammer_board import fate
from client.widgets.suspicion import CAP
from client.words.hexenhammer import HexenhammerWords
from client.words.results import you_mark
from client.words.table import Action, TableWords
from hexnet.i18n import _, ngettext


class HexenhammerDescriber(Describer):
    """Hexenhammer's table, hand and choices."""

    GAME = "hexenhammer"
    BY_FIELD = True

    def status(self, w: TableWords) -> str:
        """The phase with its name, the Inquisitor, who is done panicking."""
        view = w.view
        phase = view.get("phase")
        parts = [w.phase_parts()[0]] if isinstance(phase, int) and w.phase_parts() else []
        inq = view.get("inquisitor")
        if isinstance(inq, int):
            parts.append(_("the Inquisitor is {name}").format(name=w.player_name(inq)))
        done = view.get("done") or []
        if phase == 2 and done:
            parts.append(_("done panicking: {who}").format(
                who=", ".join(w.player_name(s) for s in done)))
        return "; ".join(parts)

    def table_lines(self, w: TableWords) -> list[str]:
        assert isinstance(w, HexenhammerWords)
        view = w.view
        lines = [_("Round {n}.").format(n=view.get("round", "?")) + " " + sentence(self.status(w))]
        witches = set(view.get("current_witches") or [])
        for v in view.get("villagers") or []:
            lines.append(self.villager_line(w, v, v.get("id") in witches))
        pile = view.get("draw_pile")
        if isinstance(pile, int):
            lines.append(ngettext("Draw pile: {n} card.", "Draw pile: {n} cards.", pile).format(
                n=pile))
        lines += self.score_lines(w)
        return lines

    @staticmethod
    def villager_line(w: HexenhammerWords, v: dict[str, Any], witch: bool) -> str:
        """One villager in a sentence (or two)."""
        vid = v.get("id")
        owner = w.player_name(v.get("owner"))
        name = w.villager_name(vid)
        if not v.get("alive", True):
            return _("{villager} (owner: {owner}): {fate}.").format(
                villager=name, owner=owner, fate=fate(w.view, vid, w.player_name))
        text = _("{villager} (owner: {owner}): suspicion {suspicion} of {cap}, stake starts at "
                 "{start}, pentagrams {pentagrams}, matches {matches}.").format(
            villager=name, owner=owner, suspicion=v.get("suspicion", 0), cap=CAP,
            start=v.get("start", 0), pentagrams=v.get("pentagrams", "?"),
            matches=v.get("matches", "?"))
        if witch:
            text += " " + _("The current witch.")
        if v.get("trial_card"):
            text += " " + _("A trial card lies on it: no brown card accuses it in the next "
                            "phases 1 and 2.")
        return text

    @staticmethod
    def score_lines(w: HexenhammerWords) -> list[str]:
        """Each player's cards in hand and score so far, with its parts."""
        sizes = w.view.get("hand_sizes") or []
        scores = w.view.get("scores") or []
        lines = []
        for seat in range(len(w.view.get("players") or [])):
            part = scores[seat] if seat < len(scores) else {}
            n = sizes[seat] if seat < len(sizes) else 0
            lines.append(_("{player}: {cards}, score {total} (pentagrams {pentagrams}, matches "
                           "{matches}, trials {trials}, empty stakes {empty}).").format(
                player=w.player_name(seat, you=False) + you_mark(w.view, seat),
                cards=ngettext("{n} card in hand", "{n} cards in hand", n).format(n=n),
                total=part.get("total", 0), pentagrams=part.get("pentagrams", 0),
                matches=part.get("matches", 0), trials=part.get("trials", 0),
                empty=part.get("empty_stakes", 0)))
        return lines

    def hand_lines(self, w: TableWords) -> list[str]:
        assert isinstance(w, HexenhammerWords)
        hand = w.view.get("hand") or []
        if not hand:
            return [_("Your hand is empty.")]
        usable = {str(a.get("card")) for a in w.legal if "card" in a}
        lines = []
        for i, card in enumerate(hand, 1):
            text = w.rule_text(card)
            label = w.card_label(card)
            line = (_("{card}, a reaction: {text}") if card.get("reaction")
                    else _("{card}: {text}")).format(card=label, text=text)
            if str(card.get("id")) in usable:
                line += " " + _("You can use it now.")
            lines.append(f"{i}. {line}")
        return lines

    def entries(self, w: TableWords, chosen: set[int]) -> list[Entry]:
        """Your cards that can be used now (in the hand's order), then pass, the Inquisition,
        the Inquisitor's choice."""
        found = super().entries(w, chosen)
        order = [str(c.get("id")) for c in w.view.get("hand") or []]

        def rank(entry: Entry) -> tuple[int, int]:
            card = str(entry.actions[0].get("card", ""))
            return (0, order.index(card)) if card in order else (1, 0)
        return sorted(found, key=rank)

    def option_label(self, w: TableWords, action: Action) -> str:
        return w.describe(action)
