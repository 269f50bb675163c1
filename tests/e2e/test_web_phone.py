"""The web door on phones, tablets and laptops: the suite's real Chromium at device pixel ratios
1, 2 and 3, upright and sideways — the join dialog whole and its Join button in the window, a
readable font, finger-sized targets, the keyboard without a first tap, every symbol the client
draws in a font the page serves."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest.importorskip("textual_serve", reason="needs hexnet[web] (textual-serve)")

from host.web import WebDoor  # noqa: E402
from host.webpage.make_fonts import symbols_used  # noqa: E402
from tests.e2e.chromium import Page  # noqa: E402
from tests.e2e.frontdoor import door_fixture  # noqa: E402
from tests.e2e.test_web_door import trusting, wait_screen  # noqa: E402

pytestmark = pytest.mark.timeout(240)
needs_chromium = pytest.mark.needs("chromium")
SHOTS = os.environ.get("HEXNET_SCREENSHOTS")
ROOT = Path(__file__).parents[2]
FINGER = 44  # CSS px: the least a tap target should be (Apple's and Google's guides)

door = door_fixture(lambda host: WebDoor(host, bind="127.0.0.1", port=0))

# (name, CSS width, CSS height, device pixel ratio, a phone's browser, font px range)
SCREENS = [
    ("phone-upright", 390, 844, 3, True, (14, 16)),
    ("phone-sideways", 844, 390, 3, True, (12, 12)),
    ("tablet-upright", 820, 1180, 2, True, (16, 16)),
    ("laptop", 1280, 800, 1, False, (16, 16)),
    ("laptop-retina", 1440, 900, 2, False, (16, 16)),
]

# The terminal's cell size and where the screen lies, in CSS px.
GEOMETRY = """(() => {
  const s = document.querySelector('.xterm-screen').getBoundingClientRect();
  const c = document.querySelector('.xterm-screen canvas');
  return {x: s.x, y: s.y, w: s.width, h: s.height, vw: innerWidth, vh: innerHeight,
          dpr: devicePixelRatio, canvas: c ? c.width : 0,
          font: parseFloat(document.getElementById('terminal').dataset.fontSize)};
})()"""


async def find_text(page: Page, text: str) -> tuple[int, int]:
    """(column, row) where ``text`` starts on the page's terminal (as its bytes drew it)."""
    from tests.e2e.test_web_door import screen_of

    screen = await screen_of(page)
    for row, line in enumerate(screen.screen().splitlines()):
        if text in line:
            return line.index(text), row
    raise AssertionError(f"{text!r} is not on the screen:\n{screen.screen()}")


async def fonts_drawing(page: Page, text: str) -> list[dict]:
    """The fonts the browser draws ``text`` with in the terminal's font family (DevTools'
    CSS.getPlatformFontsForNode: each font's name, whether the page served it, glyphs)."""
    probe = f"glyph-probe-{len(text)}-{ord(text[0])}"
    await page.evaluate(
        f"(() => {{ const s = document.createElement('span'); s.id = '{probe}';"
        " s.style.fontFamily = \"'Roboto Mono', Monaco, 'Courier New', monospace\";"
        f" s.textContent = {text!r}; document.body.appendChild(s); }})()")
    conn = page.conn
    await conn.send("DOM.enable")
    await conn.send("CSS.enable")
    root = await conn.send("DOM.getDocument")
    node = await conn.send("DOM.querySelector", nodeId=root["root"]["nodeId"],
                           selector=f"#{probe}")
    for _ in range(50):  # laid out at the next frame
        fonts = (await conn.send("CSS.getPlatformFontsForNode", nodeId=node["nodeId"]))["fonts"]
        if fonts:
            return fonts
        await page.evaluate("new Promise(r => requestAnimationFrame(() => r(1)))")
    raise AssertionError(f"{text!r} was never laid out")


@needs_chromium
@pytest.mark.parametrize("name,width,height,scale,mobile,font", SCREENS,
                         ids=[s[0] for s in SCREENS])
async def test_the_join_dialog_fits_any_screen_at_any_pixel_ratio_and_takes_keys_at_once(
        host, door, tmp_path, name, width, height, scale, mobile, font) -> None:
    shots = Path(SHOTS) if SHOTS else tmp_path
    shots.mkdir(parents=True, exist_ok=True)
    async with trusting(host, tmp_path / name, width=width, height=height, scale=scale,
                        mobile=mobile) as browser:
        page = await browser.new_page()
        await page.goto(f"https://127.0.0.1:{door.port}/")
        await wait_screen(page, "Your name at the table")
        await wait_screen(page, "Join")
        geo = await page.evaluate(GEOMETRY)
        cols, rows = await page.size()
        assert geo["dpr"] == scale
        # The canvas has a device pixel per device pixel: the whole screen is drawn.
        assert abs(geo["canvas"] - geo["w"] * scale) <= scale, geo
        assert font[0] <= geo["font"] <= font[1], geo
        assert geo["x"] >= 0 and geo["y"] >= 0
        assert geo["x"] + geo["w"] <= geo["vw"] + 1 and geo["y"] + geo["h"] <= geo["vh"] + 1
        assert (cols >= 80 and rows >= 24) or (40 <= cols < 80 and rows >= 20), (cols, rows)
        cell_w, cell_h = geo["w"] / cols, geo["h"] / rows
        # The Join button: inside the window and a finger's size (a button is 3 cells tall).
        col, row = await find_text(page, "Join")
        assert geo["y"] + (row + 2) * cell_h <= geo["vh"], "the Join button is below the window"
        assert geo["x"] + (col + 4) * cell_w <= geo["vw"]
        assert 3 * cell_h >= FINGER, (cell_h, geo)
        await page.screenshot(shots / f"web-{name}-join.png")
        # Typing with no tap first: the name arrives.
        await page.conn.send("Input.insertText", text="Zora")
        await wait_screen(page, "Zora")


@needs_chromium
async def test_every_symbol_the_client_draws_comes_from_a_font_the_page_serves(
        host, door, tmp_path) -> None:
    symbols = "".join(c for c in symbols_used(ROOT) if not 0x2500 <= ord(c) <= 0x259F)
    assert "⏱" in symbols and "⏸" in symbols
    async with trusting(host, tmp_path / "glyphs", width=390, height=844, scale=3,
                        mobile=True) as browser:
        page = await browser.new_page()
        await page.goto(f"https://127.0.0.1:{door.port}/")
        await wait_screen(page, "Your name at the table")
        fonts = await fonts_drawing(page, "⏱")
        assert fonts and all(f["isCustomFont"] for f in fonts), fonts
        fonts = await fonts_drawing(page, symbols)
        # Only the page's own fonts: no glyph left to whatever the guest's device has.
        assert all(f["isCustomFont"] for f in fonts), fonts
        assert sum(f["glyphCount"] for f in fonts) >= len(symbols), fonts
        # The pictographs (the emotes of seeds/emotes.toml, 👁) one by one: Roboto Mono has none
        # of them, and its empty box for a missing one would count as a glyph of the page's.
        pictographs = [c for c in symbols if ord(c) >= 0x1F000]
        assert "👍" in pictographs and "🤔" in pictographs
        for c in pictographs:
            fonts = await fonts_drawing(page, c)
            assert [f["familyName"] for f in fonts] == ["hexnet symbols emoji"], (c, fonts)


@needs_chromium
async def test_the_address_in_the_hosts_qr_code_opens_on_the_join_dialog_ready_to_type(
        host, tmp_path) -> None:
    from host.doors import open_doors
    from host.qr import matrix_of, qr_lines, qr_matrix

    doors = await open_doors(host, "127.0.0.1", web=0, ssh=None)
    try:
        url = doors.web_urls[0]
        assert url.startswith("https://127.0.0.1:")
        assert matrix_of(qr_lines(url))[:len(qr_matrix(url))] == qr_matrix(url)  # what it draws
        async with trusting(host, tmp_path / "qr", width=390, height=844, scale=3,
                            mobile=True) as browser:
            # as a scanner opens it, and as one that drops the scheme to http:// does
            for opened in (url, "http://" + url.removeprefix("https://")):
                page = await browser.new_page()
                await page.goto(opened + "/")
                await wait_screen(page, "Your name at the table")
                assert (await page.evaluate("location.href")).startswith(url)
                await page.conn.send("Input.insertText", text="Quinn")  # no tap first
                await wait_screen(page, "Quinn")
    finally:
        await doors.close()
