"""A table's options in the reader's words: the lobby's game cell, the pace picker and the fair
play line on the results screens (``normal pace``, ``reaction window 8 s``).

The option names are the games' data (``seeds/<game>.toml``), their words live here, one
template each in the interface catalog (so each language places the value where it belongs). A
table created at a pace shows the pace alone: the timings it sets are part of it. An option this
client has no words for (a newer host's) shows as ``name value``, never hidden.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hexnet.i18n import N_, _, ngettext, word

OPTIONS = {
    "pace": N_("{value} pace"),
    "reaction_seconds": N_("reaction window {value} s"),
    "panic_seconds": N_("panic phase {value} s"),
    "time_limits": N_("time limits: {value}"),
    "pick_seconds": N_("place pick {value} s"),
    "witches_seconds": N_("witches' window {value} s"),
    "talk_seconds": N_("evening talk {value} s"),
    "proposal_seconds": N_("proposal {value} s"),
    "proposal_vote_seconds": N_("vote on the proposal {value} s"),
    "vote_seconds": N_("night vote {value} s"),
    "pause_seconds": N_("pause {value} s"),
    "deal": N_("{value} role table"),
    "variant": N_("variant {value}"),
    "variant_step": N_("variant step {value}"),
    "manual_flip": N_("manual flip: {value}"),
    "ask_holders_only": N_("only holders asked to react: {value}"),
    "watch": N_("watching: {value}"),
    "turn_seconds": N_("each decision {value} s"),
}
# the options whose 0 means no clock at all (not "0 s")
UNTIMED = {"reaction_seconds": N_("reaction window untimed"),
           "turn_seconds": N_("decisions untimed")}
COUNTED = ("max_changes", "turn_cap", "watch_delay")
VALUES = {
    True: N_("on"), False: N_("off"),
    "relaxed": N_("relaxed"), "normal": N_("normal"), "quick": N_("quick"),
    "standard": N_("standard"), "balanced": N_("balanced"),
}


def counted(name: str, n: int) -> str:
    """The template of a counted option, in the language's plural form for ``n``."""
    if name == "max_changes":
        return ngettext("at most {value} change of place", "at most {value} changes of place", n)
    if name == "turn_cap":
        return ngettext("at most {value} turn", "at most {value} turns", n)
    return ngettext("watchers {value} action behind", "watchers {value} actions behind", n)


def value_text(game: str | None, name: str, value: Any) -> str:
    """One option's value: on/off, a pace or role table by its word, Hranice's variant from the
    game's catalog, a number as written (``8``, not ``8.0``)."""
    if isinstance(value, bool):
        return _(VALUES[value])
    if isinstance(value, float):
        return f"{value:g}"
    if name == "variant" and game:
        return word(game, "variant", value)
    if isinstance(value, str) and value in VALUES:
        return _(VALUES[value])
    return str(value)


def implied_by_pace(game: str | None, options: Mapping[str, Any]) -> set[str]:
    """The options the table's pace set (they go without saying once the pace is shown)."""
    pace = options.get("pace")
    if not (game and isinstance(pace, str)):
        return set()
    try:
        from hexnet.games import get_game
        from hexnet.options import paces

        timing = paces(get_game(game)).get(pace, {})
    except (KeyError, ImportError):
        return set()
    return {k for k, v in timing.items() if k in options and options[k] == v}


def options_text(game: str | None, options: Mapping[str, Any], timings: bool = False) -> str:
    """``normal pace``, ``relaxed pace, watchers 3 actions behind`` … (empty if none);
    ``timings``: with the seconds the pace set too (the lobby shows them before anyone sits:
    ``quick pace, panic phase 30 s, reaction window 5 s``)."""
    skip = set() if timings else implied_by_pace(game, options)
    parts = []
    for name, value in sorted(options.items(), key=lambda kv: (kv[0] != "pace", kv[0])):
        if name in skip or isinstance(value, dict | list):
            continue
        template = OPTIONS.get(name)
        shown = value_text(game, name, value)
        if name in UNTIMED and not isinstance(value, bool) and value == 0:
            parts.append(_(UNTIMED[name]))
        elif isinstance(value, int) and not isinstance(value, bool) and name in COUNTED:
            parts.append(counted(name, value).format(value=shown))
        else:
            parts.append(_(template).format(value=shown) if template else f"{name} {shown}")
    return ", ".join(parts)
