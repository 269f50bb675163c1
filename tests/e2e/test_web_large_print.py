"""The web door for reading from across the room: ``?large`` fits the client's large-print
60×20 with a font up to twice the usual size, in a real headless Chromium; ``?fontsize=N`` goes up
to 48 px."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("textual_serve", reason="needs hexnet[web] (textual-serve)")

from host.web import MAX_FONT, WebDoor  # noqa: E402
from tests.e2e.frontdoor import door_fixture  # noqa: E402
from tests.e2e.test_web_door import SHOTS, needs_chromium, trusting, wait_screen  # noqa: E402

pytestmark = pytest.mark.timeout(180)
door = door_fixture(lambda host: WebDoor(host, bind="127.0.0.1", port=0))


@needs_chromium
async def test_large_print_fits_60_by_20_with_a_far_larger_font(host, door, tmp_path) -> None:
    shots = Path(SHOTS) if SHOTS else tmp_path
    shots.mkdir(parents=True, exist_ok=True)
    url = f"https://127.0.0.1:{door.port}/"
    async with trusting(host, tmp_path / "laptop", width=1280, height=720) as laptop:
        page = await laptop.new_page()
        await page.goto(url)
        await wait_screen(page, "Your name at the table")
        usual = await page.evaluate(
            "parseInt(document.getElementById('terminal').dataset.fontSize)")
        await page.goto(url + "?large")
        await wait_screen(page, "Your name at the table")
        cols, rows = await page.size()
        assert cols >= 60 and rows == 20  # the largest font that fits 60×20: no row to spare
        large = await page.evaluate(
            "parseInt(document.getElementById('terminal').dataset.fontSize)")
        assert large >= 1.5 * usual, (usual, large)  # 27 px for 16 at 1280×720
        await page.type("Lena")
        await page.key("Enter")
        await wait_screen(page, "Room code for")
        await page.type(host.room_code)
        await page.key("Enter")
        screen = await wait_screen(page, "You are Lena")
        assert "Terminal too small" not in screen.screen()
        await page.screenshot(shots / "web-large-print-lobby.png")
        await page.goto(url + f"?fontsize={MAX_FONT + 20}")  # asked for more: the most
        await wait_screen(page, "Joining")
        assert await page.evaluate(
            "parseInt(document.getElementById('terminal').dataset.fontSize)") == MAX_FONT
