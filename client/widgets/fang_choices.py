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

Action = dict[str, Any]
POWER_TYPES = ("see", "steal")
POWER_WORDS = {"see": "Seer: look whether a cat is a witch… (s)",
               "steal": "Pickpocket: steal from a cat… (s)"}


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
        return str(players[seat]) + (" (you)" if seat == view.get("seat") else "")
    return "?"


def _last_text(view: dict[str, Any], *kinds: str) -> str:
    texts = [str(e.get("text", "")) for e in view.get("log") or [] if e.get("kind") in kinds]
    return texts[-1] if texts else ""


def _counted(view: dict[str, Any], place: str) -> str:
    counts = view.get("cat_counts") or {}
    if place not in counts:
        return ""
    k = counts[place]
    return f" · {k} cat{'s' if k != 1 else ''}"


def _place_label(view: dict[str, Any], place: str) -> str:
    ing = names.ingredient_of(place)
    text = names.place(place) + (f" → {ing}" if ing else " (pond)")
    return text + _counted(view, place)


def _mine(flag: bool) -> str:
    return "  ● yours" if flag else ""


def action_choice(view: dict[str, Any], a: Action) -> Choice:
    """A legal action as one entry, marked ``● yours`` where it is your current pick or vote."""
    kind = a.get("type")
    mine = view.get("my_choice")
    sent = view.get("seat") in (view.get("submitted") or [])
    if kind == "pick":
        label = _place_label(view, a["place"]) + _mine(mine == {"place": a["place"]})
        return Choice(f"pick:{a['place']}", label, action=a)
    if kind == "restore":
        label = f"Restore {_name(view, a['frog'])} (frog) at the pond" + _mine(
            mine == {"restore": a["frog"]})
        return Choice(f"restore:{a['frog']}", label, action=a)
    if kind == "guard" and "place" not in a:
        return Choice("guard", "Guard a place (chosen after the others)" + _mine(
            mine == {"guard": True}), action=a)
    if kind == "guard":
        return Choice(f"guard:{a['place']}", "Guard " + _place_label(view, a["place"]), action=a)
    if kind == "witch_place":
        return Choice(f"wplace:{a['place']}", _place_label(view, a["place"]), action=a)
    if kind == "spell":
        text = names.SPELL_TEXT.get(a["spell"], "")
        label = names.spell(a["spell"]).capitalize() + (f" — {text}" if text else "")
        return Choice(f"spell:{a['spell']}", label, action=a)
    if kind == "attack":
        return Choice(f"attack:{a['target']}", f"Attack {_name(view, a['target'])}", action=a)
    if kind == "no_attack":
        return Choice("no_attack", "No attack", action=a)
    if kind == "vote_proposal":
        yes = a["yes"] is True
        return Choice(f"yes:{yes}", ("Yes (y)" if yes else "No (n)") + _mine(
            sent and mine is a["yes"]), action=a)
    if kind == "lay":
        card = a["card"]
        held = next((c for c in view.get("hand") or [] if c.get("id") == card), None)
        label = names.ingredient(held["ing"] if held else card)
        return Choice(f"lay:{card}", f"Lay {label}", action=a)
    if kind == "vote":
        return Choice(f"vote:{a['target']}", f"Banish {_name(view, a['target'])}" + _mine(
            sent and mine == a["target"]), action=a)
    if kind == "abstain":
        return Choice("abstain", "Abstain" + _mine(sent and mine is None), action=a)
    words = {"ready": "Ready — I have seen my role", "confirm": "OK, go on",
             "end_talk": "End talk"}
    return Choice(str(kind), words.get(str(kind), str(kind).replace("_", " ")), action=a)


def heading(view: dict[str, Any], legal: list[Action], chosen: set[int]) -> str:
    """What the current scene is about, for this seat, in a line or two."""
    text = _scene_heading(view, legal, chosen)
    forms = view.get("forms") or []
    seat = view.get("seat")
    form = forms[seat] if isinstance(seat, int) and 0 <= seat < len(forms) else "cat"
    if form != "cat" and not view.get("outcome") and not legal:
        return f"You are {'a frog' if form == 'frog' else 'banished'} and watch. {text}"
    return text


def _scene_heading(view: dict[str, Any], legal: list[Action], chosen: set[int]) -> str:
    scene = view.get("scene")
    acts = {a.get("type") for a in legal} - set(POWER_TYPES)
    players = view.get("players") or []
    if view.get("outcome"):
        return str((view.get("outcome") or {}).get("reason") or "The game is over.")
    if scene == "ready":
        return "Look at your role card (r), then say you are ready."
    if scene == "pick":
        if acts:
            return "Where do you go today? Hidden; changeable until all have picked."
        return "The cats pick their places…"
    if scene == "guard" and acts:
        return "Guard which place? Cats per place, no names:"
    if scene == "witches" and acts:
        me = view.get("witch") or {}
        stage = me.get("stage", "")
        if stage == "place":
            return "Witches' window — choose your place. Cats per place (no witches):"
        step = {"spell": "a spell", "target": "an attack",
                "target2": "a second attack (Doppelschlag)"}.get(stage, stage)
        where = f"{names.place(me.get('place'))}{_counted(view, me.get('place'))}"
        return f"Witches' window — at {where}; choose {step}:"
    if scene in ("guard", "witches"):
        return "The cats are out collecting…"
    if scene == "announce":
        return "The duck: " + _last_text(view, "evening")
    if scene == "talk":
        return "Evening talk: say what you think (c). End talk when done."
    if scene == "proposal":
        size = view.get("proposal_size")
        chief = view.get("chief")
        if "propose" in acts:
            picked = ", ".join(_name(view, s) for s in sorted(chosen)) or "nobody yet"
            return f"You are village chief: choose exactly {size} cats. Chosen: {picked}"
        return f"{_name(view, chief)} is village chief and proposes {size} cats."
    members = ", ".join(_name(view, s) for s in view.get("members") or [])
    if scene == "proposal_vote":
        return f"Proposed: {members}. Yes or no? Hidden until all have voted."
    if scene == "proposal_result":
        return _last_text(view, "proposal_result", "curse")
    if scene == "ritual":
        lay = "Lay one card face down:" if acts else "Each lays one card face down."
        return f"The circle: {members}. {lay}"
    if scene == "ritual_result":
        return _last_text(view, "ritual")
    if scene == "pause":
        return "Who was it?! The vote begins in a moment."
    if scene == "vote":
        final = "The knights' final vote" if view.get("days_to_knights") == 0 else "The vote"
        return f"{final}: banish whom? Hidden until all have voted."
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
        out.append(Choice("propose", f"→ Propose these {len(chosen)}/{size}"
                          + ("" if ready else " (choose exactly that many)"), "propose"))
    else:
        out += [action_choice(view, a) for a in legal if a.get("type") not in POWER_TYPES]
    for kind in POWER_TYPES:
        if any(a.get("type") == kind for a in legal):
            out.append(Choice(f"power:{kind}", POWER_WORDS[kind], "power"))
    return out
