"""Why the host refused, in the reader's language: its refusal and error codes in words, the
engine's reasons (data) rendered from the game's catalog, and "too late" for an answer that
came after its question closed. Every front end (the table screens, the plain mode) says them
the same way."""

from __future__ import annotations

from typing import Any

from hexnet import i18n
from hexnet.i18n import N_, _

# Refusals of an answer that came after its question closed (the host's ``stale``; a
# dedicated "too late" code where the host has one): said as "too late", not as a rules error.
TOO_LATE_CODES = frozenset({"stale", "too_late", "late"})
# What the host's refusals and errors say, by code, where the words need nothing only the host
# knows (otherwise its own — English — sentence is shown).
CODE_WORDS = {
    "stale": N_("Too late: the game moved on before your answer arrived (the window had "
                "closed or the question changed). Look again and choose anew."),
    "not_playing": N_("This table is not playing."),
    "not_seated": N_("You have no seat at that table."),
    "empty": N_("That message was empty."),
    "no_channel": N_("You may not speak on that channel."),
    "table_full": N_("That table has no empty seat."),
    "seat_taken": N_("That seat is taken."),
    "not_open": N_("That table has already started."),
    "seats_empty": N_("Every seat needs a player or a bot before the start."),
    "too_many_tables": N_("No more tables now: you, your address or this host already have as "
                          "many as allowed. Sit at one, or try again later."),
    "too_often": N_("You do that too often; wait a moment and try again."),
    "too_many_identities": N_("Too many new players came from your address within the hour; "
                              "try again later."),
    "table_expired": N_("Your table was closed: nobody else sat down there in time."),
    "too_many_entrants": N_("Your address has entered as many players as the organiser "
                            "allows."),
    "playing": N_("You are playing at another table; leave it first."),
    "no_table": N_("There is no such table."),
    "journal_failed": N_("The host could not write this table's journal, so it stopped the "
                         "table."),
    "no_watching": N_("That table may not be watched."),
    "not_creator": N_("Only the table's creator or the host may set who watches it."),
    "registration_closed": N_("The tournament has started; registration is closed."),
    "event_full": N_("The tournament has as many entrants as it can take."),
    "rate_limited": N_("Too many messages; slow down."),
    "idle": N_("No message for too long."),
    "too_many_watchers": N_("That table has as many watchers as it can take."),
    "name_taken": N_("No free variant of that name is left."),
    "unknown_game": N_("This host does not have that game."),
    "bad_seats": N_("That game cannot be played with that many seats."),
    "no_seat": N_("There is no player in that seat."),
    "host_only": N_("Only the host may do that."),
    "no_option": N_("This table has no such setting."),
    "internal": N_("The host failed on that request; it was not carried out."),
    "too_fast": N_("You change what you watch too often; wait a second and try again."),
    "chat_too_fast": N_("You are writing faster than the others can read; wait a moment."),
    # the party (host/emotes.py, host/pause.py, host/rematch.py)
    "emote_too_fast": N_("One emote at a time; wait a moment."),
    "asks_too_fast": N_("Too many requests at once; wait a moment."),
    "secret_step": N_("Not now: a secret step is open, and the moment of an emote could tell "
                      "who is awake."),
    "no_emote": N_("There is no such emote."),
    "not_started": N_("Emotes are for a table in play or just over."),
    "not_owner": N_("Only the table's creator (or the host) may do that."),
    "tournament": N_("Not at a tournament's table: the tournament keeps its own pace and "
                     "seats its own rounds."),
    "not_over": N_("That table's game is not over yet."),
    "no_rematch": N_("Nobody has offered a rematch of that table."),
    "rematch_started": N_("That rematch is already under way."),
    "seated": N_("You sit at another table; leave it first."),
    "no_profile": N_("This host has no ratings of that player."),
    "no_replay": N_("The host has no replay of that game."),
    "not_public": N_("That table could not be watched; only its players may replay it."),
    "ask_busy": N_("One profile or replay at a time: the last one is on its way."),
    "ask_too_fast": N_("Too many profiles or replays asked for; wait a second."),
}
# refusals whose host sentence carries what matters (an option's bounds, a bot policy's error)
# or that only a broken client meets (the handshake's): shown as the host words them — the
# room code's refusals (bad_code, code_required, busy) in the client's words by
# client.errors.code_refusal, with the wait the host named
HOST_WORDED = ("bad_options", "bad_policy", "unexpected", "version", "bad_signature",
               "code_required", "bad_code", "busy", "bad_delay", "too_soon", "bad_answer")


def code_text(code: str, message: str) -> str:
    """A refusal or error the host sent as ``code`` (with its own English ``message``): the
    words this client has for the code, else the host's sentence."""
    return _(CODE_WORDS[code]) if code in CODE_WORDS else message


def rejection_text(view: dict[str, Any], code: str, message: str,
                   reason: dict[str, Any] | None) -> str:
    """Why the host refused an action at the table whose latest view is ``view``: the
    engine's reason as data (``{"key": …, **args}``) in the reader's language; an answer that
    came after its question closed is "too late", whatever the host adds."""
    if code in TOO_LATE_CODES:
        return _(CODE_WORDS["stale"])
    if reason is None:
        return code_text(code, message)
    text = i18n.render_reason(str(view.get("game") or "") or None, reason,
                              view.get("players") or [])
    return message if text == i18n.MISSING.format(reason.get("key")) else text
