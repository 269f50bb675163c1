"""The client's check of a table's randomness: the commitment it saw against the reveal.

Every ``view`` of a started table carries the host's commitment (to seed, salt and options);
:class:`client.session.Session` keeps the FIRST one it saw per table. When the game is over the
host sends ``reveal`` parts (seed, salt, options, every step); once all are in,
:func:`verify_reveal` replays the game with :func:`hexnet.fairness.verify_game` and checks that
the revealed seed matches the commitment shown at the start, that every step replays with the
public events the host recorded, and that the replay ends with the outcome this seat's last view
showed. The verdict lands in ``session.fair_play[table]`` and the reveal in
``session.revealed[table]`` (the results screen's "replay this game" plays it again);
:func:`fair_play_line` is the line the results screens show.
"""

from __future__ import annotations

from typing import Any

from client.options_words import options_text
from hexnet.fairness import Verdict, verify_game
from hexnet.games import get_game
from hexnet.i18n import _, ngettext, render_reason

MAX_PARTS = 1 << 12


def collect_reveal(session: Any, msg: dict[str, Any]) -> None:
    """Keep one ``reveal`` part; when the last one arrives, verify and store the verdict."""
    table = msg["table"]
    parts = session._reveals.setdefault(table, [])
    if msg["part"] == 0:
        parts.clear()
    if len(parts) >= MAX_PARTS:
        return
    parts.append(msg)
    if len(parts) == msg["parts"]:
        view = session.views.get(table) or session.watch_views.get(table) or {}
        session.fair_play[table] = verify_reveal(session.commitments.get(table), parts,
                                                 view.get("outcome"))
        session.revealed[table] = sorted(parts, key=lambda p: p["part"])  # to replay it
        del session._reveals[table]


def verify_reveal(seen_commitment: str | None, parts: list[dict[str, Any]],
                  outcome: dict[str, Any] | None) -> Verdict:
    """Replay the revealed game; ``ok`` only if it matches what this seat was shown."""
    if not parts:
        return Verdict(False, [_("The host revealed nothing.")])
    head = parts[0]
    if seen_commitment is None:
        return Verdict(False, [_("No commitment was shown at the start of this game.")])
    if any(p["commitment"] != seen_commitment or p["seed"] != head["seed"]
           or p["salt"] != head["salt"] for p in parts):
        return Verdict(False, [_("The reveal is not for the commitment shown at the start.")])
    steps: list[tuple[int | None, dict[str, Any], str | None]] = []
    for i, part in enumerate(sorted(parts, key=lambda p: p["part"])):
        if part["part"] != i or part["first"] != len(steps):
            return Verdict(False, [_("The revealed step list has a gap.")])
        steps += [(s["seat"], s["action"], s["digest"]) for s in part["steps"]]
    try:
        game = get_game(head["game"])
    except (KeyError, ModuleNotFoundError):
        return Verdict(False, [_("This client does not know the game {game}.").format(
            game=repr(head["game"]))])
    try:
        return verify_game(game, head["players"], head["options"], head["seed"],
                           head["salt"], seen_commitment, steps, outcome)
    except Exception as exc:  # noqa: BLE001 - a hostile reveal must not crash the client
        return Verdict(False, [_("The revealed game cannot be replayed: {error}").format(
            error=exc)])


def note_text(key: str, args: dict[str, Any]) -> str | None:
    """One finding of :func:`hexnet.fairness.verify_game` in the reader's language (None for a
    key this client does not know: the English line stands)."""
    if key == "unreadable":
        return _("The revealed seed or options cannot be read: {error}").format(
            error=args.get("error", ""))
    if key == "commitment_differs":
        return _("The revealed seed, salt and options do not match the commitment.")
    if key == "commitment_ok":
        return _("Commitment {short}… matches the revealed seed and options.").format(
            short=args.get("short", ""))
    if key == "step_refused":
        reason = render_reason(args.get("game"), args.get("reason") or {}, ())
        return _("Step {step} is not legal on replay: {reason}").format(
            step=args.get("step"), reason=reason)
    if key == "step_differs":
        return _("Step {step}: the replayed shuffle/roll differs from what the table saw."
                 ).format(step=args.get("step"))
    if key == "steps_ok":
        n = int(args.get("count") or 0)
        return ngettext("The only step replays with identical public events.",
                        "All {n} steps replay with identical public events.", n).format(n=n)
    if key == "result_differs":
        return _("The replay ends with a different result.")
    if key == "result_same":
        return _("The replay ends with the same result.")
    if key == "agreed":
        agreed = options_text(None, args.get("options") or {}) or _("default options")
        if args.get("stacked"):
            return _("Agreed options: {options}; the position was stacked by the host, not "
                     "shuffled.").format(options=agreed)
        return _("Agreed options: {options}.").format(options=agreed)
    return None


def verdict_lines(verdict: Verdict) -> list[str]:
    """The verdict's sentences in the reader's language (its English lines where it carries no
    findings as data, e.g. a journal that could not be read at all)."""
    if len(verdict.notes) != len(verdict.lines):
        return list(verdict.lines)
    return [note_text(key, args) or line
            for (key, args), line in zip(verdict.notes, verdict.lines, strict=True)]


def fair_play_line(verdict: Verdict | None, commitment: str | None,
                   game: str | None = None) -> str:
    """The results screens' line: verified (with the commitment), failed (loudly) or pending;
    ``game`` (when known) lets a pace stand for the timings it set."""
    short = (commitment or "")[:16]
    if verdict is None:
        return _("Fair play: waiting for the host's reveal (commitment {short}…)").format(
            short=short)
    if verdict.ok:
        line = _("Fair play verified ✓ (commitment {short}…)").format(short=short)
        if verdict.options:  # what the table agreed to (bound by the commitment)
            agreed = options_text(game, verdict.options)
            line += " — " + _("agreed: {options}").format(options=agreed)
        if verdict.stacked:
            line += " — " + _("⚠ stacked by the host, not shuffled")
        return line
    found = verdict_lines(verdict)
    reason = found[-1] if found else _("unknown reason")
    return _("⚠ FAIR PLAY CHECK FAILED ✗ — {reason} (commitment {short}…)").format(
        reason=reason, short=short)


def table_game(session: Any, table: int) -> str | None:
    """The game a table plays, from the last view of it the session holds (None if none)."""
    view = session.views.get(table) or getattr(session, "watch_views", {}).get(table) or {}
    game = view.get("game")
    return game if isinstance(game, str) else None
