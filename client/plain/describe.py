"""What the plain mode says about a table, per game: the table as sentences, the hand, and the
choices as numbered entries. A game's describer (:mod:`.hexenhammer`, :mod:`.fang`,
:mod:`.hranice`) refines the generic one; every sentence about the game itself comes from the
game's words (:mod:`client.words`), which the table screens use too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from client.lazy import load
from client.widgets import presence
from client.words import words_for
from client.words.table import PROMPT_ORDER, Action, TableWords
from hexnet.i18n import _


def capital(text: str) -> str:
    """``text`` with its first letter a capital (a list entry reads as a sentence)."""
    return text[:1].upper() + text[1:]


@dataclass
class Entry:
    """One numbered choice: what it reads, and the legal actions it stands for. ``kind``:
    ``send`` (narrow the actions down and send one), ``toggle`` (a cat in the chief's
    proposal, ``seat``) or ``propose`` (send the proposal built so far)."""

    label: str
    actions: list[Action] = field(default_factory=list)
    kind: str = "send"
    seat: int | None = None


class Describer:
    """The generic table: the view's phase, whom it waits for, and the legal actions."""

    GAME: ClassVar[str] = ""
    # ask field by field (client.choosing) instead of listing every action as a sentence
    BY_FIELD: ClassVar[bool] = False
    # fields that make an action aimed: listed for confirmation even when only one is left
    AIMED: ClassVar[frozenset[str]] = frozenset()

    def words(self, view: dict[str, Any], legal: list[Action], *, watching: bool = False,
              role_shown: bool = False) -> TableWords:
        """The game's words for ``view``."""
        return words_for(self.GAME or str(view.get("game", "")))(
            view, legal, watching=watching, role_shown=role_shown)

    # -- the table ------------------------------------------------------------------------
    def status(self, w: TableWords) -> str:
        """The phase in a sentence ("" when the view has none)."""
        return "; ".join(w.phase_parts())

    def table_lines(self, w: TableWords) -> list[str]:
        """The whole table, a sentence a line (the game's own describer says more)."""
        skip = {"log", "players", "seat", "game", "state_id", "active", "deadline", "outcome",
                "presence"}
        return [f"{k}: {v}" for k, v in w.view.items()
                if k not in skip and isinstance(v, str | int | float | bool)]

    def hand_lines(self, w: TableWords) -> list[str]:
        """Your hand or role, a card a line."""
        return [_("This game shows no hand.")]

    def presence_lines(self, w: TableWords, since: float) -> list[str]:
        """Every player who is not simply there (reconnecting, away, played by a bot)."""
        out = []
        for seat, entry in enumerate(w.view.get("presence") or []):
            if isinstance(entry, dict):
                mark = presence.mark(entry, since)
                if mark:
                    out.append(_("{name}: {state}.").format(
                        name=w.player_name(seat, you=False), state=mark))
        return out

    # -- choices --------------------------------------------------------------------------
    def heading(self, w: TableWords, chosen: set[int]) -> str:
        """What the seat is asked, in a few words (no trailing colon or dash)."""
        return w.move_heading().strip().rstrip(":—-").strip()

    def entries(self, w: TableWords, chosen: set[int]) -> list[Entry]:
        """The seat's choices now: the legal actions grouped by kind and card."""
        groups: dict[tuple[Any, ...], list[Action]] = {}
        for a in w.legal:
            groups.setdefault(self.group_key(a), []).append(a)
        keys = sorted(groups, key=self.group_order(w))
        return [Entry(capital(self.group_label(w, groups[k])), groups[k]) for k in keys]

    def group_key(self, action: Action) -> tuple[Any, ...]:
        """Which entry an action belongs to."""
        return (str(action.get("type")), str(action.get("card", "")))

    def group_order(self, w: TableWords) -> Any:
        """The sort key of entries (the order the prompt names kinds in)."""
        def order(key: tuple[Any, ...]) -> Any:
            kind = key[0]
            return PROMPT_ORDER.index(kind) if kind in PROMPT_ORDER else 50
        return order

    def group_label(self, w: TableWords, actions: list[Action]) -> str:
        """How an entry reads: the action itself when it is one, else its kind (and card)."""
        first = actions[0]
        if len(actions) == 1:
            return w.describe(first)
        kind = w.label_value("type", first.get("type"))
        if "card" in first:
            return _("{card}: {what}").format(card=w.label_value("card", first["card"]),
                                              what=kind)
        return kind

    def passes(self, w: TableWords) -> list[Action]:
        """What ``pass`` sends now (pass, done…)."""
        return [a for a in w.legal if a.get("type") in ("pass", "done")]

    def option_label(self, w: TableWords, action: Action) -> str:
        """One action among an entry's, listed for choosing."""
        return w.describe(action)


DESCRIBERS: dict[str, str] = {
    "hexenhammer": "client.plain.hexenhammer:HexenhammerDescriber",
    "fang": "client.plain.fang:FangDescriber",
    "hranice": "client.plain.hranice:HraniceDescriber",
}


def describer_for(game: str) -> Describer:
    """The describer of ``game`` (the generic one for a game without its own)."""
    target = DESCRIBERS.get(game)
    if target is None:
        return Describer()
    return load(target)()
