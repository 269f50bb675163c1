"""``hexnet host --web``: the client in a real headless Chromium (DevTools protocol), and the
web door's limits with a plain websocket client."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

pytest.importorskip("textual_serve", reason="needs hexnet[web] (textual-serve)")
import aiohttp  # noqa: E402

from host import guests  # noqa: E402
from host.web import COOKIE, WebDoor, token_bytes  # noqa: E402
from protocol import tls  # noqa: E402
from tests.e2e.chromium import Chromium, Page  # noqa: E402
from tests.e2e.frontdoor import Screen, cards_in, door_fixture, poll, seat_of  # noqa: E402

pytestmark = pytest.mark.timeout(180)
needs_chromium = pytest.mark.needs("chromium")  # (Debian's; apt-get install chromium)
SHOTS = os.environ.get("HEXNET_SCREENSHOTS")  # keep the screenshots here (else tmp_path)


# The web door of the e2e ``host`` (code required), on 127.0.0.1, any free port.
door = door_fixture(lambda host: WebDoor(host, bind="127.0.0.1", port=0))
# A client that takes any certificate (the tests that care read the peer's key themselves).
ANY_CERT = tls.client_context()


def trusting(host, profile: Path, **kwargs) -> Chromium:
    """A browser that accepts the host's key (as a guest who compared it clicks through)."""
    return Chromium(profile, trust=tls.spki_base64(host.fingerprint), **kwargs)


async def screen_of(page: Page) -> Screen:
    """The page's terminal as a screen, rebuilt from every byte its websocket received."""
    cols, rows = await page.size()
    screen = Screen(cols, rows)
    screen.feed(await page.evaluate("window.__rx.join('')") or "")
    return screen


async def wait_screen(page: Page, text: str, timeout: float = 30.0) -> Screen:
    """Poll the page's screen until it shows ``text``."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        screen = await screen_of(page)
        if text in screen.screen():
            return screen
        if loop.time() > end:
            raise AssertionError(f"{text!r} never showed; the screen:\n{screen.screen()}")
        await asyncio.sleep(0.2)


async def wait_cards(page: Page, cards: set[str], timeout: float = 15.0) -> str:
    """Poll until everything the page received names all of ``cards``; that text."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        seen = (await screen_of(page)).text
        if cards_in(seen, cards) == cards:
            return seen
        assert loop.time() < end, f"{sorted(cards)} never all showed"
        await asyncio.sleep(0.2)


async def join(page: Page, url: str, name: str, code: str) -> None:
    """Open the page, type a name and the room code: the lobby."""
    await page.goto(url)
    await wait_screen(page, "Your name at the table")
    await page.type(name)
    await page.key("Enter")
    await wait_screen(page, "Room code for")
    await page.type(code)
    await page.key("Enter")
    await wait_screen(page, f"You are {name}")


@needs_chromium
async def test_two_browsers_are_two_players_each_seeing_its_hand_and_a_reload_resumes(
        host, door, tmp_path) -> None:
    shots = Path(SHOTS) if SHOTS else tmp_path
    shots.mkdir(parents=True, exist_ok=True)
    url = f"https://127.0.0.1:{door.port}/"
    table = host.lobby.create_table("toy", 3, {})
    host.lobby.add_bot(table, None, "heuristic")
    async with trusting(host, tmp_path / "wanda") as first, \
            trusting(host, tmp_path / "xena") as second:
        wanda, xena = await first.new_page(), await second.new_page()
        await join(wanda, url, "Wanda", host.room_code)
        await wanda.tap(2, 2)  # a finger on the (highlighted) first table: sit there
        await poll(lambda: any(s.name == "Wanda" for s in host.lobby.tables[table].seats),
                   15, "Wanda sitting down by touch")
        await join(xena, url, "Xena", host.room_code)
        await xena.type("s")
        await wait_screen(xena, "You are Xena, seated at table")
        await wanda.screenshot(shots / "web-wanda-lobby.png")
        seats = host.lobby.tables[table].seats
        ids = {s.name: s.identity for s in seats if s.kind == "human"}
        assert set(ids) == {"Wanda", "Xena"} and ids["Wanda"] != ids["Xena"]

        await wanda.type("g")  # start
        await poll(lambda: host.lobby.tables[table].status == "playing", 15, "the start")
        state = host.lobby.state_of(table)
        hands = {n: set(state["hands"][seat_of(host, table, n)]) for n in ("Wanda", "Xena")}
        for page, me, other in ((wanda, "Wanda", "Xena"), (xena, "Xena", "Wanda")):
            await wait_screen(page, f"toy #{table}")
            seen = await wait_cards(page, hands[me])
            assert cards_in(seen, hands[other]) == set(), f"{me} saw {other}'s hand"
        await wanda.screenshot(shots / "web-wanda-table.png")
        await xena.screenshot(shots / "web-xena-table.png")

        await wanda.goto(url)  # a reload: the same cookie, the same identity, the same seat
        screen = await wait_screen(wanda, f"toy #{table}")
        assert "Your name" not in screen.text
        await wait_cards(wanda, hands["Wanda"])
        assert host.lobby.tables[table].seats[seat_of(host, table, "Wanda")].identity \
            == ids["Wanda"]


async def test_the_page_gives_a_browser_a_lasting_http_only_token(door) -> None:
    url = f"https://127.0.0.1:{door.port}/"
    # unsafe: aiohttp's jar keeps cookies of IP addresses only when told to
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True),
                                     connector=aiohttp.TCPConnector(ssl=ANY_CERT)) as http:
        async with http.get(url) as r:
            assert r.status == 200
            morsel = r.cookies[COOKIE]
            token = morsel.value
            assert token_bytes(token) is not None
            assert morsel["httponly"] and morsel["secure"] and morsel["samesite"] == "Strict"
            assert "frame-ancestors 'none'" in r.headers["Content-Security-Policy"]
        async with http.get(url) as r:
            assert r.cookies[COOKIE].value == token  # kept, not replaced
    async with aiohttp.ClientSession(cookies={COOKIE: "not-a-token"},
                                     connector=aiohttp.TCPConnector(ssl=ANY_CERT)) as http, \
            http.get(url) as r:
        assert token_bytes(r.cookies[COOKIE].value) is not None


async def test_a_page_from_another_site_cannot_open_a_session(door) -> None:
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(ssl=ANY_CERT)) as http:
        for origin in ("https://evil.example", f"http://127.0.0.1:{door.port}"):
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await http.ws_connect(f"https://127.0.0.1:{door.port}/ws",
                                      headers={"Origin": origin})
            assert refused.value.status == 403, origin
    assert door.sessions == {}


async def test_sessions_per_address_are_capped_and_an_idle_one_is_closed(host) -> None:
    door = WebDoor(host, bind="127.0.0.1", port=0,
                   caps=guests.SessionCaps(total=8, per_address=1), idle_after=3.0)
    await door.start()
    try:
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(ssl=ANY_CERT)) as http:
            ws = f"wss://127.0.0.1:{door.port}/ws?width=80&height=24"
            first = await http.ws_connect(ws)
            await poll(lambda: door.sessions, 10, "the first session")
            second = await http.ws_connect(ws)
            msg = await second.receive(timeout=10)
            assert b"too many sessions from 127.0.0.1" in msg.data
            assert (await second.receive(timeout=10)).type == aiohttp.WSMsgType.CLOSE
            (_, service, _), = door.sessions.values()
            # Nothing typed: after 3 s the session closes and its client process is gone.
            while (await first.receive(timeout=30)).type not in (
                    aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
                pass
            await poll(lambda: not door.sessions, 15, "the idle session to end")
            assert service.exit_code is not None  # ended, and reaped
            assert door.caps.live == {}
    finally:
        await door.stop()


@needs_chromium
async def test_a_phone_in_landscape_gets_the_clients_80_by_24_with_a_smaller_font(
        host, door, tmp_path) -> None:
    shots = Path(SHOTS) if SHOTS else tmp_path
    shots.mkdir(parents=True, exist_ok=True)
    url = f"https://127.0.0.1:{door.port}/"
    # 844×390: a phone held sideways (CSS pixels). textual-serve's 16 px font leaves 88×18.
    async with trusting(host, tmp_path / "phone", width=844, height=390) as phone:
        page = await phone.new_page()
        await page.goto(url + "?fontsize=16")  # the page's size, asked for: kept
        await wait_screen(page, "Terminal too small")
        assert (await page.size())[1] == 18  # (its columns depend on whether the font loaded)
        await page.goto(url)
        await wait_screen(page, "Your name at the table")
        cols, rows = await page.size()
        assert cols >= 80 and rows == 24  # the largest font that fits: no row to spare
        assert await page.evaluate(
            "parseInt(document.getElementById('terminal').dataset.fontSize)") == 12
        await page.type("Phoebe")
        await page.key("Enter")
        await wait_screen(page, "Room code for")
        await page.type(host.room_code)
        await page.key("Enter")
        screen = await wait_screen(page, "You are Phoebe")
        assert "Terminal too small" not in screen.screen()
        await page.screenshot(shots / "web-phone-landscape-lobby.png")
