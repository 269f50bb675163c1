"""A table's watching rules: whether it may be watched and how many actions late, kept per table
(:class:`RuleBook`). They are two table options of the host's own (``seeds/watching.toml``:
``watch``, ``watch_delay``), taken out of a ``create``'s options before the game's are checked:
they never reach the engine or the fairness commitment.

Kept across a host restart: a table still seating keeps them in its seating record
(:meth:`RuleBook.record`); a playing table's journal has a ``watch`` record
(:class:`host.core.WatchRulesChanged`) at the start when they are not the defaults
(:meth:`RuleBook.started`) and whenever they change; :meth:`RuleBook.restore` gives them back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hexnet.options import OptionError, check_options
from host.core import LobbyError, WatchRulesChanged
from host.table import Table


class WatchingOptions:
    """The declared watching options (``seeds/watching.toml``), as an engine-like object for
    :func:`hexnet.options.check_options` and :func:`hexnet.options.parse_flags`."""

    name = "watching"
    title = "Watching"


WATCH_OPTIONS = ("watch", "watch_delay")


@dataclass
class WatchRules:
    """Whether a table may be watched, and how many actions late."""

    allowed: bool = True
    delay: int = 0


def split_options(options: dict[str, Any] | None, local: bool
                  ) -> tuple[dict[str, Any], WatchRules]:
    """A ``create``'s options without the watching ones, and the rules they set. Raises
    :class:`LobbyError` (``bad_options``) for a watching option out of its bounds."""
    game = {k: v for k, v in (options or {}).items() if k not in WATCH_OPTIONS}
    mine = {k: v for k, v in (options or {}).items() if k in WATCH_OPTIONS}
    try:
        checked = check_options(WatchingOptions(), mine, local=local)
    except OptionError as exc:
        raise LobbyError(exc.code, exc.message) from exc
    return game, WatchRules(bool(checked.get("watch", True)), int(checked.get("watch_delay", 0)))


class RuleBook:
    """Every table's watching rules, by table id (a table without any has the defaults)."""

    def __init__(self) -> None:
        self.rules: dict[int, WatchRules] = {}

    def of(self, table_id: int) -> WatchRules:
        """The watching rules of a table (the defaults if none were set)."""
        return self.rules.get(table_id) or WatchRules()

    def set(self, table_id: int, rules: WatchRules) -> None:
        self.rules[table_id] = rules

    def drop(self, table_id: int) -> None:
        self.rules.pop(table_id, None)

    def started(self, table: Table) -> WatchRulesChanged | None:
        """(As ``table`` starts, after its ``TableStarted``.) The journal record that keeps its
        rules, when they are not the defaults."""
        rules = self.of(table.id)
        if rules != WatchRules():
            return WatchRulesChanged(table.id, rules.allowed, rules.delay)
        return None

    def record(self, table: Table, record: dict[str, Any]) -> dict[str, Any]:
        """A seating table's record (:meth:`host.table.Table.seating_record`) with its rules."""
        rules = self.of(table.id)
        record["watch"] = {"allowed": rules.allowed, "delay": rules.delay}
        return record

    def restore(self, table_id: int, record: Any) -> None:
        """Give a table brought back after a restart the rules kept for it (a seating record's
        ``watch`` map or a journal's last ``watch`` record; None: the defaults). Rules that do
        not check (a damaged file) leave the defaults."""
        rules = WatchRules()
        if isinstance(record, dict):
            try:
                _game, rules = split_options({"watch": record.get("allowed", True),
                                              "watch_delay": record.get("delay", 0)}, local=True)
            except LobbyError:
                rules = WatchRules()
        if rules.delay < 0:  # the host's own bounds are wider, but never below nothing
            rules = WatchRules()
        self.rules[table_id] = rules
