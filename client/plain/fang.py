"""Fang die Hexe in plain sentences: the village (day, knights, seals, curse, spells, tonight's
ingredients), every cat with what the table may know of it, your role card (face down until
you turn it up) and hand, and the scene's choices — the chief's proposal built cat by cat."""

from __future__ import annotations

import re
from typing import Any

from client.plain.console import sentence
from client.plain.describe import Describer, Entry
from client.widgets import fang_names as names
from client.widgets.fang_choices import heading, scene_choices
from client.widgets.fang_village import hand_text, role_text, seat_states, village_text
from client.words.fang import FangWords
from client.words.results import you_mark
from client.words.table import Action, TableWords
from hexnet.i18n import _

CONFIRM_TYPES = ("ready", "confirm", "end_talk")
KEY_HINT = re.compile(r" \([a-z]\)(?=[ .,:;]|$)")  # "(r)", "(y)": a key of the full screen


def unkeyed(text: str) -> str:
    """``text`` without the full screen's key hints (``(r)``, ``(y)``)."""
    return KEY_HINT.sub("", text)


class FangDescriber(Describer):
    """Fang's village, cats, role card, hand and choices."""

    GAME = "fang"

    def status(self, w: TableWords) -> str:
        return "; ".join(w.phase_parts())

    def table_lines(self, w: TableWords) -> list[str]:
        view = w.view
        lines = [sentence(self.status(w))]
        lines += village_text(view).plain.split("\n")
        lines += [self.cat_line(w, seat) for seat in range(len(view.get("players") or []))]
        return lines

    @staticmethod
    def cat_line(w: TableWords, seat: int) -> str:
        """One cat: its name, chief or proposed, its form, what the table knows of its choice,
        its role where you may know it."""
        view = w.view
        forms = view.get("forms") or []
        roles = view.get("roles") or []
        form = forms[seat] if seat < len(forms) else "cat"
        parts = []
        if seat == view.get("chief"):
            parts.append(_("village chief"))
        elif seat in (view.get("members") or []):
            parts.append(_("proposed or in the circle"))
        if form != "cat":
            parts.append(names.form(form))
        kind, target = seat_states(view)[seat] if seat < len(seat_states(view)) else ("", None)
        said = {"sent": _("has chosen"), "waited": _("still to choose"),
                "yes": _("voted yes"), "no": _("voted no")}.get(kind)
        if kind == "voted":
            said = (_("abstained") if target is None
                    else _("voted for {name}").format(name=w.player_name(target, you=False)))
        if said:
            parts.append(said)
        role = roles[seat] if seat < len(roles) else None
        over = bool(view.get("outcome"))
        me = seat == view.get("seat")
        if role and (form == "banished" or over or (w.role_shown and not me)):
            parts.append(_("role: {role}").format(role=names.role(role)))
        name = w.player_name(seat, you=False) + you_mark(view, seat)
        return (_("{name}: {what}.").format(name=name, what=", ".join(parts)) if parts
                else _("{name}.").format(name=name))

    def hand_lines(self, w: TableWords) -> list[str]:
        if w.watching:
            return [_("Watching: roles and hands stay hidden until the end.")]
        return self.role_lines(w) + [sentence(hand_text(w.view, w.role_shown).plain)]

    @staticmethod
    def role_lines(w: TableWords) -> list[str]:
        """Your role card: what it says when face up, how to turn it up when face down."""
        if not w.role_shown:
            return [_("Your role card is face down; type role to turn it up.")]
        return role_text(w.view, True, keys=False).plain.split("\n")

    def heading(self, w: TableWords, chosen: set[int]) -> str:
        return unkeyed(heading(w.view, w.legal, chosen))

    def entries(self, w: TableWords, chosen: set[int]) -> list[Entry]:
        out = []
        for choice in scene_choices(w.view, w.legal, chosen):
            if choice.kind == "toggle" and choice.seat is not None:
                name = w.player_name(choice.seat, you=False) + you_mark(w.view, choice.seat)
                label = (_("{name}: chosen") if choice.seat in chosen
                         else _("{name}: not chosen")).format(name=name)
                out.append(Entry(label, kind="toggle", seat=choice.seat))
            elif choice.kind == "propose":
                out.append(Entry(choice.label.lstrip("→ "), kind="propose"))
            elif choice.kind == "power":
                powers = [a for a in w.legal if a.get("type") in ("see", "steal")]
                out.append(Entry(unkeyed(choice.label), powers))
            elif choice.action is not None:  # "● yours": your pick or vote so far
                out.append(Entry(unkeyed(choice.label).replace("  ● ", ", "), [choice.action]))
        return out

    def passes(self, w: TableWords) -> list[Action]:
        for kind in CONFIRM_TYPES:
            found = [a for a in w.legal if a.get("type") == kind]
            if found:
                return found[:1]
        return []

    @staticmethod
    def auto_confirm(w: TableWords) -> Action | None:
        """A frog or a banished cat only watches: its OK that every seat gives (None if the
        seat is asked anything else)."""
        if (isinstance(w, FangWords) and w.sitting_out() and w.legal
                and all(a.get("type") == "confirm" for a in w.legal)):
            return w.legal[0]
        return None

    @staticmethod
    def votes(w: TableWords, yes: bool) -> list[Action]:
        """The proposal vote ``yes`` or no, if it is asked now."""
        return [a for a in w.legal if a.get("type") == "vote_proposal" and a.get("yes") is yes]

    @staticmethod
    def whisper_allowed(view: dict[str, Any]) -> bool:
        """Whether this seat may whisper to the witches."""
        return view.get("role") == "hexe"
