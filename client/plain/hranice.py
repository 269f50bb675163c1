"""Hranice in plain sentences: each player's council, influence and dominance token, the pyre,
the last roll, what the table waits for, your cards with their texts, and every move as the
sentence the full screen's list shows."""

from __future__ import annotations

from client.plain.console import sentence
from client.plain.describe import Describer
from client.widgets import hranice_board as board
from client.words.hranice import HraniceWords
from client.words.results import you_mark
from client.words.table import TableWords
from hexnet.games.hranice import cards
from hexnet.i18n import _, ngettext


class HraniceDescriber(Describer):
    """Hranice's councils, pyre, hand and choices."""

    GAME = "hranice"
    AIMED = frozenset({"target", "player", "sign"})

    def status(self, w: TableWords) -> str:
        view = w.view
        if view.get("outcome"):
            return _("game over")
        left = int(view.get("actions_left") or 0)
        return ngettext("Turn {n}: {who}, {left} action left",
                        "Turn {n}: {who}, {left} actions left", left).format(
            n=view.get("turns", "?"), who=w.player_name(view.get("turn")), left=left)

    def table_lines(self, w: TableWords) -> list[str]:
        assert isinstance(w, HraniceWords)
        view = w.view
        lines = [sentence(self.status(w))]
        lines += [self.player_line(w, seat) for seat in range(len(view.get("councils") or []))]
        lines.append(sentence(board.pyre_text(view).plain))
        lines.append(sentence(_("Dice: {roll}").format(
            roll=board.last_roll(view) or _("no roll yet"))))
        lines.append(board.now_text(view, w.names))
        return lines

    @staticmethod
    def player_line(w: HraniceWords, seat: int) -> str:
        """One player: cards in hand, influence of the target, the token, the council."""
        view = w.view
        sizes = view.get("hand_sizes") or []
        influence = view.get("influence") or []
        tokens = view.get("tokens") or []
        council = (view.get("councils") or [])[seat]
        n = sizes[seat] if seat < len(sizes) else 0
        text = _("{player}: {cards}, influence {influence} of {target}, dominance token "
                 "{token}; council: {council}.").format(
            player=w.player_name(seat, you=False) + you_mark(view, seat),
            cards=ngettext("{n} card in hand", "{n} cards in hand", n).format(n=n),
            influence=influence[seat] if seat < len(influence) else 0,
            target=view.get("target", "?"),
            token=_("active") if seat < len(tokens) and tokens[seat] else _("inactive"),
            council=", ".join(board.citizen(c, view) for c in council) or _("empty"))
        taken = (view.get("burned") or [])[seat] if seat < len(view.get("burned") or []) else []
        if taken:
            text += " " + _("Taken from the pyre, {points} permanent influence each: "
                            "{citizens}.").format(points=cards.rule("ignite_points"),
                                                  citizens=", ".join(board.name(c)
                                                                     for c in taken))
        return text

    def hand_lines(self, w: TableWords) -> list[str]:
        assert isinstance(w, HraniceWords)
        hand = w.hand()
        if not hand:
            return [_("Your hand is empty.")]
        usable = w.usable_cards()
        lines = []
        for i, card in enumerate(hand, 1):
            line = board.card_text(card)
            if card in usable:
                line += " " + _("You can use it now.")
            lines.append(f"{i}. {line}")
        return lines
