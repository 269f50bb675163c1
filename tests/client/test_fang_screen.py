"""The Fang table in the client: Pilot tests against a real embedded host (TLS, protocol,
engine, host-side bots), and snapshots at 80×24 of engine-made views (fixed scenario and seed)."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from rich.console import Console
from textual.widgets import OptionList, Static

from client.app import AutoSeat, HexnetApp
from client.screens.fang import FangScreen
from client.screens.fang_results import FangResultsScreen
from client.screens.picker import Picker
from client.widgets.fang_choices import proposal_action, proposal_seats
from client.widgets.fang_village import cats_table, hand_text, role_text, seat_marks
from hexnet.games.fang import GAME
from host.server import Host
from tests.client.conftest import asked, wait_until

# Ada (seat 0) is the seer and the first chief; seats 1 and 4 are witches. Short windows keep
# the test fast: the witches' window and the "who was it?!" pause always run.
ROLES = ["seherin", "hexe", "dorfkatze", "beschuetzer", "hexe", "kraeuterkundige"]
FAST = {"witches_seconds": 1, "pause_seconds": 0.3}


def scenario(**extra: Any) -> dict[str, Any]:
    return {"roles": ROLES, "ready": True, "chief": 5, "required": ["pilz", "quellwasser"],
            "hands": [["pilz"], [], [], [], [], []], **extra}


class RecordingApp(HexnetApp):
    """The real app; every message it sends to the host is also kept for the test to read."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.sent: list[dict[str, Any]] = []

    async def send(self, msg: dict[str, Any]) -> None:
        self.sent.append(msg)
        await super().send(msg)


async def start_host(tmp_path: Any, options: dict[str, Any], seed: int) -> tuple[Host, int]:
    host = Host("Fanghaus", tmp_path / "host-cfg", tmp_path / "host-data", open=True,
                bot_delay=0.0)
    await host.start(bind="127.0.0.1", port=0)
    table = host.lobby.create_table("fang", 6, options, seed=seed)
    # the host's bots draw from the OS generator; here from a fixed one, so their choices
    # (who the witches frog, how they vote) are the same every run
    host.lobby.tables[table].bot_rng = random.Random(seed)
    for seat in range(1, 6):
        host.lobby.add_bot(table, seat, "heuristic")
    return host, table


def client(host: Host, table: int, tmp_path: Any) -> RecordingApp:
    return RecordingApp(target=("127.0.0.1", host.port), name="Ada",
                        config_dir=str(tmp_path / "ada"), fingerprint=host.fingerprint,
                        auto_seat=AutoSeat(table, seat=0))


def text_of(screen: FangScreen, wid: str) -> str:
    """What the Static ``wid`` shows, as plain text."""
    console = Console(width=60, no_color=True, file=io.StringIO(), record=True)
    console.print(screen.query_one(wid, Static).content)
    return console.export_text()


def choice_labels(screen: FangScreen) -> list[str]:
    box = screen.query_one("#fang-choices", OptionList)
    return [str(box.get_option_at_index(i).prompt) for i in range(box.option_count)]


async def choose(pilot: Any, screen: FangScreen, wanted: str) -> None:
    """Move the cursor in the choice list to the entry containing ``wanted`` and press Enter."""
    box = screen.query_one("#fang-choices", OptionList)
    box.focus()
    labels = await wait_until(pilot, lambda: [lab for lab in choice_labels(screen)
                                              if wanted in lab] and choice_labels(screen),
                              what=lambda: f"{wanted!r} in {choice_labels(screen)}")
    index = next(i for i, label in enumerate(labels) if wanted in label)
    box.highlighted = 0
    for _ in range(index):
        await pilot.press("down")
    await wait_until(pilot, lambda: asked(screen), what="keys answering")
    await pilot.press("enter")


async def answer(pilot: Any, screen: FangScreen, key: str) -> None:
    """Press ``key`` once the table takes answers (keys wait a moment after the question
    changed — client/widgets/guard.py — and a key pressed then only rings the bell)."""
    await wait_until(pilot, lambda: asked(screen), what=f"keys answering before {key!r}")
    await pilot.press(key)


def scene(screen: FangScreen, *names: str) -> bool:
    return screen.view.get("scene") in names and asked(screen)


@pytest.mark.slow
@pytest.mark.timeout(60)
async def test_seer_plays_a_day_and_a_night_by_keyboard(tmp_path: Any) -> None:
    host, table = await start_host(tmp_path, {"scenario": scenario(), **FAST}, seed=3)
    app = client(host, table, tmp_path)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await wait_until(pilot, lambda: isinstance(app.screen, FangScreen)
                                      and asked(app.screen) and app.screen.query("#fang-role")
                                      and app.screen, what="the table")
            # The role card starts face down; r turns it; p says ready.
            assert "Seherin" not in text_of(screen, "#fang-role")
            await pilot.press("r")
            assert "Seherin (seer)" in text_of(screen, "#fang-role")
            assert "Pilz" in text_of(screen, "#fang-hand")
            await answer(pilot, screen, "p")

            # The day: pick the Wald (hidden, changeable), then change it to the Brunnen.
            await wait_until(pilot, lambda: scene(screen, "pick"), what="the place pick")
            assert "Knights" not in text_of(screen, "#fang-village")
            assert "Tonight: Pilz, Quellwasser" in text_of(screen, "#fang-village")
            await choose(pilot, screen, "Wald → Pilz")
            await wait_until(pilot, lambda: {"type": "pick", "place": "wald"} in [
                m["action"] for m in app.sent if m["type"] == "act"], what="the pick sent")

            # Evening: the duck's announcement is confirmed with p.
            await wait_until(pilot, lambda: scene(screen, "announce"), 10, "the evening")
            assert text_of(screen, "#fang-scene").startswith("The duck:")
            await answer(pilot, screen, "p")

            # The talk: the seer looks at seat 1 (s, then the picker), then ends the talk.
            await wait_until(pilot, lambda: scene(screen, "talk"), what="the talk")
            await answer(pilot, screen, "s")
            choices = await wait_until(pilot, lambda: isinstance(app.screen, Picker) and (
                app.screen.query(OptionList).first() if app.screen.query(OptionList) else None),
                what="the seer's picker with its choices")
            assert "bot 2" in str(choices.get_option_at_index(0).prompt)
            await pilot.press("enter")
            await wait_until(pilot, lambda: screen.view.get("seen"), what="the seer's result")
            assert "Seen on day 1: bot 2 is a witch" in text_of(screen, "#fang-role")
            await answer(pilot, screen, "p")

            # The night: Ada is chief; she toggles herself and Cat 3 and proposes them.
            await wait_until(pilot, lambda: scene(screen, "proposal"), what="the proposal")
            assert "You are village chief: choose exactly 2" in text_of(screen, "#fang-scene")
            await choose(pilot, screen, "Ada (you)")
            await choose(pilot, screen, "bot 3")
            assert "[x] bot 3" in choice_labels(screen)
            await choose(pilot, screen, "→ Propose these 2/2")

            # Yes/no: y votes yes; until all have voted only ✓ marks show, then the votes.
            await wait_until(pilot, lambda: scene(screen, "proposal_vote"), what="the vote")
            assert "Proposed: Ada (you), bot 3" in text_of(screen, "#fang-scene")
            await answer(pilot, screen, "y")
            await wait_until(pilot, lambda: screen.view.get("scene") == "proposal_result",
                             what="the proposal result")
            cats = text_of(screen, "#fang-cats")
            assert "yes" in cats and "✓" not in cats
            await answer(pilot, screen, "p")

            # Should the bots reject it, the next chiefs propose: Ada votes yes until the ritual
            # (or the full curse bar) comes.
            for _ in range(6):
                now = await wait_until(pilot, lambda: scene(
                    screen, "proposal_vote", "proposal_result", "ritual", "vote")
                    and screen.view["scene"], what="the ritual")
                if now in ("ritual", "vote"):
                    break
                await answer(pilot, screen, "y" if now == "proposal_vote" else "p")
                await wait_until(pilot, lambda n=now: screen.view.get("scene") != n, what=now)

            # The ritual: Ada lays her Pilz; then the vote, where she votes for the witch she saw.
            if screen.view["scene"] == "ritual":
                await choose(pilot, screen, "Lay Pilz")
                await wait_until(pilot, lambda: scene(screen, "ritual_result"), what="result")
                assert "ritual" in text_of(screen, "#fang-scene")
                await answer(pilot, screen, "p")
            await wait_until(pilot, lambda: scene(screen, "vote"), what="the vote")
            assert "Abstain" in choice_labels(screen)
            await choose(pilot, screen, "Banish bot 2")
            await wait_until(pilot, lambda: screen.view.get("scene") == "vote_result"
                             or screen.view.get("outcome"), what="the vote's result")
            votes = next(e for e in screen.view["log"] if e.get("kind") == "vote_result")
            assert "Ada → bot 2" in screen.event_text(votes)
    finally:
        await host.stop()


@pytest.mark.timeout(60)
async def test_witch_sees_cat_counts_attacks_and_whispers(tmp_path: Any) -> None:
    roles = ["hexe", "seherin", "dorfkatze", "beschuetzer", "hexe", "kraeuterkundige"]
    options = {"scenario": {**scenario(), "roles": roles}, **FAST, "witches_seconds": 20}
    host, table = await start_host(tmp_path, options, seed=4)
    app = client(host, table, tmp_path)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await wait_until(pilot, lambda: isinstance(app.screen, FangScreen)
                                      and asked(app.screen) and app.screen.query("#fang-role")
                                      and app.screen, what="the table")
            await pilot.press("r")
            assert "Witches: bot 5 · w: whisper" in text_of(screen, "#fang-role")
            await answer(pilot, screen, "p")
            # The witches' window: places with cat counts (and the pond), spell, attack.
            await wait_until(pilot, lambda: scene(screen, "witches"), 15, "the witches' window")
            labels = choice_labels(screen)
            assert any(label.startswith("Teich (pond) · ") for label in labels), labels
            assert sum(screen.view["cat_counts"].values()) == 4  # the non-witches
            await choose(pilot, screen, "Wald → Pilz")
            await choose(pilot, screen, "No spell")
            await choose(pilot, screen, "Attack bot 2")
            await wait_until(pilot, lambda: screen.view.get("scene") != "witches",
                             what="the end of the day")
            # The whisper: w switches the chat to the witches' channel.
            await pilot.press("w", "c", *"bot 2 is the seer", "enter")
            await wait_until(pilot, lambda: any(m["type"] == "chat" for m in app.sent),
                             what="the whisper sent")
            await pilot.pause()  # idle: nothing more is on its way
            chats = [m for m in app.sent if m["type"] == "chat"]
            assert chats == [{"type": "chat", "text": "bot 2 is the seer", "channel": "witches"}]
    finally:
        await host.stop()


# -- snapshots of engine-made views -------------------------------------------------------

PLAYERS = ["Ada", "Bela", "Cora", "Dan", "Eli", "Fritz"]


class FangViewApp(HexnetApp):
    """The Fang table from one fixed view of seat 0, without a host; sends are dropped."""

    def __init__(self, view: dict[str, Any], legal: list[dict[str, Any]],
                 lang: str = "en") -> None:
        super().__init__(target=None, name="Ada", lang=lang)
        self.fixed = (view, legal)

    def begin(self) -> None:
        self.push_screen(self.lobby_screen)
        self.views[1] = self.fixed
        self.open_table(1)

    async def send(self, msg: dict[str, Any]) -> None:
        return None


def day_view() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Day 2, the herbalist's place pick: one frog, one banished witch, a seal, a failed ritual."""
    sc = {"roles": ["kraeuterkundige", "hexe", "seherin", "dorfkatze", "hexe", "beschuetzer"],
          "day": 2, "frogs": [3], "banished": [1], "seals": 1, "failed": 1,
          "required": ["pilz", "salbei", "quellwasser"], "hands": [["pilz", "mehl"]]}
    state = GAME.setup(PLAYERS, seed=1, options={"scenario": sc})
    GAME.apply(state, 2, {"type": "pick", "place": "wald"})
    return GAME.view(state, 0), GAME.legal_actions(state, 0)


def over_view() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A random game of six (fixed seeds) played to its end."""
    state = GAME.setup(PLAYERS, seed=8, options={"witches_seconds": 1})
    rng = random.Random(8)
    for _ in range(2000):
        if GAME.outcome(state):
            break
        waiting = GAME.waiting_for(state)
        if not waiting:
            GAME.apply(state, None, {"type": "timeout", "key": GAME.deadline(state).key})
            continue
        GAME.apply(state, waiting[0], rng.choice(GAME.legal_actions(state, waiting[0])))
    assert GAME.outcome(state)
    return GAME.view(state, 0), []


@pytest.mark.usefixtures("frozen_clock")
def test_fang_day_shows_village_role_cats_and_places(snap_compare) -> None:
    assert snap_compare(FangViewApp(*day_view()), terminal_size=(80, 24), press=["r"])


@pytest.mark.usefixtures("frozen_clock")
def test_fang_results_reveal_every_role(snap_compare) -> None:
    app = FangViewApp(*over_view())

    async def results_up(pilot: Any) -> None:
        await wait_until(pilot, lambda: isinstance(app.screen, FangResultsScreen), 5,
                         "the results")

    assert snap_compare(app, terminal_size=(80, 24), run_before=results_up)


# -- what the screen shows from a view (engine-made, no host) -----------------------------

def plain(renderable: Any) -> str:
    console = Console(width=60, no_color=True, file=io.StringIO(), record=True)
    console.print(renderable)
    return console.export_text()


def test_role_card_hides_role_teammates_and_fluchkraut_until_turned() -> None:
    roles = ["hexe", "seherin", "dorfkatze", "beschuetzer", "hexe", "kraeuterkundige"]
    state = GAME.setup(PLAYERS, seed=2, options={"scenario": {"roles": roles}})
    view = GAME.view(state, 0)
    down = plain(role_text(view, False)) + plain(hand_text(view, False)) + plain(
        cats_table(view, False))
    assert "Hexe" not in down and "Fluchkraut" not in down and "Eli" in down
    up = plain(role_text(view, True)) + plain(hand_text(view, True))
    assert "Hexe (witch)" in up and "Witches: Eli" in up and "Fluchkraut" in up
    assert "Eli" in plain(cats_table(view, True)).split("Hexe")[0]


def test_cats_list_shows_who_voted_but_not_how_until_all_have() -> None:
    state = GAME.setup(PLAYERS, seed=2, options={"scenario": {"roles": ROLES, "chief": 5}})
    while GAME.view(state, 0)["scene"] != "proposal":
        seat = GAME.waiting_for(state)[0] if GAME.waiting_for(state) else None
        if seat is None:
            GAME.apply(state, None, {"type": "timeout", "key": GAME.deadline(state).key})
        else:  # every cat to the Wald, no attacks: nobody turns into a frog
            legal = GAME.legal_actions(state, seat)
            GAME.apply(state, seat, next((a for a in legal if a["type"] == "no_attack"),
                                         legal[0]))
    GAME.apply(state, 0, {"type": "propose", "members": "0,2"})
    GAME.apply(state, 1, {"type": "vote_proposal", "yes": False})
    GAME.apply(state, 2, {"type": "vote_proposal", "yes": True})
    marks = seat_marks(GAME.view(state, 0))
    assert marks[:3] == ["…", "✓", "✓"] and "yes" not in marks and "no" not in marks
    for seat in (0, 3, 4, 5):
        GAME.apply(state, seat, {"type": "vote_proposal", "yes": True})
    assert seat_marks(GAME.view(state, 0))[:3] == ["yes", "no", "yes"]


def test_chief_sends_a_proposal_only_when_it_names_exactly_a_legal_set() -> None:
    legal = [{"type": "propose", "members": m} for m in ("0,1", "0,2", "1,2")]
    assert proposal_seats(legal) == [0, 1, 2]
    assert proposal_action(legal, {0}) is None
    assert proposal_action(legal, {0, 1, 2}) is None
    assert proposal_action(legal, {2, 0}) == {"type": "propose", "members": "0,2"}


def test_a_day_summary_naming_your_role_reads_as_a_secret_while_the_card_is_down() -> None:
    from client.screens.fang import FangScreen

    screen = FangScreen(1)
    telling = {"n": 9, "key": "day_guard", "place": "wald", "kind": "day_summary",
               "names_role": True}
    plain_day = {"n": 9, "key": "day_collected", "place": "wald", "ingredient": "pilz",
                 "kind": "day_summary", "names_role": False}
    assert screen.event_text(telling) == "(a secret note — your role card, r)"
    assert screen.event_text(plain_day) == "You collected Pilz at Wald."
    screen.role_shown = True
    assert screen.event_text(telling) == "You guarded Wald and collected nothing."
