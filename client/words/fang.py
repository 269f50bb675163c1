"""Fang die Hexe's words: the scene, whom the day waits for (never who acts in a hidden scene),
action fields and labels, and the log — whose private lines that would name your role read as a
secret while your role card is face down (:mod:`client.widgets.fang_village` and
:mod:`client.widgets.fang_choices` word the village and the choices)."""

from __future__ import annotations

from typing import Any

from client.widgets import fang_names as names
from client.widgets.fang_choices import label as fang_label
from client.widgets.fang_village import scene_words
from client.words.table import Action, TableWords
from hexnet.i18n import N_, _, ngettext

# Private log lines that name your role: the role card tells them instead.
ROLE_EVENTS = frozenset({"role", "witches"})
# Private log lines that only some roles get (seer, pickpocket, protector, witches).
ROLE_NOTES = frozenset({"seen", "stolen"})
WATCHING_FORMS = frozenset({"frog", "banished"})
SECRET_SCENES = {"pick": N_("the cats' picks"), "guard": N_("the guard"),
                 "witches": N_("the witches' window")}


class FangWords(TableWords):
    """Fang's table in words."""

    GAME = names.GAME

    def phase_parts(self) -> list[str]:
        return [scene_words(self.view)]

    def waiting_text(self) -> str:
        # In the hidden day scenes the view names only you (who else acts would give roles away).
        scene = self.view.get("scene")
        if scene in SECRET_SCENES and not self.legal:
            return _(SECRET_SCENES[str(scene)])
        active = self.active()
        if len(active) > 3:  # the list of cats marks each one (…)
            if self.view.get("seat") in active:
                return ngettext("you and {n} cat", "you and {n} cats", len(active) - 1).format(
                    n=len(active) - 1)
            return ngettext("{n} cat", "{n} cats", len(active)).format(n=len(active))
        return super().waiting_text()

    def sitting_out(self) -> bool:
        """Whether your seat only watches: a frog or banished while the game runs."""
        forms = self.view.get("forms") or []
        seat = self.view.get("seat")
        return (not self.view.get("outcome") and isinstance(seat, int) and seat < len(forms)
                and forms[seat] in WATCHING_FORMS)

    def label_value(self, field: str, value: Any) -> str:
        if field in ("target", "frog") and isinstance(value, int):
            return self.player_name(value, you=False)
        if field == "place":
            return names.place(value)
        if field == "spell":
            return names.spell(value)
        if field == "card":
            held = next((c for c in self.view.get("hand") or [] if c.get("id") == value), None)
            return names.ingredient(held["ing"] if held else value)
        if field == "members" and isinstance(value, str):
            return ", ".join(self.player_name(int(s), you=False) for s in value.split(",") if s)
        if field == "yes":
            return _("yes") if value else _("no")
        return super().label_value(field, value)

    def describe(self, action: Action) -> str:
        return fang_label(self.view, action)

    @staticmethod
    def shown_log(view: dict[str, Any]) -> list[dict[str, Any]]:
        """The view's log without the lines that name your role (your role card says them)."""
        return [e for e in view.get("log") or [] if e.get("kind") not in ROLE_EVENTS]

    def event_text(self, event: dict[str, Any]) -> str:
        """A private line that would give your role away reads as a secret while the role card
        is face down (what it said is on the card, in your hand or just done by you)."""
        if self.watching:  # a watcher's log is public (all-seeing after the end): words as is
            return super().event_text(event)
        kind = event.get("kind")
        telling = (kind in ROLE_NOTES
                   or (kind == "day_summary" and bool(event.get("names_role")))
                   or (kind == "laid" and event.get("ingredient") == "fluchkraut"))
        if telling and not self.role_shown:
            return self.secret_note()
        return super().event_text(event)

    def secret_note(self) -> str:
        """What a secret line of the log reads while the role card is face down."""
        return _("(a secret note — your role card, r)")
