"""The Fang table's choice list: the seat's legal actions for the current scene, in words.

:func:`scene_choices` turns a view and its legal actions into a heading and a list of entries;
each entry carries what Enter does with it: send a legal action, toggle a cat in the chief's
proposal, send the proposal built so far, or open the seer's / pickpocket's target picker.
Nothing here decides what is legal: every entry comes from an action the host sent.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from client.widgets import fang_names as names
from hexnet import i18n
from hexnet.games.fang.view import action_label
from hexnet.i18n import N_, _, ngettext

Action = dict[str, Any]
POWER_TYPES = ("see", "steal")
POWER_WORDS = {"see": N_("Seer: look whether a cat is a witch… (s)"),
               "steal": N_("Pickpocket: steal from a cat… (s)")}


@dataclass(frozen=True)
class Choice:
    """One entry: ``kind`` is send / toggle / propose / power; ``action`` or ``seat`` with it."""

    id: str
    label: str
    kind: str = "send"
    action: Action | None = None
    seat: int | None = None


def proposal_seats(legal: list[Action]) -> list[int]:
    """The cats a proposal may name: every seat in any legal proposal."""
    seats: set[int] = set()
    for a in legal:
        if a.get("type") == "propose":
            seats.update(int(x) for x in str(a.get("members", "")).split(",") if x)
    return sorted(seats)


def proposal_action(legal: list[Action], chosen: set[int]) -> Action | None:
    """The legal proposal naming exactly ``chosen``, if there is one."""
    key = ",".join(str(s) for s in sorted(chosen))
    return next((a for a in legal if a.get("type") == "propose" and a.get("members") == key),
                None)


def _name(view: dict[str, Any], seat: Any) -> str:
    players = view.get("players") or []
    if isinstance(seat, int) and 0 <= seat < len(players):
        return str(players[seat]) + (_(" (you)") if seat == view.get("seat") else "")
    return "?"


def _last_text(view: dict[str, Any], *kinds: str) -> str:
    events = [e for e in view.get("log") or [] if e.get("kind") in kinds]
    return i18n.render(names.GAME, events[-1], view.get("players") or []) if events else ""


def _counted(view: dict[str, Any], place: str) -> str:
    counts = view.get("cat_counts") or {}
    if place not in counts:
        return ""
    k = counts[place]
    return " · " + ngettext("{n} cat", "{n} cats", k).format(n=k)


def _place_label(view: dict[str, Any], place: str) -> str:
    ing = names.ingredient_of(place)
    text = names.place(place) + (f" → {ing}" if ing else " " + _("(pond)"))
    return text + _counted(view, place)


def _mine(flag: bool) -> str:
    return "  ● " + _("yours") if flag else ""


def label(view: dict[str, Any], a: Action) -> str:
    """The action's label from the catalog (``Banish Anna``)."""
    return i18n.render_label(names.GAME, action_label(a, view.get("hand") or []),
                             view.get("players") or [])


def action_choice(view: dict[str, Any], a: Action) -> Choice:
    """A legal action as one entry, marked ``● yours`` where it is your current pick or vote."""
    kind = a.get("type")
    mine = view.get("my_choice")
    sent = view.get("seat") in (view.get("submitted") or [])
    if kind == "pick":
        text = _place_label(view, a["place"]) + _mine(mine == {"place": a["place"]})
        return Choice(f"pick:{a['place']}", text, action=a)
    if kind == "restore":
        text = label(view, a) + _mine(mine == {"restore": a["frog"]})
        return Choice(f"restore:{a['frog']}", text, action=a)
    if kind == "guard" and "place" not in a:
        return Choice("guard", label(view, a) + _mine(mine == {"guard": True}), action=a)
    if kind == "guard":
        text = label(view, a) + _counted(view, a["place"])
        return Choice(f"guard:{a['place']}", text, action=a)
    if kind == "witch_place":
        return Choice(f"wplace:{a['place']}", _place_label(view, a["place"]), action=a)
    if kind == "spell":
        what = names.spell_text(a["spell"])
        text = names.spell(a["spell"])
        return Choice(f"spell:{a['spell']}", text[:1].upper() + text[1:]
                      + (f" — {what}" if what else ""), action=a)
    if kind == "attack":
        return Choice(f"attack:{a['target']}", label(view, a), action=a)
    if kind == "vote_proposal":
        yes = a["yes"] is True
        text = label(view, a) + (" (y)" if yes else " (n)") + _mine(sent and mine is a["yes"])
        return Choice(f"yes:{yes}", text, action=a)
    if kind == "lay":
        return Choice(f"lay:{a['card']}", label(view, a), action=a)
    if kind == "vote":
        text = label(view, a) + _mine(sent and mine == a["target"])
        return Choice(f"vote:{a['target']}", text, action=a)
    if kind == "abstain":
        return Choice("abstain", label(view, a) + _mine(sent and mine is None), action=a)
    return Choice(str(kind), label(view, a), action=a)


def heading(view: dict[str, Any], legal: list[Action], chosen: set[int]) -> str:
    """What the current scene is about, for this seat, in a line or two."""
    text = _scene_heading(view, legal, chosen)
    forms = view.get("forms") or []
    seat = view.get("seat")
    form = forms[seat] if isinstance(seat, int) and 0 <= seat < len(forms) else "cat"
    if form != "cat" and not view.get("outcome") and not legal:
        watching = (_("You are a frog and watch.") if form == "frog"
                    else _("You are banished and watch."))
        return f"{watching} {text}"
    return text


def _witches_heading(view: dict[str, Any]) -> str:
    """The witches' window, for a witch: where she is and what she chooses now."""
    me = view.get("witch") or {}
    stage = me.get("stage", "")
    if stage == "place":
        return _("Witches' window — choose your place. Cats per place (no witches):")
    where = f"{names.place(me.get('place'))}{_counted(view, me.get('place'))}"
    if stage == "spell":
        return _("Witches' window — at {where}; choose a spell:").format(where=where)
    if stage == "target2":
        return _("Witches' window — at {where}; choose a second attack ({spell}):").format(
            where=where, spell=names.spell("doppelschlag"))
    return _("Witches' window — at {where}; choose an attack:").format(where=where)


def _proposal_heading(view: dict[str, Any], acts: set[Any], chosen: set[int]) -> str:
    """The chief's proposal: the chief chooses (``chosen`` so far), the others wait."""
    size = int(view.get("proposal_size") or 0)
    if "propose" in acts:
        picked = ", ".join(_name(view, s) for s in sorted(chosen)) or _("nobody yet")
        return ngettext("You are village chief: choose exactly {n} cat. Chosen: {picked}",
                        "You are village chief: choose exactly {n} cats. Chosen: {picked}",
                        size).format(n=size, picked=picked)
    return ngettext("{chief} is village chief and proposes {n} cat.",
                    "{chief} is village chief and proposes {n} cats.", size).format(
        chief=_name(view, view.get("chief")), n=size)


def _scene_heading(view: dict[str, Any], legal: list[Action], chosen: set[int]) -> str:
    scene = view.get("scene")
    acts = {a.get("type") for a in legal} - set(POWER_TYPES)
    players = view.get("players") or []
    if view.get("outcome"):
        reason = (view.get("outcome") or {}).get("reason")
        return i18n.word(names.GAME, "end", reason) if reason else _("The game is over.")
    if scene == "ready":
        return _("Look at your role card (r), then say you are ready.")
    if scene == "pick":
        if acts:
            return _("Where do you go today? Hidden; changeable until all have picked.")
        return _("The cats pick their places…")
    if scene == "guard" and acts:
        return _("Guard which place? Cats per place, no names:")
    if scene == "witches" and acts:
        return _witches_heading(view)
    if scene in ("guard", "witches"):
        return _("The cats are out collecting…")
    if scene == "announce":
        return _("The duck: {news}").format(news=_last_text(view, "evening"))
    if scene == "talk":
        return _("Evening talk: say what you think (c). End talk when done.")
    if scene == "proposal":
        return _proposal_heading(view, acts, chosen)
    members = ", ".join(_name(view, s) for s in view.get("members") or [])
    if scene == "proposal_vote":
        return _("Proposed: {members}. Yes or no? Hidden until all have voted.").format(
            members=members)
    if scene == "proposal_result":
        return _last_text(view, "proposal_result", "curse")
    if scene == "ritual":
        if acts:
            return _("The circle: {members}. Lay one card face down:").format(members=members)
        return _("The circle: {members}. Each lays one card face down.").format(members=members)
    if scene == "ritual_result":
        return _last_text(view, "ritual")
    if scene == "pause":
        return _("Who was it?! The vote begins in a moment.")
    if scene == "vote":
        if view.get("days_to_knights") == 0:
            return _("The knights' final vote: banish whom? Hidden until all have voted.")
        return _("The vote: banish whom? Hidden until all have voted.")
    if scene == "vote_result":
        return _last_text(view, "banished")
    return str(scene or "") if players else ""


def scene_choices(view: dict[str, Any], legal: list[Action], chosen: set[int]) -> list[Choice]:
    """The entries for this seat now (empty when it has nothing to do)."""
    out: list[Choice] = []
    if any(a.get("type") == "propose" for a in legal):
        size = int(view.get("proposal_size") or 0)
        for seat in proposal_seats(legal):
            box = "[x]" if seat in chosen else "[ ]"
            out.append(Choice(f"member:{seat}", f"{box} {_name(view, seat)}", "toggle",
                              seat=seat))
        ready = len(chosen) == size
        text = _("→ Propose these {chosen}/{size}").format(chosen=len(chosen), size=size)
        out.append(Choice("propose", text + ("" if ready else " " + _(
            "(choose exactly that many)")), "propose"))
    else:
        out += [action_choice(view, a) for a in legal if a.get("type") not in POWER_TYPES]
    for kind in POWER_TYPES:
        if any(a.get("type") == kind for a in legal):
            out.append(Choice(f"power:{kind}", _(POWER_WORDS[kind]), "power"))
    return out
