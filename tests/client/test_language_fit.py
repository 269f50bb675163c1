"""Every language fits the 80×24 screen: the key bar keeps its last key (Quit) on the screen, the
first-contact dialog wraps its sentences instead of cutting them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from client.screens.fingerprint import FingerprintScreen
from client.screens.lobby import LobbyScreen
from client.screens.table_base import TableScreen
from client.widgets.footer import LocalFooter
from hexnet import i18n
from tests.client.conftest import screen_text, wait_until
from tests.client.harness import ScreenApp
from tests.client.hranice_views import HraniceViewApp
from tests.client.test_fang_screen import FangViewApp, day_view


def replay(lang: str) -> Any:
    from argparse import Namespace

    from client.replay import load
    from client.replay.app import ReplayApp
    from tests.client.test_replay_screen import JOURNAL

    found, _verdict = load(Namespace(journal=str(JOURNAL), seat="Bert", all=False))
    return ReplayApp(found, "verified", lang=lang)


APPS: dict[str, Callable[[str], Any]] = {
    "replay": replay,
    "lobby": lambda lang: ScreenApp("lobby", lang=lang),
    "hexenhammer": lambda lang: ScreenApp("your_turn", lang=lang),
    "fang": lambda lang: FangViewApp(*day_view(), lang=lang),
    "hranice": lambda lang: HraniceViewApp("table", lang=lang),
}


@pytest.mark.parametrize("lang", i18n.LANGS)
@pytest.mark.parametrize("where", sorted(APPS))
async def test_the_key_bar_keeps_quit_on_an_80_column_screen(where: str, lang: str) -> None:
    app = APPS[where](lang)
    wanted = LobbyScreen if where == "lobby" else TableScreen
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_until(pilot, lambda: isinstance(app.screen, wanted) and app.screen,
                                  what="the screen")
        footer = screen.query_one(LocalFooter)
        quit_key = f"^q {i18n._('Quit')}"
        bottom = await wait_until(
            pilot, lambda: (line := screen_text(app).rstrip("\n").split("\n")[-1])
            and quit_key in line and line, what="the key bar with Quit")
        assert bottom.rstrip().endswith(quit_key), bottom
        # roomy where it fits (English, mostly), compact only where the words need it
        assert footer.compact == (footer._roomy_width > 80)


@pytest.mark.parametrize("lang", i18n.LANGS)
async def test_the_first_contact_dialog_shows_every_word(lang: str) -> None:
    app = ScreenApp("lobby", lang=lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, LobbyScreen), what="the lobby")
        app.push_screen(FingerprintScreen("127.0.0.1:7878", "ABCD-EFGH-IJKL-MNOP"))
        await wait_until(pilot, lambda: isinstance(app.screen, FingerprintScreen),
                         what="the dialog")
        await pilot.pause()
        text = " ".join(screen_text(app).split())
        sentences = i18n._("Compare it with the fingerprint on the host's screen.\n"
                           "It will be remembered; a changed key will be refused.")
        for sentence in sentences.split("\n"):
            assert sentence.split()[-1] in text, (sentence, text)


@pytest.mark.parametrize(("lang", "pace", "counted"), [
    ("en", "Hexenhammer (quick pace, panic phase 30 s, reaction window 5 s)",
     "relaxed pace, reaction window 9 s, watchers 1 action behind"),
    ("hu", "Hexenhammer (gyors tempó, pánikfázis 30 mp, reakcióidő 5 mp)",
     "nyugodt tempó, reakcióidő 9 mp, a nézők 1 lépéssel lemaradva"),
    ("de", "Hexenhammer (Tempo schnell, Panikphase 30 s, Reaktionsfenster 5 s)",
     "Tempo gemütlich, Reaktionsfenster 9 s, Zuschauer 1 Aktion zurück"),
    ("cs", "Hexenhammer (rychlé tempo, fáze paniky 30 s, reakční okno 5 s)",
     "klidné tempo, reakční okno 9 s, diváci 1 akci pozadu")])
def test_a_tables_options_read_in_the_readers_words(lang: str, pace: str, counted: str) -> None:
    """The lobby shows a pace with the seconds it sets (issue 14), elsewhere a pace alone and a
    timing changed from the pace's, and a count in the language's plural form; never an
    option's raw name."""
    from client.options_words import options_text
    from client.screens.lobby import game_text

    i18n.set_language(lang)
    try:
        table = {"game": "hexenhammer", "title": "Hexenhammer",
                 "options": {"pace": "quick", "reaction_seconds": 5.0, "panic_seconds": 30.0}}
        assert game_text(table) == pace
        options = {"pace": "relaxed", "panic_seconds": 90.0, "reaction_seconds": 9,
                   "watch_delay": 1}
        assert options_text("hexenhammer", options) == counted
        if lang == "cs":  # three forms: 1 akci, 3 akce, 5 akcí
            assert [options_text(None, {"watch_delay": n}) for n in (1, 3, 5)] == [
                "diváci 1 akci pozadu", "diváci 3 akce pozadu", "diváci 5 akcí pozadu"]
    finally:
        i18n.set_language("en")


def test_the_fair_play_findings_read_in_the_readers_language() -> None:
    """The check of a table's randomness says what it found in the reader's words (the replay's
    header, the results screen), English stays in ``lines`` for ``hexnet verify`` and logs."""
    from client.fairplay import fair_play_line, verdict_lines
    from hexnet.fairness import commitment, events_digest, verify_game
    from hexnet.games import get_game

    game = get_game("hexenhammer")
    players, seed, salt = ["a", "b", "c"], b"\1" * 32, b"s" * 16
    agreed = {"reaction_seconds": 30}
    state = game.setup(players, seed, agreed)
    steps = []
    for _step in range(3):
        seat = game.waiting_for(state)[0]
        action = game.legal_actions(state, seat)[0]
        steps.append((seat, action, events_digest(game.apply(state, seat, action))))
    committed = commitment(seed, salt, agreed)
    good = verify_game(game, players, agreed, seed, salt, committed, steps)
    idle = next(s for s in range(3) if s != steps[0][0])
    refused = verify_game(game, players, agreed, seed, salt, committed,
                          [(idle, steps[0][1], None)])
    i18n.set_language("de")
    try:
        assert verdict_lines(good)[1:] == [
            "Alle 3 Schritte lassen sich mit denselben öffentlichen Ereignissen nachspielen.",
            "Vereinbarte Optionen: Reaktionsfenster 30 s."]
        assert verdict_lines(refused)[-1] == (
            "Schritt 1 ist beim Nachspielen nicht erlaubt: "
            + i18n.render_reason("hexenhammer", {"key": "not_your_turn"}, players))
        assert "Schritt 1 ist beim Nachspielen nicht erlaubt" in fair_play_line(refused, committed)
        i18n.set_language("cs")
        assert verdict_lines(good)[1] == "Všechny 3 kroky se přehrají se stejnými veřejnými " \
                                         "událostmi."
    finally:
        i18n.set_language("en")
    assert good.lines[1:] == ["All 3 steps replay with identical public events.",
                              "Agreed options: reaction_seconds 30."]
    assert refused.lines[-1].startswith("Step 1 is not legal on replay: ")


def test_every_refusal_the_host_can_send_has_words_in_the_client() -> None:
    """A lobby refusal shows in the reader's language (by its code), never as the host's
    English sentence — except the few whose host sentence is the point (an option's bounds)."""
    import re
    from pathlib import Path

    from client.refusals import CODE_WORDS, HOST_WORDED

    root = Path(__file__).resolve().parents[2]
    pattern = re.compile(r"(?:_error|error|refuse|LobbyError)\(\s*(?:conn_id,\s*)?\"([a-z_]+)\"")
    codes = {code for folder in ("host", "protocol") for path in (root / folder).glob("*.py")
             for code in pattern.findall(path.read_text("utf-8"))}
    assert {"table_full", "too_many_watchers", "registration_closed"} <= codes  # the scan works
    assert codes - set(CODE_WORDS) - set(HOST_WORDED) == set()
    for lang in i18n.LANGS[1:]:
        i18n.set_language(lang)
        try:
            assert all(i18n._(words) != words for words in CODE_WORDS.values()), lang
        finally:
            i18n.set_language("en")


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_hexenhammer_boards_words_fit_their_columns(lang: str) -> None:
    """The villager table's owner column (7 cells), a dead villager's note in the 18-cell
    suspicion column (with a 7-cell name), the score table's row labels (13 cells)."""
    from rich.cells import cell_len

    from client.widgets.hexenhammer_board import PARTS, fate

    i18n.set_language(lang)
    try:
        assert cell_len(i18n._("Owner")) <= 7
        view = {"taken": [[], ["karl"]]}
        for vid in ("karl", "berta"):  # taken by a player, burned
            assert cell_len(fate(view, vid, lambda seat: "Dietmar")) <= 18, fate(
                view, vid, lambda seat: "Dietmar")
        for _key, label in PARTS:
            assert cell_len(i18n._(label)) <= 13, i18n._(label)
    finally:
        i18n.set_language("en")


def test_the_fair_play_line_names_the_agreed_pace_alone_when_the_game_is_known() -> None:
    from client.fairplay import fair_play_line
    from hexnet.fairness import Verdict

    agreed = {"pace": "quick", "reaction_seconds": 5.0, "panic_seconds": 30.0}
    verdict = Verdict(True, ["…"], options=agreed)
    i18n.set_language("hu")
    try:
        assert fair_play_line(verdict, "ab" * 32, "hexenhammer").endswith(
            "megállapodás: gyors tempó")
        assert fair_play_line(verdict, "ab" * 32).endswith(
            "megállapodás: gyors tempó, pánikfázis 30 mp, reakcióidő 5 mp")
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("lang", ["hu", "de"])
async def test_a_wrong_room_code_is_said_in_the_readers_language_and_the_dialog_fits(
        tmp_path, lang: str) -> None:
    """Issue 26, item 5: the host's refusal of a code is said in the client's language (it was
    English in the Hungarian client) and the dialog's sentences wrap at 80 columns instead of
    being cut (Hungarian and German)."""
    from client.app import HexnetApp
    from client.screens.code import CodeScreen
    from host.server import Host

    host = Host("Vendégház", tmp_path / "cfg", tmp_path / "data", open=False)
    await host.start(bind="127.0.0.1", port=0)
    try:
        app = HexnetApp(target=("127.0.0.1", host.port), name="Ada", lang=lang,
                        code="ABCDE-FGHJK", config_dir=str(tmp_path / "ada"),
                        fingerprint=host.fingerprint)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, CodeScreen)
                             and app.screen.query(".problem"), what="the code asked again")
            await pilot.pause()
            text = " ".join(screen_text(app).split())
            assert i18n._("That room code is not this host's.") in text, text
            assert "That room code is not this host's." not in text
            prompt = i18n._("Type the code the host's screen shows (e.g. ABCDE-FGHJK).")
            assert prompt.split()[-1] in text, (prompt, text)
    finally:
        await host.stop()


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "reaction window untimed, variant tutorial"),
    ("hu", "reakcióidő korlát nélkül, változat: bevezető")])
def test_an_untimed_window_reads_untimed_not_0_s(lang: str, said: str) -> None:
    """Issue 26, item 7: the Hranice tutorial's results said "reaction window 0 s" (0 is no
    clock at all); so do a table's ``turn_seconds`` = 0, and a set one reads as seconds."""
    from client.options_words import options_text
    from hexnet.tutorial import load

    i18n.set_language(lang)
    try:
        assert options_text("hranice", load("hranice").options) == said
        assert options_text("hranice", {"turn_seconds": 0}) == i18n._("decisions untimed")
        assert options_text("hranice", {"turn_seconds": 60}) == i18n._(
            "each decision {value} s").format(value=60)
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_busy_line_of_room_codes_is_said_in_every_language_with_its_wait(lang: str) -> None:
    # (not "too many wrong room codes from you": the player sent none)
    from client.errors import code_refusal

    i18n.set_language(lang)
    try:
        busy = code_refusal("busy", "Too many room codes at once from your address; try again "
                                    "in 1 s.")
        wrong = code_refusal("rate_limited", "Too many wrong room codes from you; try again in "
                                             "30 s.")
    finally:
        i18n.set_language("en")
    assert " 1 " in busy and " 30 " in wrong and busy != wrong
    english = ("The host is checking too many room codes from your address at once; try "
               "again in 1 s.")
    assert (busy == english) if lang == "en" else (busy != english)  # (translated)
