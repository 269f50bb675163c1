"""The club on the client (issue 28): players' profiles and finished games' replays, asked of
the host.

``p`` in the lobby (on the highlighted table) or on a results screen lists the players there —
you first — with their rating in that table's game (:func:`choices`); the one picked is asked
for with ``profile {player}`` and the host's answer opens the
:class:`~client.screens.profile.ProfileScreen`. Enter on one of its recent games asks
``replay {commitment}``; once every part is in (:class:`Replays`) the game is replayed and
checked like a table's reveal — against the commitment the profile named and the outcome the
host sent — and opens all-seeing in the replay viewer, or a notification says why not.

The players' handles come from the lobby's seat entries (``player``); a table's are kept
(:meth:`Seats.remember`) so a results screen still knows them once its table has left the
lobby.
"""

from __future__ import annotations

import hashlib
from typing import Any

from hexnet.i18n import _

HANDLE = 16  # hex digits of a fingerprint that name a person (as the host names them)
MAX_PARTS = 1 << 12
KEEP_TABLES = 200  # tables whose seats are remembered after they left the lobby


def my_handle(identity: bytes) -> str:
    """The handle the host knows this client's player by."""
    return hashlib.sha256(identity).hexdigest()[:HANDLE]


def rating_words(rating: dict[str, Any] | None) -> str:
    """``27.3 ± 4.1`` — or that the player has no rating in that game yet."""
    if not rating:
        return _("not rated yet")
    return f"{rating['mu']:.1f} ± {rating['sigma']:.1f}"


class Seats:
    """The seats (name, player handle, rating) of the tables the lobby showed."""

    def __init__(self) -> None:
        self.tables: dict[int, list[dict[str, Any]]] = {}

    def remember(self, lobby: dict[str, Any]) -> None:
        """Keep each listed table's seats (the oldest forgotten past :data:`KEEP_TABLES`)."""
        for table in lobby.get("tables") or []:
            seats = [s for s in table.get("seats") or [] if s.get("player")]
            if seats:
                self.tables.pop(table["id"], None)
                self.tables[table["id"]] = seats
        while len(self.tables) > KEEP_TABLES:
            del self.tables[next(iter(self.tables))]

    def of(self, table: int | None) -> list[dict[str, Any]]:
        return list(self.tables.get(table, [])) if table is not None else []


def choices(seats: list[dict[str, Any]], me: str, my_name: str) -> list[tuple[str, str]]:
    """The picker's entries: you, then each other player at the table, with their rating."""
    out = [(_("You ({name})").format(name=my_name), me)]
    for seat in seats:
        if any(value == seat["player"] for _label, value in out):
            continue
        out.append((f"{seat.get('name') or seat['player']} — {rating_words(seat.get('rating'))}",
                    seat["player"]))
    return out


class Replays:
    """``replay`` parts as they arrive, per commitment; the complete replay once all are in."""

    def __init__(self) -> None:
        self.parts: dict[str, list[dict[str, Any]]] = {}
        self.asked: set[str] = set()

    def ask(self, commitment: str) -> None:
        self.asked.add(commitment)
        self.parts.pop(commitment, None)

    def add(self, msg: dict[str, Any]) -> list[dict[str, Any]] | None:
        """Keep one part (of a replay this client asked for); all of them once complete."""
        commitment = msg["commitment"]
        if commitment not in self.asked:
            return None
        parts = self.parts.setdefault(commitment, [])
        if len(parts) < MAX_PARTS:
            parts.append(msg)
        if len(parts) < msg["parts"]:
            return None
        self.asked.discard(commitment)
        return sorted(self.parts.pop(commitment), key=lambda p: p["part"])


def open_replay(app: Any, parts: list[dict[str, Any]]) -> bool:
    """Check a finished game's replay (its commitment, every step, the outcome) and open it
    all-seeing; False (and a notification saying why) if it does not check out."""
    from client.fairplay import verdict_lines, verify_reveal
    from client.replay.screen import replay_screen
    from hexnet.record import Record, RecordError
    from hexnet.replay import ALL, Replay

    outcome = parts[0].get("outcome") or None
    verdict = verify_reveal(parts[0]["commitment"], parts, outcome)
    if not verdict.ok:
        lines = verdict_lines(verdict)
        app.notify(_("The host's replay of that game failed the check: {why}").format(
            why=lines[-1] if lines else "?"), severity="error", markup=False)
        return False
    try:
        replay = Replay(Record.from_reveal(parts, outcome), ALL)
    except (RecordError, ValueError) as exc:
        app.notify(str(exc), severity="error", markup=False)
        return False
    app.push_screen(replay_screen(replay, _("Checked ✓ — the game as the host recorded it")))
    return True


async def pick_profile(app: Any, table: int | None) -> None:
    """(In a worker) Ask which player's profile to show — you, or a player at ``table`` —
    and ask the host for it."""
    from client.screens.dialog import answer
    from client.screens.picker import Picker

    session = getattr(app, "session", None)
    if session is None:
        app.notify(_("Not connected."), severity="warning")
        return
    me = my_handle(session.identity)
    entries = choices(app.club_seats.of(table), me, getattr(app, "player_name", "") or "?")
    player = entries[0][1] if len(entries) == 1 else await answer(
        app, Picker(_("Whose profile?"), entries))
    if player is not None:
        await app.send({"type": "profile", "player": player})


async def ask_replay(app: Any, commitment: str) -> None:
    """Ask the host for a finished game's replay (it opens once every part is in)."""
    if getattr(app, "session", None) is None:
        app.notify(_("Not connected."), severity="warning")
        return
    app.replays.ask(commitment)
    app.notify(_("Asking the host for that game's replay…"))
    await app.send({"type": "replay", "commitment": commitment})
