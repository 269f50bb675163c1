"""Narrowing a seat's legal actions down to one, field by field — the order every front end
asks in (the table screens' pickers, the plain mode's numbered lists).

Nothing here decides what is legal: it only filters the actions the host sent. A field is asked
when its values still differ among the candidates, or when the game wants it confirmed even
with one value (``confirm``: the choice is shown and confirmed, never made silently).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from hexnet.i18n import N_, _

Action = dict[str, Any]
Select = Callable[[Action], bool]
MISSING = object()  # a field an action does not carry
# The order in which a multi-field action is narrowed down, then any other fields alphabetically.
FIELD_ORDER = ["type", "card", "accuser", "target", "sign", "other", "villager", "seat"]
FIELD_TITLES = {
    "type": N_("What do you want to do?"),
    "card": N_("Which card?"),
    "accuser": N_("Who accuses?"),
    "target": N_("Whom?"),
    "sign": N_("Raise or lower?"),
    "other": N_("Which other villager?"),
    "villager": N_("Which villager?"),
    "seat": N_("Which player?"),
}


def same(a: Any, b: Any) -> bool:
    """Equal and of one type (``1`` is not ``True``)."""
    return type(a) is type(b) and a == b


def distinct(values: list[Any]) -> list[Any]:
    """``values`` without repeats (by :func:`same`), in their order."""
    out: list[Any] = []
    for v in values:
        if not any(same(v, seen) for seen in out):
            out.append(v)
    return out


def fields(actions: list[Action]) -> list[str]:
    """Every field the actions carry, in the order they are asked."""
    keys = {k for a in actions for k in a}
    return [k for k in FIELD_ORDER if k in keys] + sorted(keys - set(FIELD_ORDER))


def field_title(key: str) -> str:
    """The question that asks for ``key``, in the reader's language."""
    return _(FIELD_TITLES[key]) if key in FIELD_TITLES else _("Which {field}?").format(field=key)


def matching(legal: list[Action], select: Select, fixed: dict[str, Any]) -> list[Action]:
    """The actions of ``legal`` that ``select`` accepts and that carry every ``fixed`` value."""
    return [a for a in legal if select(a) and all(
        same(a.get(k, MISSING), v) for k, v in fixed.items())]


def next_question(candidates: list[Action], fixed: dict[str, Any],
                  confirm: Collection[str] = ()) -> str | None:
    """The field to ask about next: the first that still differs, else a field of ``confirm``
    not yet asked (shown with its one value), else None."""
    for key in fields(candidates):
        if len(distinct([a.get(key, MISSING) for a in candidates])) > 1 or (
                key in confirm and key not in fixed):
            return key
    return None


def values(candidates: list[Action], key: str) -> list[Any]:
    """The values ``key`` takes among ``candidates``, each once, in their order."""
    return distinct([a.get(key, MISSING) for a in candidates])


def selector(candidates: list[Action]) -> Select:
    """Accepts the actions among ``candidates`` (by value, so a new view's equal actions are
    still accepted)."""
    return lambda action: action in candidates
