"""A player's profile (issue 28): ratings per game, the rating over time as a chart in the
terminal, games and wins per game and per Fang role, and the recent games — Enter on one opens
its replay.

The screen renders a profile as :func:`host.club.profile.profile` makes it (phase 2 sends it
over the wire; the client computes nothing). The chart (textual-plotext) draws the chosen game's
μ and the ordinal μ − 3σ (what the leaderboard sorts by) after each game, with different marks
so it reads without colour; ``g`` shows the next game's chart. A recent game opens in the
replay viewer from its journal when this machine has it (the host's own screen); over the
network it is asked of the host by its table commitment (:mod:`client.club`).
"""

from __future__ import annotations

import argparse
from datetime import datetime
from typing import Any, ClassVar

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option
from textual_plotext import PlotextPlot

from client.widgets import fang_names
from client.widgets.footer import LocalFooter
from hexnet.i18n import N_, _, ngettext

MU_MARK, ORDINAL_MARK = "braille", "·"  # plotext markers: a fine line, dots


def rating_text(rating: dict[str, Any]) -> str:
    """``27.3 ± 4.1``."""
    return f"{rating['mu']:.1f} ± {rating['sigma']:.1f}"


def when(seconds: float) -> str:
    """A game's end as a local date and time."""
    return datetime.fromtimestamp(seconds).strftime("%Y-%m-%d %H:%M")


def headline(profile: dict[str, Any]) -> str:
    """``Ada — 12 games`` with the other names played under."""
    total = sum(g["games"] for g in profile["games"].values())
    line = ngettext("{name} — {count} rated game", "{name} — {count} rated games",
                    total).format(name=profile["name"], count=total)
    others = [n for n in profile.get("names") or [] if n != profile["name"]]
    if others:
        line += "\n" + _("Also played as: {names}").format(names=", ".join(others))
    return line


def games_table(profile: dict[str, Any]) -> Table:
    """Per game: games, wins, rating μ ± σ, ordinal and the rank on the host's leaderboard."""
    table = Table(box=None, header_style="bold", padding=(0, 1))
    table.add_column(_("Game"), no_wrap=True)
    for title in (_("Games"), _("Wins")):
        table.add_column(title, justify="right")
    table.add_column(_("Rating"), no_wrap=True)
    table.add_column(_("Ordinal"), justify="right")
    table.add_column(_("Rank"), justify="right")
    for game, row in sorted(profile["games"].items()):
        table.add_row(game.capitalize(), str(row["games"]), str(row["wins"]),
                      rating_text(row["rating"]), f"{row['rating']['ordinal']:.1f}",
                      _("{rank} of {rated}").format(rank=row["rank"], rated=row["rated"]))
    return table


def roles_table(profile: dict[str, Any]) -> Table | None:
    """Fang: games and wins per role (with its side); None without Fang games."""
    roles = profile.get("fang_roles") or {}
    if not roles:
        return None
    table = Table(box=None, header_style="bold", padding=(0, 1))
    table.add_column(_("Role"), no_wrap=True)
    table.add_column(_("Side"), no_wrap=True)
    for title in (_("Games"), _("Wins")):
        table.add_column(title, justify="right")
    for role, row in sorted(roles.items(), key=lambda kv: (-kv[1]["games"], kv[0])):
        table.add_row(fang_names.role_long(role), fang_names.side_words(fang_names.side(role)),
                      str(row["games"]), str(row["wins"]))
    return table


def recent_line(game: dict[str, Any]) -> str:
    """One recent game: when, which, place or side, the rating change, the others."""
    if game.get("side"):
        how = fang_names.role_long(game["role"]) if game.get("role") else game["side"]
    else:
        how = _("place {place} of {seats}").format(place=game["place"], seats=game["seats"])
    mark = "★" if game["won"] else " "
    return (f"{when(game['ended'])}  {mark} {game['game'].capitalize():<11} {how:<22} "
            f"{game['change']:+5.1f}  " + ", ".join(game.get("others") or []))


class RatingChart(PlotextPlot):
    """One game's rating over time: μ and the ordinal after each game."""

    def __init__(self, game: str, series: list[dict[str, float]], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.game, self.series = game, series

    def on_mount(self) -> None:
        self.show(self.game, self.series)

    def show(self, game: str, series: list[dict[str, float]]) -> None:
        """Draw ``game``'s ``series`` (the profile's points: μ and σ after each game)."""
        self.game, self.series = game, series
        plt = self.plt
        plt.clear_data()
        plt.clear_figure()
        xs = list(range(len(series)))
        # no legend inside (it covers the first games): the caption below says the marks
        plt.plot(xs, [p["mu"] for p in series], marker=MU_MARK)
        plt.plot(xs, [p["mu"] - 3 * p["sigma"] for p in series], marker=ORDINAL_MARK)
        plt.title(_("{game}: rating after each game").format(game=game.capitalize()))
        plt.xlabel(_("games played"))
        plt.xticks(xs if len(xs) <= 12 else None)
        self.refresh()


class ProfileScreen(Screen):
    """A player's profile; ``g`` the next game's chart, Enter a recent game's replay, Esc
    back."""

    HELP_TITLE = N_("Profile")
    HELP_NOTES: ClassVar[tuple[str, ...]] = (
        N_("The rating is OpenSkill's μ ± σ: the skill and how unsure it still is; the ordinal "
           "μ − 3σ is what the leaderboard sorts by."),
        N_("g shows the next game's chart; Enter on a recent game opens its replay."),
    )
    BINDINGS: ClassVar[list[Binding]] = [
        Binding("escape", "back", N_("Back")),
        Binding("g", "next_game", N_("Next game")),
        Binding("question_mark", "app.help", N_("Help"), key_display="?"),
    ]

    class ReplayWanted(Message):
        """Enter on a recent game: open its replay (``game``: the profile's entry)."""

        def __init__(self, game: dict[str, Any]) -> None:
            super().__init__()
            self.game = game

    def __init__(self, profile: dict[str, Any]) -> None:
        super().__init__()
        self.profile = profile
        self.charted = sorted(profile.get("series") or {})
        self.chart_index = 0

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="profile"):
            yield Static(headline(self.profile), id="profile-title", classes="title",
                         markup=False)
            yield Static(games_table(self.profile), id="profile-games")
            if self.charted:
                game = self.charted[self.chart_index]
                yield RatingChart(game, self.profile["series"][game], id="profile-chart")
                yield Static(_("{mu} rating μ   {ordinal} ordinal μ − 3σ   (g: next game)")
                             .format(mu="⠤⠤", ordinal=ORDINAL_MARK * 2), id="profile-caption",
                             markup=False)
            roles = roles_table(self.profile)
            if roles is not None:
                yield Static(roles, id="profile-roles")
            yield Static(_("Recent games (Enter: replay)"), classes="title")
            yield OptionList(*[Option(recent_line(g), id=str(i))
                               for i, g in enumerate(self.profile.get("recent") or [])],
                             id="profile-recent")
        yield LocalFooter()

    def on_mount(self) -> None:
        """Enter works at once (the recent games have the focus), the page shown from its top;
        once the player moves in the recent games the page follows them (below the chart they
        are off a small screen)."""
        self._follow = False
        self.query_one("#profile-recent", OptionList).focus(scroll_visible=False)
        self.call_after_refresh(setattr, self, "_follow", True)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if getattr(self, "_follow", False):
            event.option_list.scroll_visible(animate=False)

    def action_next_game(self) -> None:
        if self.charted:
            self.chart_index = (self.chart_index + 1) % len(self.charted)
            game = self.charted[self.chart_index]
            self.query_one(RatingChart).show(game, self.profile["series"][game])

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(self.ReplayWanted(self.profile["recent"][int(event.option.id)]))

    async def on_profile_screen_replay_wanted(self, message: ReplayWanted) -> None:
        """The game's journal on this machine opens in the replay viewer (all-seeing: the
        game is over); over the network the host is asked for it by its commitment; anything
        else is said in a notification."""
        journal = message.game.get("journal")
        if not journal:
            if message.game.get("commitment") and hasattr(self.app, "replays"):
                from client.club import ask_replay

                await ask_replay(self.app, message.game["commitment"])
            else:
                self.notify(_("The host has not sent this game's replay."), severity="warning")
            return
        from client.replay.loading import Refused, load, verdict_line
        from client.replay.screen import replay_screen

        try:
            replay, verdict = load(argparse.Namespace(journal=journal, all=True, seat=None))
        except Refused as exc:
            self.notify(str(exc), severity="error", markup=False)
            return
        self.app.push_screen(replay_screen(replay, verdict_line(verdict)))

    def retranslate(self) -> None:
        """Words in the current language (after a language switch)."""
        self.refresh(recompose=True)

    def action_back(self) -> None:
        self.app.pop_screen()
