"""What the Fang table shows besides the choices: the village's state, your role card, your hand
and the list of cats. Pure functions from a view to rich text; nothing here knows a rule."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text

from client.widgets import fang_names as names
from client.widgets.names import fit
from hexnet import i18n
from hexnet.i18n import _, ngettext

# scenes in which the list of cats shows who has sent (never what)
NAME_CELLS = 10  # a player's name in the cats' table
SENT_SCENES = {"ready", "announce", "talk", "proposal_vote", "proposal_result", "ritual",
               "ritual_result", "vote", "vote_result"}


def scene_words(view: dict[str, Any]) -> str:
    """The scene in a few words (``Day 2 · night · the vote``)."""
    scene = view.get("scene")
    if view.get("outcome"):
        return _("game over")
    day = _("Day {day}").format(day=view["day"]) if view.get("day") else _("Before day 1")
    return f"{day} · {names.scene(scene)}"


def _pips(have: int, total: int, full: str, empty: str) -> str:
    return full * max(0, min(have, total)) + empty * max(0, total - have)


def village_text(view: dict[str, Any]) -> Text:
    """Day and knights' countdown, seals, curse bar, spells, tonight's ingredients (4 lines)."""
    out = Text()
    day, knights = int(view.get("day") or 0), int(view.get("knights_day") or 0)
    left = int(view.get("days_to_knights") or 0)
    out.append(_("Day {day}/{knights}").format(day=day, knights=knights) + " ", style="bold")
    out.append("· " + (_("knights TODAY") if day and left == 0 else ngettext(
        "knights in {n} day", "knights in {n} days", left).format(n=left)))
    seals, need = int(view.get("seals") or 0), int(view.get("seals_needed") or 0)
    out.append(" · " + _("seals {pips} {seals}/{needed}").format(
        pips=_pips(seals, need, "◆", "◇"), seals=seals, needed=need) + "\n")
    curse, bar = int(view.get("curse") or 0), int(view.get("curse_bar") or 0)
    out.append(_("Curse {pips} {curse}/{bar}").format(pips=_pips(curse, bar, "▮", "▯"),
                                                      curse=curse, bar=bar))
    out.append(" · " + _("failed rituals {n}").format(n=view.get("failed_rituals", 0)) + "\n")
    spells = [names.spell(s) for s in view.get("spells_unlocked") or []]
    out.append(_("Witches' spells: {spells}").format(spells=", ".join(spells) or "—") + "\n")
    required = [names.ingredient(i) for i in view.get("required") or []]
    out.append(_("Tonight:") + " ", style="bold")
    out.append(", ".join(required) or "—")
    return out


def role_text(view: dict[str, Any], shown: bool, keys: bool = True) -> Text:
    """Your role card: face down (``r`` turns it) or face up with what you know (``keys``:
    with the keys that go with it)."""
    out = Text()
    if not shown:
        out.append(" ░░ " + _("role card face down") + " ░░ ", style="reverse")
        out.append("  " + _("r: look"))
        return out
    role = view.get("role")
    out.append(f" {names.role_long(role)} ", style="bold reverse")
    out.append(" " + _("for {side}").format(side=names.side_words(names.side(role))))
    power = names.role_power(role)
    if power:
        out.append("\n" + power, style="italic")
    me = view.get("seat")
    witches = [s for s, r in enumerate(view.get("roles") or [])
               if r == "hexe" and s != me]
    players = view.get("players") or []
    if role in ("hexe", "kraehe"):
        who = ", ".join(str(players[s]) for s in witches) or _("only you")
        out.append("\n" + _("Witches: {who}").format(who=who))
        if role == "hexe" and keys:
            out.append(" · " + _("w: whisper"))
    for day, target, result in view.get("seen") or []:
        key = "seen_witch" if result == "witch" else "seen_no_witch"
        out.append("\n" + i18n.fill(names.GAME, "phrase", key, {"day": day, "target": target},
                                    players))
    if view.get("guard_last"):
        out.append("\n" + _("Last guarded: {place}").format(place=names.place(view["guard_last"])))
    return out


def hand_text(view: dict[str, Any], shown: bool) -> Text:
    """Your ingredients, oldest first; Fluchkraut only while the role card is up."""
    cards = [names.ingredient(c.get("ing")) for c in view.get("hand") or []]
    if shown and view.get("fluchkraut"):
        cards.append(names.ingredient("fluchkraut") + " ∞")
    out = Text(_("Hand:") + " ", style="bold")
    out.append(", ".join(cards) or _("empty"))
    return out


def _last_event(view: dict[str, Any], kind: str) -> dict[str, Any] | None:
    for event in reversed(view.get("log") or []):
        if event.get("kind") == kind:
            return event
    return None


def seat_states(view: dict[str, Any]) -> list[tuple[str, Any]]:
    """Per seat: what the table may know of its choice now, as data — ``("sent", None)``,
    ``("waited", None)``, ``("yes"|"no", None)`` once the proposal's votes are out,
    ``("voted", target)`` (None: abstained) once the vote's are, or ``("", None)``."""
    n = len(view.get("players") or [])
    scene = view.get("scene")
    states: list[tuple[str, Any]] = [("", None)] * n
    if view.get("outcome"):
        return states
    if scene in SENT_SCENES:
        for s in view.get("submitted") or []:
            if 0 <= s < n:
                states[s] = ("sent", None)
        for s in view.get("active") or []:
            if 0 <= s < n and not states[s][0]:
                states[s] = ("waited", None)
    if scene == "proposal_result":
        result = _last_event(view, "proposal_result")
        if result:
            for s in result.get("yes") or []:
                states[s] = ("yes", None)
            for s in result.get("no") or []:
                states[s] = ("no", None)
    elif scene == "vote_result":
        result = _last_event(view, "vote_result")
        for s, target in (result or {}).get("votes") or []:
            states[s] = ("voted", target)
    return states


def seat_marks(view: dict[str, Any]) -> list[str]:
    """Per seat: what the table may know of its choice now — sent (✓), still waited on (…),
    or, once all have voted, the vote itself."""
    players = view.get("players") or []
    marks = []
    for kind, target in seat_states(view):
        if kind == "voted":
            marks.append(_("abstain") if target is None else f"→{players[target]}")
        else:
            marks.append({"sent": "✓", "waited": "…", "yes": _("yes"), "no": _("no")}.get(
                kind, ""))
    return marks


def cats_table(view: dict[str, Any], roles_shown: bool) -> Table:
    """One row per seat: chief ★ / circle ◇, name, form, sent mark or vote, known role."""
    table = Table(box=None, padding=(0, 1, 0, 0), show_header=False, expand=False)
    table.add_column("", width=1, no_wrap=True)
    table.add_column("name", no_wrap=True, max_width=NAME_CELLS, overflow="ellipsis")
    table.add_column("mark", no_wrap=True, max_width=10, overflow="ellipsis")
    table.add_column("role", no_wrap=True, max_width=9, overflow="ellipsis")
    players = view.get("players") or []
    forms = view.get("forms") or []
    roles = view.get("roles") or []
    me = view.get("seat")
    chief, members = view.get("chief"), set(view.get("members") or [])
    marks = seat_marks(view)
    over = bool(view.get("outcome"))
    shown = fit([_("you") if seat == me else str(p) for seat, p in enumerate(players)],
                NAME_CELLS)  # told apart even when cut ("host bo…1", "host bo…2")
    for seat, _player in enumerate(players):
        form = forms[seat] if seat < len(forms) else "cat"
        flag = "★" if seat == chief else "◇" if seat in members else " "
        name = Text(shown[seat], style="bold" if seat == me else ("dim" if form != "cat" else ""))
        mark = marks[seat]
        if form == "frog":
            mark = f"{names.form('frog')} {mark}".strip()
        elif form != "cat":
            mark = names.form(form)
        role = roles[seat] if seat < len(roles) else None
        public = form == "banished" or over
        known = role and (public or (roles_shown and seat != me))
        table.add_row(flag, name, mark, names.role(role) if known else "")
    return table
