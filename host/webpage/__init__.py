"""The web door's page (:mod:`host.web`): its HTML, its script and style sheet, and the symbol
fonts its terminal needs, kept apart from the door's sockets and sessions.

``page.html`` is the page (a template); ``static/`` is served at ``/hexnet/``: ``page.js`` fits
the terminal to the screen (font size, device pixel ratio, focus), ``page.css`` lays it out and
declares the fonts, ``fonts/`` holds the symbol subsets (:mod:`host.webpage.make_fonts`).
"""

from __future__ import annotations

import html
from pathlib import Path
from string import Template

HERE = Path(__file__).parent
STATIC = HERE / "static"
PAGE = Template((HERE / "page.html").read_text(encoding="utf-8"))
LARGEST_FONT = 16  # px: textual-serve's size, and the most the page picks by itself
LARGE_FONT = 32  # px: the most it picks for large print (``?large``: 60×20 cells)


def page_html(title: str, ws_url: str, font_size: int | None = None,
              large: bool = False) -> str:
    """The page for host ``title`` whose terminal opens ``ws_url``; ``font_size``: the size the
    guest asked for (``?fontsize=N``), kept as is — else the page picks one that fits: the
    client's 80×24, or with ``large`` (``?large``) 60×20 cells in a font up to twice the size."""
    return PAGE.substitute(title=html.escape(title), ws_url=html.escape(ws_url),
                           font_size=font_size or (LARGE_FONT if large else LARGEST_FONT),
                           fit="0" if font_size else "1", large="1" if large else "0")
