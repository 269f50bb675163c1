"""Drawing the Hexenhammer table from a seat's view: the villagers on their stakes with their
values, the trial card lying on one, each player's running score, and a card's foreseen effect.

Made for the left pane at 80×24 (50 columns): every column — villager, owner, the suspicion bar
to 18, the suspicion, the stake (⚖ when a trial card lies there), pentagrams/matches — keeps its
place however long the names are (names are cut with …, never a column dropped). Nothing relies
on colour alone (``NO_COLOR``): ◆, ⚖, †, ▒ █ · carry the meaning.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.table import Table
from rich.text import Text

from client.widgets.suspicion import CAP, suspicion_bar
from hexnet import i18n
from hexnet.games.hexenhammer.preview import Hit, Modifier, Preview
from hexnet.i18n import N_, _

GAME = "hexenhammer"
Name = Callable[[Any], str]
# rows of the table screen that are not the game area: status, prompt (up to 2), key bar
CHROME_ROWS = 4
# columns of the villagers' table with its 18-cell bar and the longest names (12 and 7)
BOARD_WIDTH = 49
OWNER_CELLS = 7  # a player's name in the villagers' Owner column and over the scores
# the parts of a running score, in the order the end counts them (results.py names them too)
PARTS = (("pentagrams", N_("pentagrams")), ("matches", N_("matches")),
         ("trials", N_("trials")), ("empty_stakes", N_("empty stakes")))


def bar_cells(width: int) -> int:
    """How wide the suspicion bar is drawn in a game area ``width`` columns wide: 18 cells as
    made for 80×24, 36 where the wide layout has the room, 9 on a phone held upright."""
    if width >= BOARD_WIDTH + CAP:
        return 2 * CAP
    return CAP if width >= BOARD_WIDTH else CAP // 2


def villager_table(view: dict[str, Any], short: Name, player: Name,
                   cells: int = CAP) -> Table:
    """One row per villager: ◆ (current witch) and name, owner, suspicion bar to 18 (▒ = the
    stake's floor; ``cells`` wide, left out with 0: the large-print layout), suspicion, the
    stake's start (⚖: a trial card lies on it), P/M."""
    bar = cells > 0
    table = Table(box=None, padding=(0, 1, 0, 0), expand=False, show_edge=False,
                  header_style="bold", pad_edge=False)
    table.add_column(_("Villager"), no_wrap=True, max_width=12, overflow="ellipsis")
    table.add_column(_("Owner"), no_wrap=True, max_width=OWNER_CELLS, overflow="ellipsis")
    if bar:
        table.add_column(_("Suspicion ▒stake"), no_wrap=True, min_width=cells, max_width=cells,
                         overflow="crop")
    table.add_column("" if bar else _("Su"), justify="right", no_wrap=True, min_width=2)
    table.add_column(_("St"), no_wrap=True, min_width=2, max_width=2)
    table.add_column(_("P/M"), no_wrap=True, min_width=3, max_width=3, overflow="crop")
    witches = set(view.get("current_witches") or [])
    for v in view.get("villagers") or []:
        vid = v.get("id")
        mine = v.get("owner") == view.get("seat")
        name = Text(("◆" if vid in witches else " ") + short(vid), style="bold" if mine else "")
        stake = str(v.get("start", ""))
        if v.get("trial_card"):
            stake += "⚖"
        values = f"{v.get('pentagrams', '?')}/{v.get('matches', '?')}"
        if v.get("alive", True):
            track = suspicion_bar(int(v.get("suspicion", 0)), int(v.get("start", 0)),
                                  cells=cells or None)
            value = str(v.get("suspicion", 0))
        else:
            track, value, stake = Text(fate(view, vid, player), style="dim"), "", ""
            if not bar:  # no room for the fate: † in the suspicion's column
                value = "†"
        row = [name, Text(player(v.get("owner"))), track, value, stake, values]
        table.add_row(*(row if bar else row[:2] + row[3:]))
    return table


def fate(view: dict[str, Any], vid: Any, player: Name) -> str:
    """What became of a villager no longer alive."""
    for seat, taken in enumerate(view.get("taken") or []):
        if vid in taken:
            return _("† taken by {who}").format(who=player(seat))
    return _("† burned, ⊔ empty")


def trial_line(view: dict[str, Any], short: Name) -> str:
    """``⚖ on Bertram: no brown cards in phases 1 and 2`` (the heavier-scales card lies on
    him) — or "" when no trial card lies on a villager. One line at 50 columns."""
    for v in view.get("villagers") or []:
        if v.get("trial_card") and v.get("alive", True):
            return _("⚖ on {villager}: no brown cards in phases 1 and 2").format(
                villager=short(v.get("id")))
    return ""


def score_table(view: dict[str, Any], player: Name, room: int) -> Table:
    """Each player (a column): cards in hand and the score so far; when ``room`` (rows) allows,
    the score's parts too. The draw pile's size heads the first column."""
    players = list(view.get("players") or [])
    scores = list(view.get("scores") or [])
    sizes = view.get("hand_sizes") or []
    parts = room >= 3 + len(PARTS)
    table = Table(box=None, padding=(0, 1, 0, 0), expand=False, show_edge=False,
                  pad_edge=False, header_style="bold")
    pile = view.get("draw_pile")
    table.add_column(_("deck {n}").format(n=pile) if pile is not None else "", no_wrap=True,
                     max_width=13, overflow="ellipsis", style="dim")
    for seat in range(len(players)):
        table.add_column(Text(player(seat), style="bold reverse" if seat == view.get("seat")
                              else "bold"),
                         justify="right", no_wrap=True, max_width=OWNER_CELLS,
                         overflow="ellipsis")
    table.add_row(_("cards"), *[str(sizes[s]) if s < len(sizes) else "" for s in
                                range(len(players))])
    if parts:
        for key, label in PARTS:
            table.add_row(_(label), *[str((scores[s] if s < len(scores) else {}).get(key, 0))
                                      for s in range(len(players))])
    table.add_row(Text(_("score"), style="bold"),
                  *[Text(str((scores[s] if s < len(scores) else {}).get("total", "")),
                         style="bold") for s in range(len(players))])
    return table


def modifier_text(m: Modifier, short: Name, card: str) -> str:
    """``Falsches Zeugnis +3``, ``Bertram (accuser) +1``, ``reactions +1``…"""
    points = f"{m.points:+d}"
    if m.source == "card":
        return f"{card} {points}"
    if m.source == "reactions":
        return _("earlier reactions {points}").format(points=points)
    if m.source == "accuser":
        return _("{villager} accusing with it {points}").format(villager=short(m.villager),
                                                               points=points)
    if m.source == "against":
        return _("{villager} against this one {points}").format(villager=short(m.villager),
                                                               points=points)
    if m.source == "accused":
        return _("{villager} as the accused {points}").format(villager=short(m.villager),
                                                             points=points)
    return _("shared sorrow's extra {points}").format(points=points)


def hit_text(hit: Hit, short: Name, owner: Name, card: str) -> str:
    """``Maria (Bela): 5 → 9 = Falsches Zeugnis +3 + Bertram accusing with it +1``."""
    sums = " + ".join(modifier_text(m, short, card) for m in hit.modifiers)
    text = _("{villager} ({owner}): {before} → {after}").format(
        villager=short(hit.villager), owner=owner(hit.villager), before=hit.before,
        after=hit.after)
    held = hit.before + hit.points
    if held != hit.after:
        text += " " + (_("(top of 18)") if held > hit.after else _("(its stake's floor)"))
    return f"{text}\n  = {sums} = {hit.points:+d}" if sums else text


def preview_lines(foreseen: Preview, short: Name, owner: Name, card_text: str) -> list[str]:
    """What a card will do, in lines, if everyone lets it pass."""
    if foreseen.effect == "cancel_call":
        return [_("The call of the Inquisition is cancelled; phase 1 goes on with your turn.")]
    if foreseen.effect == "cancel_trial":
        return [_("Both trial cards go to the discard pile: the trial has no effect.")]
    if foreseen.effect == "retract":
        return [_("The Geständnis has no effect.")]
    if foreseen.effect == "trial" and not foreseen.hits:
        witches = ", ".join(f"{short(w)} ({owner(w)})" for w in foreseen.witches)
        return [_("On the current witch: {witches}.").format(witches=witches or "—"),
                card_text]
    card = i18n.word(GAME, "card", foreseen.played or foreseen.kind)
    lines = [hit_text(hit, short, owner, card) for hit in foreseen.hits]
    if foreseen.effect == "counter":
        lines.insert(0, _("{card} hits its accuser instead:").format(card=card))
    elif foreseen.effect == "mistaken":
        lines.insert(0, _("{card} hits another villager instead:").format(card=card))
    elif foreseen.effect == "shared":
        lines.insert(0, _("The other villager gets as much as the accused:"))
    return [*lines, _("(unless someone reacts)")]
