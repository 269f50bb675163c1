"""Drawing the Hranice table from a seat's view: councils with influence and dominance tokens,
the pyre, the last roll and what the table waits for.

Card names and texts come from the game's catalog in the reader's language, printed numbers from
the deck table (``seeds/hranice.toml``, data only); everything that depends on the rules
(defence with its bonuses, influence, who is asked) is read from the view the host sent.
Nothing relies on colour alone: ``●``/``○`` are the dominance token's two sides, ``▶`` marks
the player on turn, ``(n)`` a raised defence.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from babel.lists import format_list
from rich.style import Style
from rich.table import Table
from rich.text import Text

from client import palette
from hexnet import i18n
from hexnet.games.hranice import cards
from hexnet.i18n import _, ngettext

GAME = "hranice"
PLAYER_CELLS = 9  # a player's name in the councils' Player column
Names = Callable[[int | None], str]
ROLL_KINDS = ("roll", "accusation", "cleansing")


def row(card: str) -> dict[str, Any]:
    """The deck-table row of a physical card or a kind (``"kovar-2"`` or ``"kovar"``)."""
    return cards.info(card)


def name(card: str) -> str:
    """The card's name in the reader's language (Czech as printed, in English too)."""
    return i18n.word(GAME, "card", card)


def hand_label(card: str) -> str:
    """How a card reads in your hand: ``Kovář 3``, ``Udání · action ×2``, ``★ Alibi``."""
    info = row(card)
    if info["type"] == "citizen":
        return f"{name(card)} {info['influence']}"
    if info["type"] == "action":
        cost = f" ×{info['cost']}" if info.get("cost", 1) > 1 else ""
        return f"{name(card)} · {i18n.word(GAME, 'card_type', 'action')}{cost}"
    return f"★ {name(card)}"


def card_text(card: str) -> str:
    """The card's full text for the side pane: name (with a gloss), kind, cost, rule text."""
    info = row(card)
    head = i18n.word(GAME, "card_long", card)
    kind = i18n.word(GAME, "card_type", info["type"])
    if info["type"] == "citizen":
        head += f", {kind} {info['influence']}"
    elif info["type"] == "action":
        head += ", " + ngettext("{kind}, costs {n} action", "{kind}, costs {n} actions",
                                info["cost"]).format(kind=kind, n=info["cost"])
    else:
        head = f"★ {head}, {kind}"
    return f"{head}: {i18n.word(GAME, 'card_text', card)}"


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
        if card in (view.get("pyre") or []):
            return _("{citizen} on the pyre").format(citizen=citizen(card, view))
        return citizen(card, view)
    if owner == view.get("seat"):
        return _("your {citizen}").format(citizen=citizen(card, view))
    return _("{name}'s {citizen}").format(name=names(owner), citizen=citizen(card, view))


def councils_table(view: dict[str, Any], names: Names) -> Table:
    """One row per player: turn marker, name, cards in hand, influence/target, token, council.

    Citizens taken from the pyre show as ``+3 Name`` (permanent influence) after the council.
    """
    table = Table(box=None, padding=(0, 1, 0, 0), expand=True, show_edge=False,
                  header_style="bold")
    table.add_column("", width=1, no_wrap=True)
    table.add_column(_("Player"), no_wrap=True, max_width=PLAYER_CELLS)
    table.add_column("✋", justify="right", no_wrap=True)
    table.add_column(_("Inf"), justify="right", no_wrap=True)
    table.add_column("●", no_wrap=True)
    table.add_column(_("Council (defence)"), ratio=1)
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
                      Text("●" if active else "○",
                           style=palette.style("token_on" if active else "token_off")),
                      cell)
    return table


def pyre_text(view: dict[str, Any]) -> Text:
    """``Pyre 2/3: Kovář 3 · Šlechtic 6 │ pile 24 · discards 5``."""
    pyre = view.get("pyre") or []
    out = Text()
    out.append(_("Pyre {n}/{max}: ").format(n=len(pyre), max=cards.rule("pyre_ignites_at")),
               style=Style(bold=True) + palette.style("pyre") if pyre else "bold")
    out.append(" · ".join(citizen(c, view) for c in pyre) or _("empty"),
               style=palette.style("pyre") if pyre else "dim")
    out.append(" │ " + _("pile {pile} · discards {discards}").format(
        pile=view.get("pile_size", "?"), discards=len(view.get("discard") or [])), style="dim")
    return out


def last_roll(view: dict[str, Any]) -> str:
    """The latest die event of the log (a roll, or its result with the whole sum), or ""."""
    for event in reversed(view.get("log") or []):
        if event.get("kind") in ROLL_KINDS and "die" in event:
            return i18n.render(GAME, event, view.get("players") or [])
    return ""


def reactions_for(event: str) -> str:
    """The names of the reactions that answer ``event`` ("Úplatek or Falešný svědek")."""
    found = [name(r["id"]) for r in cards.data()["reaction"] if r["event"] == event]
    return format_list(found, style="or", locale=i18n.language()) if found else ""


def trigger_text(view: dict[str, Any], window: dict[str, Any], names: Names,
                 reactions: bool = True) -> str:
    """What the open reaction window answers, from the host's trigger: ``Bela accuses your
    Kovář 3 — Alibi?`` (without the reactions' names if not ``reactions``)."""
    event = str(window.get("event", ""))
    you = window.get("actor") == view.get("seat")
    words = {"actor": names(window.get("actor")), "card": name(str(window.get("card"))),
             "die": window.get("die"), "total": window.get("total"),
             "needed": window.get("needed"), "sign": ">" if window.get("strict") else "≥"}
    target = window.get("target")
    if isinstance(target, str):
        words["target"] = whose(view, target, names)
    elif isinstance(window.get("player"), int):
        words["target"] = names(window["player"])
    if event == "action":
        if "target" in words:
            text = (_("You play {card} on {target}") if you
                    else _("{actor} plays {card} on {target}"))
        else:
            text = _("You play {card}") if you else _("{actor} plays {card}")
    elif event == "accused":
        text = _("You accuse {target}") if you else _("{actor} accuses {target}")
    elif event == "roll" and window.get("kind") == "accuse":
        text = (_("You rolled {die} accusing {target}: total {total}, needs {sign} {needed}")
                if you else
                _("{actor} rolled {die} accusing {target}: total {total}, needs {sign} "
                  "{needed}"))
    elif event == "roll":
        text = (_("You rolled {die} cleansing {target}: total {total}, needs {sign} {needed}")
                if you else
                _("{actor} rolled {die} cleansing {target}: total {total}, needs {sign} "
                  "{needed}"))
    elif event == "to_pyre":
        text = _("To the pyre: {target}")
    else:
        return event
    text = text.format(**words)
    return f"{text} — {reactions_for(event)}?" if reactions else text


def now_text(view: dict[str, Any], names: Names) -> str:
    """What the table waits for now, in a sentence (reaction window, Výslech, the flip)."""
    if view.get("outcome"):
        return _("The game is over.")
    window = view.get("window")
    if window:
        trigger = trigger_text(view, window, names)
        if window.get("asked") == view.get("seat"):
            return _("{trigger} Your answer (countdown ⏱ below).").format(trigger=trigger)
        return _("{trigger} Asking {who}.").format(trigger=trigger,
                                                   who=names(window.get("asked")))
    step = view.get("step") or {}
    peek = view.get("peek")
    vyslech = name("vyslech")
    if peek:
        hand = ", ".join(name(c) for c in hand_order(list(peek.get("hand") or [])))
        return _("{card}: {who} holds {cards}. Discard one.").format(
            card=vyslech, who=names(peek.get("player")), cards=hand)
    if step.get("stage") == "choose":
        return _("{card}: {who} looks at {whom}'s hand and discards a card.").format(
            card=vyslech, who=names(step.get("seat")), whom=names(step.get("player")))
    if step.get("stage") == "flip":
        return _("{who} may flip the dominance token.").format(who=names(step.get("seat")))
    left = int(view.get("actions_left", 0) or 0)
    if view.get("turn") == view.get("seat"):
        return ngettext("Your turn: {n} action left.", "Your turn: {n} actions left.",
                        left).format(n=left)
    return ngettext("{who}'s turn: {n} action left.", "{who}'s turn: {n} actions left.",
                    left).format(who=names(view.get("turn")), n=left)


def action_dots(left: int, total: int | None = None) -> str:
    """The two-action counter: ``●●`` both left, ``●○`` one left, ``○○`` none."""
    total = total or cards.rule("actions_per_turn")
    left = max(0, min(total, left))
    return "●" * left + "○" * (total - left)
