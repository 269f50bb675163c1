"""Issue 16's "done when": a guest with only a browser (headless Chromium, on the web door), a
guest with only ``ssh`` (OpenSSH's client in tmux, no key: the room code at the SSH prompt) and a
``hexnet join`` player (in tmux) play one table to the end on 127.0.0.1, each seeing only their
own hand, on a real host with both doors open."""

from __future__ import annotations

import asyncio
import os
import re
import shlex
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

pytest.importorskip("textual_serve", reason="needs hexnet[web] (textual-serve)")
pytest.importorskip("asyncssh", reason="needs hexnet[ssh] (asyncssh)")

from host.ssh import SSHDoor  # noqa: E402
from host.web import WebDoor  # noqa: E402
from protocol import tls  # noqa: E402
from tests.e2e.chromium import Chromium  # noqa: E402
from tests.e2e.frontdoor import cards_in, poll, seat_of  # noqa: E402
from tests.e2e.test_ssh_door import Tmux  # noqa: E402
from tests.e2e.test_web_door import join as browser_join  # noqa: E402
from tests.e2e.test_web_door import screen_of  # noqa: E402

pytestmark = [pytest.mark.timeout(300), pytest.mark.needs("chromium", "ssh", "tmux")]
HEXNET = Path(sys.executable).parent / "hexnet"
SHOTS = os.environ.get("HEXNET_SCREENSHOTS")  # keep the screenshot here (else tmp_path)


def shown_cards(text: str, cards: set[str]) -> set[str]:
    """Which of ``cards`` ``text`` names whole: ended as the toy's texts end a card (space,
    comma, dot, quote, bracket, the ⟧ closing an untranslated log line). A word cut by a list
    drawn over it ("plays c1┃" of c14) or by an ellipsis is not a card shown."""
    return {c for c in cards if re.search(rf"(?<![A-Za-z0-9]){c}(?=[ ,.'\])⟧])", text)}


class Player:
    """One player's terminal: its screen now, everything it showed while the game ran (at the
    end the host reveals the deal to every player: reads taken after it are not counted), and
    keys to send."""

    def __init__(self, name: str, screen: Callable[[], Awaitable[tuple[str, str, bool]]],
                 send: Callable[[str], Awaitable[None]], running: Callable[[], bool]) -> None:
        self.name, self._screen, self.send, self.running = name, screen, send, running
        self.seen = ""  # the screens read while the game ran
        self.received = ""  # everything the terminal received by the last of them

    async def screen(self) -> str:
        """The screen now. Kept in ``seen`` (and what the terminal received so far in
        ``received``) if it was settled (not caught mid-repaint) and the host had not ended the
        game when it was read."""
        now, received, settled = await self._screen()
        if settled and self.running():
            self.seen += now + "\x00"
            self.received = received
        return now

    async def wait(self, text: str, timeout: float = 30.0) -> str:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while text not in (now := await self.screen()):
            assert loop.time() < end, f"{self.name}: {text!r} never showed:\n{now}"
            await asyncio.sleep(0.2)
        return now


async def play_until_over(host, table: int, players: list[Player], timeout: float = 180.0,
                          max_moves: int = 120) -> int:
    """Whoever's screen says it is their move: ``a`` (every legal action), Enter (the first).
    Until the host says the table is over; the moves made."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    moves = 0
    while host.lobby.tables[table].status != "over":
        assert loop.time() < end, f"the table was not over within {timeout} s"
        assert moves < max_moves, f"still not over after {max_moves} moves"
        for p in players:
            screen = await p.screen()
            if "Your move" not in screen or "Every action you can take" in screen:
                continue
            await p.send("a")
            try:
                await p.wait("Every action you can take", 5.0)
            except AssertionError:
                continue  # nothing to do after all: a stale prompt
            await p.send("\r")
            moves += 1
        await asyncio.sleep(0.1)
    return moves


async def test_a_browser_guest_an_ssh_guest_and_a_join_player_play_one_table_each_seeing_only_their_hand(  # noqa: E501
        host, tmp_path) -> None:
    web = WebDoor(host, bind="127.0.0.1", port=0)
    ssh = SSHDoor(host, bind="127.0.0.1", port=0)
    await web.start()
    await ssh.start()
    table = host.lobby.create_table("toy", 3, {})
    known = tmp_path / "known_hosts"
    known.write_text(f"[127.0.0.1]:{ssh.port} "
                     f"{ssh.host_key.export_public_key('openssh').decode().strip()}\n")
    ssh_command = shlex.join([
        "ssh", "-t", "-p", str(ssh.port), "-F", "/dev/null", "-o", f"UserKnownHostsFile={known}",
        "-o", "StrictHostKeyChecking=yes", "-o", "PubkeyAuthentication=no",
        "-o", "PreferredAuthentications=keyboard-interactive", "-o", "IdentityAgent=none",
        "guest@127.0.0.1"])
    join_command = shlex.join([
        str(HEXNET), "join", f"127.0.0.1:{host.port}", "--name", "Jo", "--code",
        host.room_code, "--fingerprint", host.fingerprint_human,
        "--config-dir", str(tmp_path / "jo")])
    terminal = Tmux(f"hexnet-doors-ssh-{tmp_path.name[-10:]}")
    joiner = Tmux(f"hexnet-doors-join-{tmp_path.name[-10:]}")

    async def tmux_screen(t: Tmux) -> tuple[str, str, bool]:
        # a screen caught mid-repaint can show half of a word ("c1" of "c14"): a screen
        # counts as seen once read twice alike (the browser's check reads every byte)
        now = t.screen()
        return now, "", now == t.screen()

    def running() -> bool:
        return host.lobby.tables[table].status != "over"

    try:
        async with Chromium(tmp_path / "browser",
                            trust=tls.spki_base64(host.fingerprint)) as chromium:
            page = await chromium.new_page()

            async def page_screen() -> tuple[str, str, bool]:
                shown = await screen_of(page)
                return shown.screen(), shown.text, True  # (the page's every byte, decoded)

            async def page_send(keys: str) -> None:
                await (page.key("Enter") if keys == "\r" else page.type(keys))

            browser = Player("Wanda (browser)", page_screen, page_send, running)
            sam = Player("Sam (ssh)", lambda: tmux_screen(terminal), terminal.keys, running)
            jo = Player("Jo (hexnet join)", lambda: tmux_screen(joiner), joiner.keys, running)

            # The browser guest: the page, a name, the room code, a tap on the table: seated.
            await browser_join(page, f"https://127.0.0.1:{web.port}/", "Wanda", host.room_code)
            await page.tap(2, 2)
            await poll(lambda: any(s.name == "Wanda" for s in host.lobby.tables[table].seats),
                       15, "Wanda sitting down by touch")
            # The ssh guest: OpenSSH asks the room code, then the client asks the name.
            terminal.start(ssh_command)
            await sam.wait("Room code:")
            await sam.send(host.room_code + "\r")
            await sam.wait("Your name at the table")
            await sam.send("Sam\r")
            await sam.wait("You are Sam")
            await sam.send("s")
            await sam.wait("seated at table")
            # The hexnet join player sits and starts the table.
            joiner.start(join_command)
            await jo.wait("You are Jo")
            await jo.send("s")
            await jo.wait("seated at table")
            seats = host.lobby.tables[table].seats
            assert sorted(s.name for s in seats) == ["Jo", "Sam", "Wanda"]
            assert len({s.identity for s in seats}) == 3  # three identities
            await jo.send("g")
            await poll(lambda: host.lobby.tables[table].status == "playing", 15, "the start")

            state = host.lobby.state_of(table)
            names = {browser: "Wanda", sam: "Sam", jo: "Jo"}
            hands = {p: set(state["hands"][seat_of(host, table, n)]) for p, n in names.items()}
            for p in names:
                await poll_cards(p, hands[p])
                for other in names:
                    if other is not p:
                        assert shown_cards(p.seen, hands[other]) == set(), \
                            f"{p.name} saw {other.name}'s hand"
            for p in names:
                await p.wait("Your hand:")  # the table drawn whole: the log too
            shots = Path(SHOTS) if SHOTS else tmp_path
            shots.mkdir(parents=True, exist_ok=True)
            await page.screenshot(shots / "doors-together-browser.png")
            (shots / "doors-together-ssh.txt").write_text(terminal.screen())
            (shots / "doors-together-join.txt").write_text(joiner.screen())

            hidden = set(state["pile"])
            moves = await play_until_over(host, table, [browser, sam, jo])
            final = host.lobby.state_of(table)
            played = {c for p in final["played"] for c in p}
            for p, n in names.items():
                kept = {c for s, hand in enumerate(final["hands"])
                        if s != seat_of(host, table, n) for c in hand}
                # what stayed hidden to the end (the others' unplayed cards, the pile) never
                # reached this player during the game; the browser's: not even in a byte
                leaked = shown_cards(p.seen + p.received, (kept | hidden) - played)
                assert leaked == set(), (p.name, leaked, [
                    screen for screen in p.seen.split("\x00") if shown_cards(screen, leaked)][:2])
            assert moves >= 6  # three players, two rounds: each played and nodded
            for p in names:
                await p.wait("Game over", 30)
    finally:
        terminal.kill()
        joiner.kill()
        await ssh.stop()
        await web.stop()


async def poll_cards(player: Player, cards: set[str], timeout: float = 20.0) -> None:
    """Wait until ``player``'s screen has shown every one of ``cards``."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while cards_in(await player.screen(), cards) != cards:
        assert loop.time() < end, f"{player.name} never saw all of {sorted(cards)}"
        await asyncio.sleep(0.2)
