"""Issue 14, the client's side: the tables read at 80×24, the clock is calm, Ctrl+Q always works,
the stakes are known before a card is sent, and the small things a party trips over.

Each test is named after the rule it checks; the views come from the engines (or are the
hand-written Hexenhammer views of ``tests/client/views.py``); the app is the real client.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import re
from types import SimpleNamespace
from typing import Any

import pytest
from textual.widgets import OptionList

from client.app import HexnetApp
from client.screens.confirm import ConfirmQuit
from client.screens.fang import FangScreen
from client.screens.fingerprint import FingerprintScreen
from client.screens.help import HelpPane, HelpScreen
from client.screens.hexenhammer import HexenhammerScreen
from client.screens.hranice import HraniceScreen
from client.screens.lobby import LobbyScreen
from client.screens.picker import Picker
from client.widgets import fang_names, guard
from hexnet.games.fang import GAME as FANG
from tests.client import views
from tests.client.conftest import (
    host_with_table,
    pick,
    player_app,
    screen_text,
    sit_and_start,
    wait_until,
)
from tests.client.harness import ScreenApp
from tests.client.hranice_views import HraniceViewApp

FANG_PLAYERS = ["Ada", "Bartholomew", "Cora", "Dan", "Eli", "Fritz", "Gerlinde", "Hans",
                "Ilse", "Jörg", "Kunigunde", "Lutz"]


def fang_busy_view() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Twelve at the Fang table, day 3: two frogs, one banished, seals and failed rituals; Ada
    (the seer) picks a place."""
    sc = {"roles": ["seherin", "hexe", "dorfkatze", "kraeuterkundige", "hexe", "beschuetzer",
                    "dorfkatze", "taschendieb", "kraehe", "dorfkatze", "hexe", "narr"],
          "day": 3, "frogs": [3, 6], "banished": [1], "seals": 2, "failed": 1,
          "required": ["pilz", "salbei", "quellwasser", "mehl"], "hands": [["pilz", "mehl"]]}
    state = FANG.setup(FANG_PLAYERS, seed=3, options={"scenario": sc})
    return FANG.view(state, 0), FANG.legal_actions(state, 0)


class FangApp(ScreenApp):
    """The Fang table from a fixed view; records what it would send."""

    def __init__(self, view: tuple[dict[str, Any], list[dict[str, Any]]],
                 lang: str = "en") -> None:
        super().__init__("fixed", "fang", SimpleNamespace(fixed_view=lambda: view),
                         show_lobby=False, lang=lang)


def hexenhammer_app(view: tuple[dict[str, Any], list[dict[str, Any]]]) -> ScreenApp:
    return ScreenApp("fixed", source=SimpleNamespace(fixed_view=lambda: view))


def rows(text: str) -> list[str]:
    return text.splitlines()


# -- item 2: the busiest tables at 80×24 --------------------------------------------------------
async def test_hexenhammer_busiest_table_at_80x24_keeps_owner_stake_and_values_columns() -> None:
    view, legal = views.busy_view()
    app = hexenhammer_app((view, legal))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, HexenhammerScreen), 5)
        await wait_until(pilot, lambda: "Quit" in rows(screen_text(app))[-1], 5, "the key bar")
        text = screen_text(app)
    lines = rows(text)
    assert len(lines) == 24 and all(len(line) <= 80 for line in lines)
    row_of = {v["id"]: next(line for line in lines if line[1:].startswith(
        app.table_screen.short_name_of(v["id"]))) for v in view["villagers"]}
    assert "Owner" in lines[1] and "St" in lines[1] and "P/M" in lines[1]
    for v in view["villagers"]:
        line = row_of[v["id"]]
        owner = app.table_screen.player_name(v["owner"])
        assert (owner if len(owner) <= 7 else owner[:6] + "…") in line, line
        assert f"{v['pentagrams']}/{v['matches']}" in line, line
        if v["alive"]:
            assert f" {v['suspicion']} {v['start']}" in line, line
    bertram = next(v for v in view["villagers"] if v["id"] == "bertram")
    assert bertram["trial_card"] and f" {bertram['start']}⚖ " in row_of["bertram"]
    assert "⚖ on Bertram: no brown cards in phases 1 and 2" in text
    score = next(line for line in lines if line.startswith("score"))
    assert score[:50].split()[1:] == [str(s["total"]) for s in view["scores"]]
    assert "⏱" in lines[-3] and lines[-1].rstrip().endswith("^q Quit")


@pytest.mark.parametrize("lang", ["en", "hu", "de", "cs"])
async def test_hexenhammer_status_line_with_a_long_named_inquisitor_is_whole_at_80(
        lang: str) -> None:
    view, legal = views.busy_view()
    view["players"] = ["Ada", "Bartholomew-Maximilian", "Cora", "Dan", "Eve"]  # inquisitor: 1
    app = ScreenApp("fixed", source=SimpleNamespace(fixed_view=lambda: (view, legal)),
                    lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, HexenhammerScreen), 5)
        await wait_until(pilot, lambda: "Bartholom…" in rows(screen_text(app))[0], 5,
                         "the status line")
        top = rows(screen_text(app))[0].rstrip()
        whole = app.table_screen.status_text()
        screen = app.table_screen
        screen._presence = [{"state": "connected"}, {"state": "reconnecting", "absent_in": 30},
                            {"state": "disconnected", "absent_in": 9}, {"state": "absent"},
                            {"state": "stand_in"}]
        notes = screen.help_notes()  # the top line's marks are explained in ? while shown
        crowded = screen.status_text()
    assert crowded.startswith("Barth… ⟳"), crowded  # presence names are cut like the rest
    assert top == whole, (top, whole)  # nothing cut at the right
    assert top.startswith("#1 │ ") or top.startswith("Hexenhammer #1 │ ")
    assert len(top) <= 80
    for mark in ("⟳", "⚡", "⌀", "⚙", "#3"):
        assert mark in notes, (mark, notes)


async def test_hranice_six_players_at_80x24_show_every_council_and_the_whole_bottom_bar() -> None:
    app = HraniceViewApp("reaction")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, HraniceScreen), 5)
        await wait_until(pilot, lambda: "Quit" in rows(screen_text(app))[-1], 5, "the key bar")
        lines = rows(screen_text(app))
    for name in ("you", "Bela", "Cora", "Dan", "Eva", "Filip"):
        assert any(line[2:].startswith(name) and "/7" in line for line in lines), name
    assert lines[-1].rstrip().endswith("^q Quit")  # not "^q Qui" (item 8)
    assert "⏱" in lines[-3]


async def test_fang_twelve_players_at_80x24_list_every_cat_with_the_role_and_choices() -> None:
    app = FangApp(fang_busy_view())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_until(pilot, lambda: isinstance(app.screen, FangScreen)
                                  and app.screen, 5)
        await pilot.press("r")
        await pilot.pause(0.2)
        text = screen_text(app)
    for name in FANG_PLAYERS[1:]:
        assert name[:8] in text, name
    assert "Seherin" in text and "Wald" in text
    assert all(len(line) <= 80 for line in rows(text)) and len(rows(text)) == 24
    assert screen.legal


# -- item 3: the calm clock -------------------------------------------------------------------
async def test_a_prompt_that_changes_under_the_cursor_ignores_keys_for_a_moment(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(guard, "GUARD_SECONDS", 60.0)  # the moment outlasts a loaded machine
    app = ScreenApp("your_turn")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_until(pilot, lambda: isinstance(app.screen, HexenhammerScreen)
                                  and app.screen, 5)
        assert not screen.guard.active  # the first question is answered at once
        screen.update_view(*views.reaction_view())  # a reaction window opens now
        await pilot.press("p")  # typed for the old question
        await pilot.pause(0.1)
        assert app.sent == []
        assert str(screen.query_one("#prompt").render()).startswith("⏸ ")
        screen.guard.arm(0.0)  # the moment is over
        await pilot.press("p")
        await wait_until(pilot, lambda: app.sent, 3)
    assert app.sent[0]["action"] == {"type": "pass"}


async def test_hranice_die_roll_prompt_that_replaces_the_question_ignores_p_for_a_moment(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 3 in Hranice: a die-roll window replaced the question just as ``p`` was pressed."""
    from tests.client import hranice_views

    monkeypatch.setattr(guard, "GUARD_SECONDS", 60.0)  # the moment outlasts a loaded machine
    app = HraniceViewApp("table")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_until(pilot, lambda: isinstance(app.screen, HraniceScreen)
                                  and app.screen, 5)
        view, legal = hranice_views.reaction_view()  # the die was rolled: answer it?
        assert view["window"]["event"] == "roll"
        screen.update_view(view, legal)
        await pilot.press("p")  # typed for the old question
        await pilot.pause(0.1)
        assert app.sent == []
        assert str(screen.query_one("#prompt").render()).startswith("⏸ ")
        screen.guard.arm(0.0)  # the moment is over
        await pilot.press("p")
        await wait_until(pilot, lambda: app.sent, 3)
    assert app.sent[0]["action"] == {"type": "pass"}


async def test_help_stays_open_over_the_table_and_the_prompt_still_answers() -> None:
    app = ScreenApp("reaction")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_until(pilot, lambda: isinstance(app.screen, HexenhammerScreen)
                                  and app.screen, 5)
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: screen.help_open, 3)
        assert app.screen is screen  # a pane of the table, not a dialog over it
        text = screen_text(app)
        assert "Help — Hexenhammer" in text
        assert re.search(r"⏱ \d+s", text) and "let it pass" in text  # countdown, prompt
        await pilot.press("p")
        await wait_until(pilot, lambda: app.sent, 3)
        assert app.sent[0]["action"] == {"type": "pass"}
        await pilot.press("escape")
        await wait_until(pilot, lambda: not screen.help_open, 3)


async def test_the_action_list_follows_the_table_and_says_too_late_when_the_window_closed(
        ) -> None:
    app = ScreenApp("reaction")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_until(pilot, lambda: isinstance(app.screen, HexenhammerScreen)
                                  and app.screen, 5)
        await pilot.press("a")
        picker = await wait_until(pilot, lambda: isinstance(app.screen, Picker) and app.screen, 3)
        assert re.match(r"⏱ \d+s", str(picker.query_one("#picker-clock").render()))
        view, _legal = views.reaction_view()
        closed = {**view, "state_id": 14, "window": None, "deadline": None, "active": [2]}
        screen.update_view(closed, [])  # the window closed while the list was open
        await wait_until(pilot, lambda: app.screen is screen, 3)
        assert picker.gone
        await wait_until(pilot, lambda: any(n.title == "Too late" for n in app._notifications),
                         3, "the too-late toast")
        await pilot.press("enter")
        await pilot.pause(0.2)
    assert app.sent == []


def test_a_late_answer_is_explained_as_too_late_not_as_a_rules_error() -> None:
    from client import messages as m

    app = HexnetApp(target=None)
    msg = m.ActionRejected(1, "stale", "state moved on", None)
    assert app.rejection_text(msg).startswith("Too late:")


# -- item 4: Ctrl+Q -----------------------------------------------------------------------------
async def test_ctrl_q_quits_with_the_action_list_open() -> None:
    app = ScreenApp("your_turn")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, HexenhammerScreen), 5)
        await pilot.press("a")
        await wait_until(pilot, lambda: isinstance(app.screen, Picker), 3)
        await pilot.press("ctrl+q")
        await wait_until(pilot, lambda: not app.is_running, 3)


async def test_ctrl_q_quits_with_the_help_dialog_open() -> None:
    app = ScreenApp("lobby")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen), 5)
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen), 3)
        await pilot.press("ctrl+q")
        await wait_until(pilot, lambda: not app.is_running, 3)


async def test_ctrl_q_quits_from_the_first_contact_dialog(open_host: Any, tmp_path: Any) -> None:
    app = HexnetApp(target=None, name="Ada", config_dir=str(tmp_path / "ada"))
    app.begin = lambda: app.push_screen(app.lobby_screen)  # type: ignore[method-assign]
    async with app.run_test(size=(80, 24)) as pilot:
        app.connect("127.0.0.1", open_host.port, name="Openhaus")
        dialog = await wait_until(pilot, lambda: isinstance(app.screen, FingerprintScreen)
                                  and app.screen.query("#fingerprint-title")
                                  and app.screen, 10, "the first-contact dialog")
        # item 8: the dialog names the host, not only its address
        title = str(dialog.query_one("#fingerprint-title").render())
        assert title == f"First contact with Openhaus (127.0.0.1:{open_host.port})"
        await pilot.press("ctrl+q")
        await wait_until(pilot, lambda: not app.is_running, 3)


@pytest.mark.mdns
async def test_first_contact_with_a_typed_address_names_the_host_it_hears_on_mdns(
        tmp_path: Any) -> None:
    """Item 8 for ``hexnet join 127.0.0.1:PORT``: the dialog listens to mDNS (on 127.0.0.1)
    and names the host advertised at that address — nothing is sent to the untrusted key."""
    from host.server import Host

    h = Host("Partyhaus", tmp_path / "host-cfg", tmp_path / "host-data", open=True,
             mdns=True, interfaces=["127.0.0.1"], bot_delay=0.0, games=["hexenhammer"])
    await h.start(bind="127.0.0.1", port=0)
    try:
        app = HexnetApp(target=("127.0.0.1", h.port), name="Ada",
                        config_dir=str(tmp_path / "ada"), interfaces=["127.0.0.1"])
        async with app.run_test(size=(80, 24)) as pilot:
            dialog = await wait_until(pilot, lambda: isinstance(app.screen, FingerprintScreen)
                                      and app.screen.query("#fingerprint-title")
                                      and app.screen, 10, "the first-contact dialog")

            def title() -> str:
                return str(dialog.query_one("#fingerprint-title").render())

            await wait_until(pilot, lambda: "Partyhaus" in title(), 30, title)
            assert title() == f"First contact with Partyhaus (127.0.0.1:{h.port})"
            await pilot.press("n")
    finally:
        await h.stop()


async def test_leaving_a_running_game_asks_once(tmp_path: Any) -> None:
    h, _table = await host_with_table(tmp_path, "Quithaus", "hexenhammer", 3, {}, seed=3)
    app = player_app(h, tmp_path)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await sit_and_start(pilot, app, HexenhammerScreen)
            await pilot.press("ctrl+q")
            dialog = await wait_until(pilot, lambda: isinstance(app.screen, ConfirmQuit)
                                      and app.screen, 5, "the quit question")
            assert "still running" in screen_text(app)
            await pilot.press("n")
            await wait_until(pilot, lambda: isinstance(app.screen, HexenhammerScreen), 3)
            assert app.is_running and dialog.answered
            await pilot.press("ctrl+q")
            await wait_until(pilot, lambda: isinstance(app.screen, ConfirmQuit), 3)
            await pilot.press("ctrl+q")  # asked once: the second Ctrl+Q quits
            await wait_until(pilot, lambda: not app.is_running, 3)
    finally:
        await h.stop()


# -- item 5: the stakes ---------------------------------------------------------------------
async def test_a_card_shows_its_effect_with_every_modifier_before_it_is_sent() -> None:
    app = ScreenApp("your_turn")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, HexenhammerScreen), 5)
        await pilot.press("down")  # Falsches Zeugnis +3
        await pilot.press("enter")
        await pick(pilot, app, "Karl")
        labels = await wait_until(pilot, lambda: isinstance(app.screen, Picker)
                                  and "Whom" in str(app.screen.query_one("#picker-title")
                                                    .render()) and app.screen, 3)
        entries = [str(o.prompt) for o in labels.query_one(OptionList)._options]
        assert "Bertram · Cora · 18 → 18" in entries  # the top of 18
        await pick(pilot, app, "Heinbichl")
        confirm = await wait_until(pilot, lambda: isinstance(app.screen, Picker)
                                   and app.screen.query("#picker-title") and app.screen, 3)
        title = str(confirm.query_one("#picker-title").render())
        assert "Heinbichl (Bela): 5 → 8" in title
        assert "= Falsches Zeugnis +3 = +3" in title
        assert app.sent == []  # nothing sent before the confirmation
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.sent, 3)
    action = app.sent[0]["action"]
    assert (action["accuser"], action["target"]) == ("karl", "heinbichl")


async def test_a_single_possible_accuser_is_shown_and_confirmed_not_taken_silently() -> None:
    view, legal = views.your_turn_view()
    only_karl = [a for a in legal if a.get("accuser") in (None, "karl")]
    app = hexenhammer_app((view, only_karl))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, HexenhammerScreen), 5)
        await pilot.press("enter")  # Verleumdung: only Karl may accuse
        labels = await pick(pilot, app, "Karl")
        assert labels == ["Karl · yours · 7"]
        await wait_until(pilot, lambda: isinstance(app.screen, Picker) and "Whom" in str(
            app.screen.query_one("#picker-title").render()), 3)
        assert app.sent == []


async def test_the_running_score_and_villager_values_are_on_the_table() -> None:
    app = ScreenApp("your_turn")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, HexenhammerScreen), 5)
        await pilot.pause(0.3)
        lines = rows(screen_text(app))
    view, _legal = views.your_turn_view()
    assert next(line for line in lines if line.startswith("score"))[:50].split()[1:] == [
        str(s["total"]) for s in view["scores"]]
    karl = next(line for line in lines if line.startswith(" Karl"))
    assert karl[:50].rstrip().endswith("3/3")  # Karl: 3 pentagrams, 3 matches


async def test_fang_role_card_says_what_the_role_does() -> None:
    app = FangApp(fang_busy_view())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_until(pilot, lambda: isinstance(app.screen, FangScreen)
                                  and app.screen, 5)
        await pilot.press("r")
        await pilot.pause(0.2)
        role = str(screen.query_one("#fang-role").render())
    assert fang_names.role_power("seherin") in role.replace("\n", " ")


@pytest.mark.parametrize("form", ["frog", "banished"])
async def test_a_frog_watches_and_its_ok_goes_by_itself(form: str) -> None:
    view, _legal = fang_busy_view()
    frog = copy.deepcopy(view)
    frog["forms"][0] = form
    frog["scene"] = "announce"
    app = FangApp((frog, [{"type": "confirm"}]))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_until(pilot, lambda: isinstance(app.screen, FangScreen)
                                  and app.screen, 5)
        assert f"You watch ({form})" in str(screen.query_one("#prompt").render())
        await wait_until(pilot, lambda: app.sent, 5, "the OK sent by itself")
    assert [m["action"] for m in app.sent] == [{"type": "confirm"}]


@pytest.mark.parametrize(("app_of", "notations"), [
    (lambda: ScreenApp("your_turn"), ["▒", "█", "St", "⚖", "P/M", "◆", "†", "⊔", "score", "⏱"]),
    (lambda: HraniceViewApp("reaction"), ["✋", "●", "○", "(n)", "+3 Name", "Pyre", "⏱"]),
    (lambda: FangApp(fang_busy_view()), ["★", "◇", "✓", "…", "☾", "⏱"]),
])
async def test_every_notation_on_the_table_is_explained_in_help(app_of: Any,
                                                               notations: list[str]) -> None:
    app = app_of()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await wait_until(pilot, lambda: hasattr(app.screen, "help_notes")
                                  and app.screen, 5)
        notes = screen.help_notes()
        await pilot.press("question_mark")
        pane = await wait_until(pilot, lambda: screen.help_open and screen.query_one(HelpPane),
                                3)
        await pilot.pause(0.3)
        fits = pane.max_scroll_y == 0  # item 8: the help needs no scrolling at 120×40
    for mark in notations:
        assert mark in notes, mark
    assert fits


@pytest.mark.parametrize("lang", ["hu", "de", "cs"])
@pytest.mark.parametrize("game", ["hexenhammer", "hranice", "fang"])
async def test_help_needs_no_scrolling_at_120x40_in_every_language(game: str, lang: str) -> None:
    """Item 8 beyond English: the longer languages' help fits 120×40 too."""
    from hexnet import i18n

    apps = {"hexenhammer": lambda: ScreenApp("your_turn", lang=lang),
            "hranice": lambda: HraniceViewApp("reaction", lang=lang),
            "fang": lambda: FangApp(fang_busy_view(), lang=lang)}
    app = apps[game]()
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            screen = await wait_until(pilot, lambda: hasattr(app.screen, "help_notes")
                                      and app.screen, 5)
            await pilot.press("question_mark")
            pane = await wait_until(pilot, lambda: screen.help_open
                                    and screen.query_one(HelpPane), 3)
            await pilot.pause(0.3)
            assert i18n.language() == lang
            assert pane.max_scroll_y == 0, (game, lang, pane.max_scroll_y)
    finally:
        i18n.set_language("en")


# -- item 8: the small things ----------------------------------------------------------------
async def test_a_host_error_toast_is_titled_in_words_not_by_its_code() -> None:
    from client import messages as m

    app = ScreenApp("lobby")
    async with app.run_test(size=(80, 24)) as pilot:
        app.post_message(m.HostError("table_full", "Table 1 has no empty seat."))
        await wait_until(pilot, lambda: list(app._notifications), 3)
        toast = list(app._notifications)[0]
    assert toast.title == "Not possible"
    assert toast.message == "That table has no empty seat."


# The too-small notice (below 40×20 since the one-column layout): tests/client/test_layouts.py


async def test_fang_proposal_vote_has_yes_and_no_in_the_bottom_bar_a_tap_votes() -> None:
    from textual.widgets._footer import FooterKey

    view, _legal = fang_busy_view()
    vote = copy.deepcopy(view)
    vote.update(scene="proposal_vote", members=[2, 4], chief=2)
    app = FangApp((vote, [{"type": "vote_proposal", "yes": True},
                          {"type": "vote_proposal", "yes": False}]))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, FangScreen), 5)
        keys = await wait_until(pilot, lambda: {k.key: k for k in app.screen.query(FooterKey)
                                                if k.key in ("y", "n")}, 5, "y and n")
        assert "y Yes" in rows(screen_text(app))[-1] and "n No" in rows(screen_text(app))[-1]
        await pilot.pause(1.0)  # the bar settles (it is composed again as bindings change)
        for _tap in range(5):  # a tap on a bar just being composed again misses: tap again
            yes = await wait_until(pilot, lambda: next(
                (k for k in app.screen.query(FooterKey) if k.key == "y"), None), 5,
                "y in the settled bar")  # (a bar being composed has no keys for a moment)
            assert keys and "Yes" in yes.description
            await pilot.click(yes)
            with contextlib.suppress(AssertionError):
                await wait_until(pilot, lambda: app.sent, 2, "the vote")
                break
        assert app.sent, "five taps on y sent no vote"
    assert app.sent[0]["action"] == {"type": "vote_proposal", "yes": True}


async def test_fang_bottom_bar_has_no_yes_or_no_outside_the_proposal_vote() -> None:
    app = FangApp(fang_busy_view())
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, FangScreen), 5)
        await wait_until(pilot, lambda: "Quit" in rows(screen_text(app))[-1], 5, "the key bar")
        assert "Yes" not in rows(screen_text(app))[-1]


async def test_fang_bottom_bar_while_keys_wait_hides_keys_that_do_not_fit_and_keeps_quit(
        ) -> None:
    """Seen in tmux at 80×24: during the ⏸ moment after a new question the bar showed
    ``y Yes n No`` and ``s See/steal`` outside a vote and cut ``^q Quit`` to ``^q``."""
    app = FangApp(fang_busy_view())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_until(pilot, lambda: isinstance(app.screen, FangScreen)
                                  and app.screen, 5)
        await wait_until(pilot, lambda: "Quit" in rows(screen_text(app))[-1], 5, "the key bar")
        screen.guard.arm(60.0)  # keys wait (a moment that outlasts a loaded machine)
        screen.refresh_bindings()
        assert screen.check_action("vote_yes", ()) is False
        await pilot.pause(0.3)
        bar = await wait_until(pilot, lambda: next(
            (line for line in rows(screen_text(app))[-1:] if "Quit" in line), None), 5,
            "the key bar repainted")
    assert "Yes" not in bar and "No" not in bar
    assert bar.rstrip().endswith("^q Quit")


async def test_a_list_answered_twice_closes_once_and_the_table_stays() -> None:
    """Enter and Esc on a list in the same moment (random keys): only the list closes — the
    table screen under it used to close itself as well."""
    app = ScreenApp("your_turn")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_until(pilot, lambda: isinstance(app.screen, HexenhammerScreen)
                                  and app.screen, 5)
        await pilot.press("a")
        picker = await wait_until(pilot, lambda: isinstance(app.screen, Picker) and app.screen, 3)
        picker.action_cancel()
        picker.action_cancel()  # a second answer to the same list
        await pilot.pause(0.3)
        assert app.screen is screen
        assert screen in app.screen_stack


async def test_a_lobby_update_reaching_a_table_screen_whose_widgets_are_going_changes_nothing(
        ) -> None:
    """A watcher's table screen being taken away (she watches again after her connection
    dropped) still gets the lobby's news of who watches: its status line is gone, and the news
    must not crash the client (it did: ``NoMatches`` for ``#status`` in ``on_lobby_changed``)."""
    app = ScreenApp("your_turn")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_until(pilot, lambda: isinstance(app.screen, HexenhammerScreen)
                                  and app.screen.query("#status") and app.screen, 10)
        screen.set_link("Reconnecting…")
        assert "Reconnecting…" in str(screen.query_one("#status").render())
        await screen.query_one("#status").remove()  # as when the screen's widgets go
        screen.set_link("")
        screen._redraw_status()
        assert screen.link_note == ""
        assert app.is_running


@pytest.mark.parametrize("game", ["hexenhammer", "fang", "hranice"])
async def test_news_of_the_table_while_its_screen_is_taken_away_changes_nothing(
        game: str) -> None:
    """A view, a lobby update, a chat line, a lost connection arriving at each moment while the
    table screen closes (its widgets go one by one) or after (the app keeps the screen without
    them): nothing is drawn, nothing crashes (a view reaching a closing screen raised
    ``NoMatches`` for ``#status`` under load)."""
    app = {"hexenhammer": lambda: ScreenApp("your_turn"),
           "fang": lambda: ScreenApp("fixed", game="fang",
                                     source=SimpleNamespace(fixed_view=fang_busy_view)),
           "hranice": lambda: HraniceViewApp("table")}[game]()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_until(pilot, lambda: app.screen is app.table_screen
                                  and app.screen.query("#status") and app.screen, 10)
        view, legal = screen.view, screen.legal
        app.pop_screen()
        for moment in range(500):  # every step of the closing, and a few after it
            screen.update_view(view, legal)
            screen.set_link("Reconnecting…")
            screen.add_chat("Bea", "hi", "table")
            screen.add_note("a note")
            if isinstance(screen, FangScreen):
                screen.redraw()
            if not screen.is_attached and moment > 20:
                break
            await asyncio.sleep(0)
        screen.connection_lost("gone")
        assert not screen.is_attached
        assert app.is_running and app.screen is app.lobby_screen
