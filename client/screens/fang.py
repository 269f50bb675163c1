"""The Fang die Hexe table: the village, your role card, the cats, and one choice list that
follows the scene (place picks, guard, the witches' window, confirmations, the chief's
proposal, yes/no, the ritual card, the vote).

Everything shown comes from the view; every entry of the choice list is one of the legal actions
the host sent (the chief's proposal is built by toggling cats until it matches one of them).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from client.screens.fang_results import FangResultsScreen
from client.screens.table_base import Action, TableScreen
from client.widgets import fang_names as names
from client.widgets.chat import ChatInput
from client.widgets.fang_choices import (
    POWER_TYPES,
    Choice,
    heading,
    proposal_action,
    scene_choices,
)
from client.widgets.fang_village import (
    cats_table,
    hand_text,
    role_text,
    village_text,
)
from client.widgets.log import GameLog
from client.widgets.tall import TallOptionList
from client.words.fang import FangWords
from hexnet import i18n
from hexnet.i18n import N_, _, ngettext

CONFIRM_TYPES = ("ready", "confirm", "end_talk")
# A frog or a banished cat watches: the confirmations every seat gives go on by themselves
# after this many seconds (p at once), so nobody presses at every step.
WATCH_SECONDS = 1.5
HELP_NOTES = (
    N_("r turns your role card up or down (it starts face down)."),
    N_("↑↓ Enter in the choice list does what the scene asks: a place, a guard, the witches' "
       "place/spell/attack, OK, end talk, yes/no, a ritual card, a vote or abstain."),
    N_("Chief: Enter toggles a cat ([x]); \"→ Propose\" sends the set."),
    N_("p ready / OK / end talk · y n yes/no on a proposal"),
    N_("s the seer's look or the pickpocket's theft (while allowed)"),
    N_("Cats: ★ chief · ◇ proposed/in the circle · ✓ has sent (never what) · … waited on; "
       "votes show once everyone has voted."),
    N_("Witches: w switches the chat to the witches' whisper (☾)."),
    N_("A frog or a banished cat watches: each step's OK goes on by itself after a moment "
       "(p at once)."),
)


class FangScreen(TableScreen):
    """Village state, role card, hand and choices on the left; the cats and the log right."""

    GAME = "fang"
    HELP_TITLE = N_("Fang die Hexe")
    HELP_NOTES = HELP_NOTES
    CSS_PATH = Path(__file__).parent.parent / "styles" / "fang.tcss"
    # the one-column layout: the choices first, the cats and the log behind their tabs
    PAGES = (("game", N_("Village")), ("side", N_("Cats")), ("log", N_("Log")))
    BINDINGS = [
        Binding("r", "role", N_("Role")),
        Binding("p", "pass_turn", N_("OK")),
        Binding("s", "power", N_("See/steal")),
        # in the bottom bar only during the proposal vote: a tap there votes (web guests)
        Binding("y", "vote_yes", N_("Yes")),
        Binding("n", "vote_no", N_("No")),
        Binding("w", "whisper", N_("Whisper"), show=False),
    ]
    ANSWER_ACTIONS = frozenset({"pass_turn", "power", "vote_yes", "vote_no"})
    WORDS = FangWords
    _watched: Any = None  # the state id whose OK was sent by itself

    WATCH_ACTIONS = TableScreen.WATCH_ACTIONS | {"role"}  # r: the results, after the end

    def __init__(self, table: int, watching: bool = False) -> None:
        super().__init__(table, watching)
        self.role_shown = False
        self.channel = "table"
        self.chosen: set[int] = set()
        self._choices: dict[str, Choice] = {}
        self._signature: list[tuple[str, str]] = []

    # -- layout ---------------------------------------------------------------------------
    def compose_game(self) -> ComposeResult:
        yield Static("", id="fang-village", markup=False)
        yield Static("", id="fang-role", markup=False)
        yield Static("", id="fang-hand", markup=False)
        yield Static("", id="fang-scene", markup=False)
        yield TallOptionList(id="fang-choices")

    def compose_side(self) -> ComposeResult:
        yield Static("", id="fang-cats", markup=False)

    def on_mount(self) -> None:
        self.query_one("#fang-choices", OptionList).focus()

    def focus_default(self) -> None:
        self.query_one("#fang-choices", OptionList).focus()

    # -- words ----------------------------------------------------------------------------
    def title_text(self) -> str:
        return f"Fang #{self.table}"

    def retranslate(self) -> None:
        self._signature = []  # the choice list is drawn again, in the new words
        super().retranslate()

    def words(self) -> FangWords:
        return FangWords(self.view, self.legal, watching=self.watching, name=self.player_name,
                         short=self.status_name, role_shown=self.role_shown)

    def prompt_text(self) -> str:
        if self.watching and not self.view.get("outcome"):
            return super().prompt_text()
        if self.view.get("outcome"):
            return _("The game is over — r results · l lobby")
        if not self.legal:
            return self.waiting_prompt()
        kinds = {a.get("type") for a in self.legal}
        if self.sitting_out() and kinds <= {"confirm"}:
            return _("You watch ({form}): the game goes on by itself · p: OK at once").format(
                form=names.form(self.view["forms"][self.view["seat"]]))
        words = [_("↑↓ Enter: choose")]
        if kinds & set(CONFIRM_TYPES):
            words.append(_("p: ready") if "ready" in kinds else _("p: OK") if "confirm" in kinds
                         else _("p: end talk"))
        if "vote_proposal" in kinds:
            words.append(_("y/n: yes/no"))
        if kinds & set(POWER_TYPES):
            words.append(_("s: see") if "see" in kinds else _("s: steal"))
        if self.view.get("scene") == "ready" and not self.role_shown:
            words.append(_("r: your role"))
        expiry = self.expiry_text()
        tail = _(" — on timeout: {what}").format(what=expiry) if expiry else ""
        return _("Your move: ") + " · ".join(words) + tail

    def help_extra(self) -> str:
        """Beside the keys: what each role does (nothing about whose role is whose)."""
        lines = [_("The roles:")]
        lines += [f"{names.role_long(rid)}: {names.role_power(rid)}" for rid in names.ROLE_POWERS]
        return "\n".join(lines)

    def help_explain(self) -> str:
        """What your role does (only while your role card is face up: the help shows it)."""
        role = self.view.get("role")
        if not role:
            return ""
        if not self.role_shown:
            return _("Turn your role card up (r) to read here what your role does.")
        return i18n.word(names.GAME, "role_text", role)

    # -- drawing --------------------------------------------------------------------------
    def update_view(self, view: dict[str, Any], legal: list[Action]) -> None:
        """Show ``view`` minus the log lines that name your role; Fang's own results screen."""
        shown = {**view, "log": FangWords.shown_log(view)}
        if view.get("scene") != "proposal" or not any(
                a.get("type") == "propose" for a in legal):
            self.chosen = set()
        over = bool(view.get("outcome")) and self._ready and not self._results_shown
        if over:
            self._results_shown = True  # ours, not the generic score table
        super().update_view(shown, legal)  # (which refreshes the key bar)
        if over:
            # a watcher has typed nothing for the table: its results take keys at once
            self.app.push_screen(FangResultsScreen(self.table, shown, asked=self.watching))
        self._watch()

    # -- sitting out (a frog, a banished cat) ---------------------------------------------
    def sitting_out(self) -> bool:
        """Whether your seat only watches: a frog or banished while the game runs (not a
        spectator, :attr:`watching`: that one has no seat and no legal actions)."""
        return self.words().sitting_out()

    def _watch(self) -> None:
        """A watcher asked only to confirm: the OK goes by itself after a moment."""
        state = self.view.get("state_id")
        if (self._ready and self.sitting_out() and self.legal
                and all(a.get("type") == "confirm" for a in self.legal)
                and self._watched != state):
            self._watched = state
            self.set_timer(WATCH_SECONDS, lambda: self._confirm_watched(state))

    def _confirm_watched(self, state: Any) -> None:
        if (self.is_attached and self.view.get("state_id") == state
                and self.actions_of_type("confirm")):
            self.run_worker(self.send_action(self.actions_of_type("confirm")[0]), group="send")

    def show_game(self, view: dict[str, Any], legal: list[Action]) -> None:
        self.query_one("#fang-village", Static).update(village_text(view))
        self.query_one("#fang-cats", Static).update(cats_table(view, self.role_shown))
        self.show_role()
        self.query_one("#fang-scene", Static).update(
            "" if self.watching else heading(view, legal, self.chosen))  # a player's words
        self.show_choices(scene_choices(view, legal, self.chosen))

    def show_role(self) -> None:
        if self.watching:  # nothing to turn: a watcher has no role and no hand
            self.query_one("#fang-role", Static).update(
                _("Watching: roles and hands stay hidden until the end."))
            self.query_one("#fang-hand", Static).update("")
            return
        self.query_one("#fang-role", Static).update(role_text(self.view, self.role_shown))
        self.query_one("#fang-hand", Static).update(hand_text(self.view, self.role_shown))

    def show_choices(self, choices: list[Choice]) -> None:
        """Replace the list only when it changed, keeping the cursor on the same entry."""
        signature = [(c.id, c.label) for c in choices]
        self._choices = {c.id: c for c in choices}
        if signature == self._signature:
            return
        self._signature = signature
        box = self.query_one("#fang-choices", OptionList)
        keep = None
        if box.highlighted is not None and box.option_count:
            keep = box.get_option_at_index(box.highlighted).id
        box.clear_options()
        box.add_options([Option(Text(c.label), id=c.id) for c in choices])
        ids = [c.id for c in choices]
        if ids:
            box.highlighted = ids.index(keep) if keep in ids else 0

    def redraw(self) -> None:
        """Draw again from the current view (after a local change: role card, proposal)."""
        if self.shown and self.view:
            self.show_game(self.view, self.legal)
            self.query_one("#prompt", Static).update(self.away_text() or self.prompt_text())

    # -- keys -----------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        allowed = super().check_action(action, parameters)
        if allowed is not False and self.watching and action == "role":
            return bool(self.view.get("outcome"))  # r: the results, once there are some
        return allowed

    def key_fits(self, action: str) -> bool:
        """Each key while the question is one it answers (confirm, a power, the proposal
        vote; the witches' whisper for a witch)."""
        kinds = self.legal_types()
        if action == "pass_turn":
            return bool(kinds & set(CONFIRM_TYPES))
        if action == "power":
            return bool(kinds & set(POWER_TYPES))
        if action in ("vote_yes", "vote_no"):
            return "vote_proposal" in kinds
        if action == "whisper":
            return self.view.get("role") == "hexe"
        return True

    def action_role(self) -> None:
        """Turn the role card (after the game: show the results again)."""
        if self.view.get("outcome"):
            self.action_results()
            return
        self.role_shown = not self.role_shown
        self.redraw()
        self.query_one(GameLog).rerender(self.event_text)  # secret notes show or hide

    def action_results(self) -> None:
        if self.view.get("outcome"):
            self.app.push_screen(FangResultsScreen(self.table, self.view, asked=True))

    def action_pass_turn(self) -> None:
        """Ready, OK or end talk — whichever the scene asks for."""
        if not self.answering():
            return
        for kind in CONFIRM_TYPES:
            found = self.actions_of_type(kind)
            if found:
                self.run_worker(self.send_action(found[0]), group="send")
                return
        self.notify(_("Nothing to confirm now."), severity="warning")

    def action_power(self) -> None:
        if not self.answering():
            return
        found = self.actions_of_type(*POWER_TYPES)
        if found:
            title = _("Look at whom?") if found[0]["type"] == "see" else _("Steal from whom?")
            self.choose_and_send(found, title)

    def _vote(self, yes: bool) -> None:
        if not self.answering():
            return
        found = [a for a in self.actions_of_type("vote_proposal") if a.get("yes") is yes]
        if found:
            self.run_worker(self.send_action(found[0]), group="send")

    def action_vote_yes(self) -> None:
        self._vote(True)

    def action_vote_no(self) -> None:
        self._vote(False)

    @on(OptionList.OptionSelected, "#fang-choices")
    async def _choice_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        choice = self._choices.get(str(event.option_id))
        if choice is None or (choice.kind != "toggle" and not self.answering()):
            return
        if choice.kind == "send" and choice.action is not None:
            await self.send_action(choice.action)
        elif choice.kind == "toggle" and choice.seat is not None:
            self.chosen ^= {choice.seat}
            self.redraw()
        elif choice.kind == "propose":
            action = proposal_action(self.legal, self.chosen)
            if action is None:
                size = int(self.view.get("proposal_size") or 0)
                self.notify(ngettext("Choose exactly {n} cat first.",
                                     "Choose exactly {n} cats first.", size).format(n=size),
                            severity="warning")
            else:
                await self.send_action(action)
        elif choice.kind == "power":
            self.action_power()

    # -- the witches' whisper -------------------------------------------------------------
    def action_whisper(self) -> None:
        """Witches: switch the chat between the whole table and the witches only."""
        self.channel = "witches" if self.channel == "table" else "table"
        self.query_one(ChatInput).placeholder = self.chat_placeholder()
        self.notify(_("Chat: whisper to the witches only ☾") if self.channel == "witches"
                    else _("Chat: the whole table"))

    def chat_placeholder(self) -> str:
        if getattr(self, "channel", "table") == "witches":
            return _("☾ whisper to the witches (Enter send · Esc close · w switches)")
        return super().chat_placeholder()

    def chat_channel(self) -> str:
        return self.channel if self.view.get("role") == "hexe" else "table"
