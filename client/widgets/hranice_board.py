"""Drawing the Hranice table from a seat's view: councils with influence and dominance tokens,
the pyre, the last roll and what the table waits for.

Card names, texts and printed numbers come from the deck table (``seeds/hranice.toml``, data
only); everything that depends on the rules (defence with its bonuses, influence, who is asked)
is read from the view the host sent. Nothing relies on colour alone: ``●``/``○`` are the
dominance token's two sides, ``▶`` marks the player on turn, ``(n)`` a raised defence.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.table import Table
from rich.text import Text

from hexnet.games.hranice import cards

Names = Callable[[int | None], str]
ROLL_KINDS = ("roll", "accusation", "cleansing")


def row(card: str) -> dict[str, Any]:
    """The deck-table row of a physical card or a kind (``"kovar-2"`` or ``"kovar"``)."""
    return cards.info(card)


def name(card: str) -> str:
    """The printed (Czech) name."""
    return str(row(card)["name"])


def hand_label(card: str) -> str:
    """How a card reads in your hand: ``Kovář 3``, ``Udání · action ×2``, ``★ Alibi``."""
    info = row(card)
    if info["type"] == "citizen":
        return f"{info['name']} {info['influence']}"
    if info["type"] == "action":
        cost = f" ×{info['cost']}" if info.get("cost", 1) > 1 else ""
        return f"{info['name']} · action{cost}"
    return f"★ {info['name']}"


def card_text(card: str) -> str:
    """The card's full text for the side pane: name (English), kind, cost, rule text."""
    info = row(card)
    english = f" ({info['english']})" if info["english"] != info["name"].lower() else ""
    head = f"{info['name']}{english}"
    if info["type"] == "citizen":
        head += f", citizen {info['influence']}"
    elif info["type"] == "action":
        head += f", action, costs {info['cost']}"
    else:
        head = "★ " + head + ", reaction"
    text = str(info.get("text") or "")
    return f"{head}: {text}" if text else head + "."


def hand_order(hand: list[str]) -> list[str]:
    """Citizens (by influence), then actions, then reactions; ties by name."""
    types = {t: i for i, t in enumerate(cards.TYPES)}
    return sorted(hand, key=lambda c: (types[row(c)["type"]], row(c).get("influence", 0),
                                       name(c), c))


def citizen(card: str, view: dict[str, Any]) -> str:
    """``Kovář 3``; with a defence raised above the printed number: ``Rolník 2(3)``."""
    printed = cards.influence(card)
    defence = (view.get("defence") or {}).get(card)
    raised = f"({defence})" if isinstance(defence, int) and defence != printed else ""
    return f"{name(card)} {printed}{raised}"


def owner_of(view: dict[str, Any], card: Any) -> int | None:
    """The seat whose council (in the view) holds ``card``."""
    for seat, council in enumerate(view.get("councils") or []):
        if card in council:
            return seat
    return None


def whose(view: dict[str, Any], card: Any, names: Names) -> str:
    """``Bela's Kovář 3(4)``, ``your Kovář 3`` or ``Kovář 3 on the pyre``."""
    if not isinstance(card, str):
        return "?"
    owner = owner_of(view, card)
    if owner is None:
        where = " on the pyre" if card in (view.get("pyre") or []) else ""
        return f"{citizen(card, view)}{where}"
    who = names(owner)
    return f"{'your' if who == 'you' else who + chr(39) + 's'} {citizen(card, view)}"


def councils_table(view: dict[str, Any], names: Names) -> Table:
    """One row per player: turn marker, name, cards in hand, influence/target, token, council.

    Citizens taken from the pyre show as ``+3 Name`` (permanent influence) after the council.
    """
    table = Table(box=None, padding=(0, 1, 0, 0), expand=True, show_edge=False,
                  header_style="bold")
    table.add_column("", width=1, no_wrap=True)
    table.add_column("Player", no_wrap=True, max_width=9)
    table.add_column("✋", justify="right", no_wrap=True)
    table.add_column("Inf", justify="right", no_wrap=True)
    table.add_column("●", no_wrap=True)
    table.add_column("Council (defence)", ratio=1)
    target = view.get("target", "?")
    sizes = view.get("hand_sizes") or []
    influence = view.get("influence") or []
    tokens = view.get("tokens") or []
    burned = view.get("burned") or []
    me = view.get("seat")
    points = cards.rule("ignite_points")
    for seat, council in enumerate(view.get("councils") or []):
        style = "bold" if seat == me else ""
        mark = "▶" if seat == view.get("turn") and not view.get("outcome") else ""
        inf = influence[seat] if seat < len(influence) else 0
        active = seat < len(tokens) and tokens[seat]
        taken = burned[seat] if seat < len(burned) else []
        cell = Text(", ".join(citizen(c, view) for c in council) or ("" if taken else "—"),
                    style="" if council else "dim")
        for c in taken:
            cell.append(f"{' ' if cell.plain else ''}+{points} {name(c)}", style="italic")
        table.add_row(mark, Text(names(seat), style=style),
                      str(sizes[seat]) if seat < len(sizes) else "",
                      Text(f"{inf}/{target}", style="bold" if inf >= target else ""),
                      Text("●" if active else "○", style="bold green" if active else "dim"),
                      cell)
    return table


def pyre_text(view: dict[str, Any]) -> Text:
    """``Pyre 2/3: Kovář 3 · Šlechtic 6 │ pile 24 · discards 5``."""
    pyre = view.get("pyre") or []
    out = Text(f"Pyre {len(pyre)}/{cards.rule('pyre_ignites_at')}: ", style="bold")
    out.append(" · ".join(citizen(c, view) for c in pyre) or "empty",
               style="red" if pyre else "dim")
    out.append(f" │ pile {view.get('pile_size', '?')} · discards "
               f"{len(view.get('discard') or [])}", style="dim")
    return out


def last_roll(view: dict[str, Any]) -> str:
    """The latest die event of the log (a roll, or its result with the whole sum), or ""."""
    for event in reversed(view.get("log") or []):
        if event.get("kind") in ROLL_KINDS and "die" in event:
            return str(event.get("text", ""))
    return ""


def reactions_for(event: str) -> str:
    """The names of the reactions that answer ``event`` (from the deck table)."""
    return " or ".join(r["name"] for r in cards.data()["reaction"] if r["event"] == event)


def trigger_text(view: dict[str, Any], window: dict[str, Any], names: Names,
                 reactions: bool = True) -> str:
    """What the open reaction window answers, from the host's trigger: ``Bela accuses your
    Kovář 3 — Alibi?`` (without the reactions' names if not ``reactions``)."""
    event = str(window.get("event", ""))
    actor = names(window.get("actor"))
    s = "s"
    if actor == "you":
        actor, s = "You", ""
    target = window.get("target")
    if event == "action":
        on = ""
        if isinstance(target, str):
            on = " on " + whose(view, target, names)
        elif isinstance(window.get("player"), int):
            on = " on " + names(window["player"])
        text = f"{actor} play{s} {name(str(window.get('card')))}{on}"
    elif event == "accused":
        text = f"{actor} accuse{s} {whose(view, target, names)}"
    elif event == "roll":
        doing = "accusing" if window.get("kind") == "accuse" else "cleansing"
        sign = ">" if window.get("strict") else "≥"
        text = (f"{actor} rolled {window.get('die')} {doing} {whose(view, target, names)}: "
                f"total {window.get('total')}, needs {sign} {window.get('needed')}")
    elif event == "to_pyre":
        text = f"To the pyre: {whose(view, target, names)}"
    else:
        text = event
    return f"{text} — {reactions_for(event)}?" if reactions else text


def now_text(view: dict[str, Any], names: Names) -> str:
    """What the table waits for now, in a sentence (reaction window, Výslech, the flip)."""
    if view.get("outcome"):
        return "The game is over."
    window = view.get("window")
    if window:
        asked = names(window.get("asked"))
        if asked == "you":
            return f"{trigger_text(view, window, names)} Your answer (countdown top right)."
        return f"{trigger_text(view, window, names)} Asking {asked}."
    step = view.get("step") or {}
    peek = view.get("peek")
    if peek:
        hand = ", ".join(name(c) for c in hand_order(list(peek.get("hand") or [])))
        return f"Výslech: {names(peek.get('player'))} holds {hand}. Discard one."
    if step.get("stage") == "choose":
        return (f"{names(step.get('seat'))} looks at {names(step.get('player'))}'s hand "
                "(Výslech) and discards a card.")
    if step.get("stage") == "flip":
        return f"{names(step.get('seat'))} may flip the dominance token."
    left = view.get("actions_left", 0)
    who = names(view.get("turn"))
    whose_turn = "Your turn" if who == "you" else f"{who}'s turn"
    return f"{whose_turn}: {left} action{'s' if left != 1 else ''} left."


def action_dots(left: int, total: int | None = None) -> str:
    """The two-action counter: ``●●`` both left, ``●○`` one left, ``○○`` none."""
    total = total or cards.rule("actions_per_turn")
    left = max(0, min(total, left))
    return "●" * left + "○" * (total - left)
