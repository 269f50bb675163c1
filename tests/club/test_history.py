"""``hexnet host --no-history`` (issue 28): a real host keeps no finished game's journal (and so
nothing a club database could be built from), while a host with history keeps them; the start
line says which."""

from __future__ import annotations

from pathlib import Path

import pytest

from hexnet.cli import build_parser
from host.cli import make_host
from tests.waiting import eventually

pytestmark = pytest.mark.timeout(60)


async def play_one_bot_game(tmp_path: Path, *flags: str) -> Path:
    """A host made from the command line plays a short Hranice game of two host bots; its
    journals folder after the end."""
    args = build_parser().parse_args(["host", "--no-mdns", "--bind", "127.0.0.1", "--port", "0",
                                      "--config-dir", str(tmp_path / "cfg"), "--data-dir",
                                      str(tmp_path / "data"), "--bot-delay", "0", *flags])
    host = make_host(args, log=lambda line: None)
    await host.start(args.bind, 0)
    try:
        table = host.lobby.create_table("hranice", 2, {"variant": "tutorial"})
        host.lobby.add_bot(table)
        host.lobby.add_bot(table)
        host.lobby.start(table)
        # (the journal is kept or deleted as the game ends: the same effects that end it)
        await eventually(lambda: host.lobby.tables[table].status == "over", "the game's end")
    finally:
        await host.stop()  # (it finishes what the history is doing with the closed journal)
    return tmp_path / "data" / "journals"


async def test_a_host_with_no_history_deletes_each_finished_games_journal(tmp_path) -> None:
    journals = await play_one_bot_game(tmp_path, "--no-history")
    assert list(journals.glob("*.journal")) == []
    assert not (tmp_path / "data" / "club").exists()


async def test_a_host_keeps_finished_journals_by_default(tmp_path) -> None:
    journals = await play_one_bot_game(tmp_path)
    assert len(list(journals.glob("*.journal"))) == 1


def test_the_host_says_whether_it_keeps_history_and_how_to_forget(tmp_path) -> None:
    parse = build_parser().parse_args
    data = str(tmp_path / "d")

    def line(*flags: str) -> str:
        host = make_host(parse(["host", "--no-mdns", "--config-dir", str(tmp_path / "c"),
                                "--data-dir", data, *flags]), log=lambda line: None)
        return host.history.line()

    assert line() == (
        f"history: finished games kept (their journals, indexed with ratings in {data}/club/"
        "club.db: hexnet stats); a player is forgotten with hexnet stats --forget KEY; "
        "--no-history keeps none")
    assert line("--no-history") == (
        "history: none kept (--no-history): no ratings, and each finished game's journal is "
        "deleted")


async def test_the_host_screen_says_it_keeps_history_and_how_to_forget(tmp_path) -> None:
    from host.dashboard import Dashboard
    from host.server import Host

    host = Host("Dash", tmp_path / "cfg", tmp_path / "data", games=["hranice"])
    app = Dashboard(host)
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        info = str(app.query_one("#info").render()).replace("\n", " ")
        assert "history: finished games kept" in info
        assert "hexnet stats --forget KEY" in info and "--no-history keeps none" in info
        await pilot.press("q")
        await pilot.pause()
