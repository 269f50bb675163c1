"""The party's requests from any screen at a table (issue 26): an emote, the bots held or slowed,
a rematch answered. Each asks what it needs in a small list (a tap or a key) and sends it; the
host decides (:mod:`host.emotes`, :mod:`host.pause`, :mod:`host.rematch`)."""

from __future__ import annotations

from typing import Any

from client.screens.dialog import answer
from client.screens.picker import Picker
from client.words.party import bots_choices, emote_choices
from hexnet.i18n import _


def secret_step_note(app: Any) -> None:
    """Say why no emote goes now."""
    app.notify(_("Not now: a secret step is open, and the moment of an emote could tell who "
                 "is awake."), title=_("Not possible"), severity="warning", markup=False)


async def react(app: Any, table: int) -> None:
    """Pick an emote and show it at ``table`` — never while a secret step is open there (this
    client then sends only the step's own frames)."""
    if app.secret_step_open(table):
        secret_step_note(app)
        return
    key = await answer(app, Picker(_("React — everyone at the table sees it beside "
                                              "your name"), emote_choices(), side=True))
    if key is None:
        return
    if app.secret_step_open(table):  # a step opened while the list was up
        secret_step_note(app)
        return
    await app.send({"type": "emote", "table": table, "emote": key})


async def control_bots(app: Any, table: int, bots: Any) -> None:
    """(The table's owner) Pause the host's bots — and the clock — or let them play on, or set
    their pace."""
    picked = await answer(app, Picker(_("The bots at this table"), bots_choices(bots),
                                               side=True))
    if picked is not None:
        paused, delay = picked
        await app.send({"type": "bots", "table": table, "paused": paused, "delay": delay})


async def answer_rematch(app: Any, table: int, answer: str) -> None:
    """Say ``yes`` (offering it, if nobody has), ``no`` or (the owner) ``bots`` to a rematch."""
    await app.send({"type": "rematch", "table": table, "answer": answer})
