"""What a card will do, worked out from a seat's view before the card is sent.

The client shows it when a card is chosen: the villager it hits, the suspicion before and after,
and every modifier on the way (the card's printed value, what earlier reactions added, the
accuser's and the accused's abilities, the stake's floor and the top of 18). It reads only the
seat's view — the villagers, their ``abilities`` (printed on the villager cards), the open
reaction window's trigger, the current witches — and the rules' constants, never the state, so
it can tell a seat nothing its view does not. The engine's own arithmetic is in
:mod:`hexnet.games.hexenhammer.effects`; ``tests/hexnet/hexenhammer/test_preview.py`` plays
random games and checks every prediction against what the engine then does.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from hexnet.games.hexenhammer import data

View = Mapping[str, Any]


@dataclass(frozen=True)
class Modifier:
    """One part of a card's points: ``source`` is ``card`` (its value as played), ``reactions``
    (what reactions already added), ``accuser`` (the accuser's ability for this card kind),
    ``against`` (the accuser's ability against the villager hit), ``accused`` (the accused's
    ability for the reaction played) or ``shared`` (what a villager sharing the sorrow gets on
    top); ``villager`` is whose ability it is."""

    source: str
    points: int
    villager: str | None = None


@dataclass(frozen=True)
class Hit:
    """A villager whose suspicion the card moves: from ``before`` to ``after`` (held between
    the stake's floor and the top), by the sum of ``modifiers``."""

    villager: str
    before: int
    after: int
    modifiers: tuple[Modifier, ...]

    @property
    def points(self) -> int:
        return sum(m.points for m in self.modifiers)


@dataclass(frozen=True)
class Preview:
    """A card's effect: ``hits`` (suspicion moved) and what kind of effect it is — "" (a card
    on its target), ``counter`` (Gegenanklage: the card hits its accuser), ``mistaken``
    (Verwechslung: another villager), ``shared`` (Geteyltes Leyd: another villager too),
    ``cancel_call`` (Keyne Inquisition), ``cancel_trial`` (a trial's twin), ``retract``
    (Widerruf), ``trial`` (a trial on the current witch, ``witches``). ``kind`` is the card
    played now, ``played`` the card whose points count (the answered card, for a reaction)."""

    kind: str
    hits: tuple[Hit, ...] = ()
    effect: str = ""
    witches: tuple[str, ...] = field(default_factory=tuple)
    played: str = ""


def _villager(view: View, vid: Any) -> Mapping[str, Any]:
    for v in view.get("villagers") or []:
        if v.get("id") == vid:
            return v
    return {}


def _ability(view: View, vid: Any, name: str) -> Mapping[str, Any]:
    found = ((view.get("abilities") or {}).get(vid) or {}).get(name)
    return found if isinstance(found, Mapping) else {}


def _resolve(view: View, target: str, parts: list[Modifier],
             shares: list[tuple[str, Modifier]]) -> tuple[Hit, ...]:
    """The card's points (``parts``) on ``target``, then on each villager sharing the sorrow
    (with its extra), one after the other, each time held between the stake's floor and the
    top (a villager hit twice starts the second time where the first left it)."""
    now: dict[str, int] = {}
    hits = []
    for vid, modifiers in [(target, parts), *((v, [*parts, extra]) for v, extra in shares)]:
        v = _villager(view, vid)
        before = now.get(vid, int(v.get("suspicion", 0)))
        total = before + sum(m.points for m in modifiers)
        now[vid] = max(int(v.get("start", 0)), min(data.TOP, total))
        hits.append(Hit(vid, before, now[vid],
                        tuple(m for m in modifiers if m.points or m.source == "card")))
    return tuple(hits)


def _accuser_parts(view: View, kind: str, accuser: Any, target: str) -> list[Modifier]:
    """The accuser's abilities for a brown card of ``kind`` ending on ``target``."""
    if accuser is None:
        return []
    return [Modifier("accuser", int(_ability(view, accuser, "accuser_card_bonus").get(kind, 0)),
                     accuser),
            Modifier("against", int(_ability(view, accuser, "accuser_bonus").get(target, 0)),
                     accuser)]


def _card(view: View, cid: Any) -> Mapping[str, Any]:
    for card in view.get("hand") or []:
        if card.get("id") == cid:
            return card
    return {}


def preview(view: View, action: Mapping[str, Any]) -> Preview | None:
    """The effect of ``action`` (one of the seat's legal actions) as its view foresees it, if
    all other players let it pass; None for an action that plays no card (pass, a call, a
    discard, the inquisitor's choice)."""
    if action.get("type") != "play":
        return None
    card = _card(view, action.get("card"))
    kind = str(card.get("kind", ""))
    if not kind:
        return None
    # a trial (green) may be played at any time in phases 2 and 3, inside windows too
    if card.get("colour") == "green":
        target = action.get("target")
        if target is not None:  # no devil's mark: the villager named goes back to its floor
            v = _villager(view, target)
            before = int(v.get("suspicion", 0))
            return Preview(kind, (Hit(str(target), before, int(v.get("start", 0)), ()),),
                           effect="trial")
        return Preview(kind, effect="trial", witches=tuple(view.get("current_witches") or ()))
    window = view.get("window") or None
    if window:
        return _reaction(view, kind, action, window.get("trigger") or {})
    target = action.get("target")
    if not isinstance(target, str):
        return None
    value = int(card.get("value", 0)) * int(action.get("sign", 1))
    parts = [Modifier("card", value), *_accuser_parts(view, kind, action.get("accuser"), target)]
    return Preview(kind, _resolve(view, target, parts, []), played=kind)


def _reaction(view: View, kind: str, action: Mapping[str, Any],
              trigger: Mapping[str, Any]) -> Preview:
    """A ★ card (or a trial's twin) answering the open window's ``trigger``."""
    if trigger.get("type") == "call":
        return Preview(kind, effect="cancel_call")
    if trigger.get("type") == "trial":
        return Preview(kind, effect="cancel_trial")
    if kind == "widerruf":
        return Preview(kind, effect="retract")
    played, accuser = str(trigger.get("kind", "")), trigger.get("accuser")
    accused = str(trigger.get("target", ""))
    value, bonus = int(trigger.get("value", 0)), int(trigger.get("bonus", 0))
    extra = int(_ability(view, accused, "accused_card_bonus").get(kind, 0))
    # villagers already sharing the sorrow get the card's points too, each with its extra
    shares = [(str(vid), Modifier("shared", int(more)))
              for vid, more in zip(trigger.get("shares") or [], trigger.get("share_extras") or [],
                                   strict=False)]
    if kind == "geteyltes_leyd":  # the accused is hit as before; the other gets as much (+extra)
        parts = [Modifier("card", value), Modifier("reactions", bonus),
                 *_accuser_parts(view, played, accuser, accused)]
        shares.append((str(action.get("other")), Modifier("accused", extra, accused)))
        return Preview(kind, _resolve(view, accused, parts, shares), "shared", played=played)
    # Gegenanklage: the card hits its accuser; Verwechslung: the villager named
    target = str(accuser if kind == "gegenanklage" else action.get("other"))
    parts = [Modifier("card", value), Modifier("reactions", bonus),
             Modifier("accused", extra, accused), *_accuser_parts(view, played, accuser, target)]
    return Preview(kind, _resolve(view, target, parts, shares),
                   "counter" if kind == "gegenanklage" else "mistaken", played=played)
