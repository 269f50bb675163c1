"""The words every table shares: names at the table, whom the game waits for, what a timeout
does, how an action and its fields read, the phase, the log.

A :class:`TableWords` is made from one view (and the seat's legal actions) and asked; a game
subclasses it (:mod:`client.words.hexenhammer`, …). How a name is written may be given from
outside (``name``: the replay says "you" only through a seat's eyes; ``short``: the status
line cuts long names).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from client.choosing import MISSING, distinct, fields
from hexnet import i18n
from hexnet.i18n import N_, _, ngettext

Action = dict[str, Any]
Name = Callable[..., str]  # (seat, you=True) -> the name
# The order in which the prompt names what you can do (the rest after these).
PROMPT_ORDER = ["play", "discard", "choose", "call_inquisition", "pass", "done"]
TYPE_WORDS = {
    "play": N_("play it"),
    "pass": N_("pass"),
    "discard": N_("discard it"),
    "choose": N_("choose"),
    "call_inquisition": N_("call the Inquisition"),
    "done": N_("done"),
}


def seat_name(view: dict[str, Any], seat: int | None, you: bool = True) -> str:
    """The name at ``seat`` of the table ``view`` shows; "you" for the viewer's own seat when
    ``you`` is set; "nobody" for None."""
    players = view.get("players") or []
    if seat is None:
        return _("nobody")
    if you and seat == view.get("seat"):
        return _("you")
    return str(players[seat]) if isinstance(seat, int) and 0 <= seat < len(players) \
        else f"#{seat}"


class TableWords:
    """A table's words from one view. Games subclass it and name things better."""

    GAME: ClassVar[str] = ""
    # Fields asked even when only one value is possible (see :mod:`client.choosing`).
    CONFIRM_FIELDS: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, view: dict[str, Any], legal: list[Action] | None = None, *,
                 watching: bool = False, name: Name | None = None,
                 short: Name | None = None, role_shown: bool = False) -> None:
        self.view = view
        self.legal = list(legal or [])
        self.watching = watching
        self._name = name
        self._short = short
        self.role_shown = role_shown  # Fang: whether the role card is face up

    @property
    def game(self) -> str:
        """The game's id (its catalog's domain)."""
        return self.GAME or str(self.view.get("game", ""))

    # -- names ----------------------------------------------------------------------------
    def player_name(self, seat: int | None, you: bool = True) -> str:
        """The name at ``seat``; "you" for your own seat when ``you`` is set."""
        if self._name is not None:
            return self._name(seat, you)
        return seat_name(self.view, seat, you)

    def short_name(self, seat: int | None, you: bool = True) -> str:
        """A name where room is short (the status line may cut it)."""
        if self._short is not None:
            return self._short(seat, you)
        return self.player_name(seat, you)

    # -- the table's state ----------------------------------------------------------------
    def active(self) -> list[int]:
        """The seats the game waits for."""
        return [s for s in self.view.get("active") or [] if isinstance(s, int)]

    def waiting_text(self) -> str:
        """Whom the game waits for, in a few words."""
        active = self.active()
        if not active:
            return _("nobody")
        if len(active) > 2 and self.view.get("seat") in active:  # keep the status line short
            return ngettext("you and {n} other", "you and {n} others", len(active) - 1).format(
                n=len(active) - 1)
        return ", ".join(self.short_name(s) for s in active)

    def phase_parts(self) -> list[str]:
        """The phase in words, in parts (the status line joins them with │)."""
        phase = self.view.get("phase")
        return [_("Phase {phase}").format(phase=phase)] if phase is not None else []

    def phase_text(self) -> str:
        """The phase in one line."""
        return " │ ".join(self.phase_parts())

    def expiry_text(self) -> str:
        """What the running deadline's expiry does, in words ("" if nothing is timed)."""
        key = (self.view.get("deadline") or {}).get("on_expiry")
        return i18n.word(self.game, "expiry", key) if key else ""

    def move_heading(self) -> str:
        """``Your move: `` — games say more (e.g. that this is a reaction out of turn)."""
        return _("Your move: ")

    def away(self) -> bool:
        """Whether the host counts this seat absent while its player is here (the game plays
        its moves until the player says they are back)."""
        seat = self.view.get("seat")
        presence = self.view.get("presence") or []
        return (not self.watching and not self.view.get("outcome") and isinstance(seat, int)
                and 0 <= seat < len(presence) and isinstance(presence[seat], dict)
                and presence[seat].get("state") == "absent")

    def event_text(self, event: dict[str, Any]) -> str:
        """One log event in the reader's language."""
        return i18n.render(self.game, event, self.view.get("players") or [])

    # -- actions --------------------------------------------------------------------------
    def label_value(self, field: str, value: Any) -> str:
        """How ``value`` of action field ``field`` reads to a player."""
        if value is MISSING:
            return "—"
        if field == "type":
            return (_(TYPE_WORDS[str(value)]) if str(value) in TYPE_WORDS
                    else str(value).replace("_", " "))
        if field == "seat" and isinstance(value, int):
            return self.player_name(value, you=False)
        if field == "sign" and isinstance(value, int):
            return _("raise (+)") if value > 0 else _("lower (−)")
        return str(value)

    def describe(self, action: Action) -> str:
        """A whole action in words."""
        words = [self.label_value("type", action.get("type"))]
        for key in fields([action]):
            if key != "type":
                words.append(f"{key} {self.label_value(key, action[key])}")
        return " · ".join(words)

    def describe_fixed(self, candidates: list[Action], before: str) -> str:
        """What is already settled among ``candidates`` (fields before ``before``), in words."""
        words = []
        for key in fields(candidates):
            if key == before:
                break
            if key != "type":
                words.append(self.label_value(key, candidates[0].get(key, MISSING)))
        return " · ".join(words)

    def choice_label(self, key: str, value: Any, candidates: list[Action]) -> str:
        """How a value reads in a list of choices (games add what it would do)."""
        return self.label_value(key, value)

    def confirm_text(self, action: Action) -> str:
        """What is shown before ``action`` is sent ("" = send at once)."""
        return ""

    def kinds(self) -> list[str]:
        """The kinds of action the seat may take now, in the order the prompt names them."""
        return sorted(distinct([str(a.get("type")) for a in self.legal]),
                      key=lambda k: PROMPT_ORDER.index(k) if k in PROMPT_ORDER else 50)
