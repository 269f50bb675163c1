"""A QR code drawn with text blocks, for the host's screen (guests type URLs badly on phones).

The code itself comes from segno (pure Python, no dependencies, well kept; in ``hexnet[web]``):
writing a QR encoder with its Reed-Solomon and masking here would be a second, untested copy.
Two modules share one character cell (``▀ ▄ █`` and space). The *light* modules are the ones
drawn, so on a terminal's dark background the code reads dark-on-light, as scanners expect; the
quiet zone is 2 modules (phone scanners read it; the standard 4 costs 4 more rows).
"""

from __future__ import annotations

QUIET = 2
BLOCKS = {(True, True): "█", (True, False): "▀", (False, True): "▄", (False, False): " "}


def qr_matrix(text: str) -> list[list[bool]]:
    """The QR code of ``text`` (error correction M) as rows of modules, True = dark, with the
    quiet zone."""
    import segno

    code = segno.make(text, error="m", micro=False)
    inner = [[bool(m) for m in row] for row in code.matrix]
    width = len(inner[0]) + 2 * QUIET
    blank = [[False] * width for _ in range(QUIET)]
    return blank + [[False] * QUIET + row + [False] * QUIET for row in inner] + \
        [[False] * width for _ in range(QUIET)]


def qr_lines(text: str) -> list[str]:
    """``text`` as a QR code in text blocks, two module rows a line (light modules drawn)."""
    matrix = qr_matrix(text)
    if len(matrix) % 2:
        matrix.append([False] * len(matrix[0]))
    return ["".join(BLOCKS[(not top, not bottom)] for top, bottom in zip(upper, lower,
                                                                        strict=True))
            for upper, lower in zip(matrix[::2], matrix[1::2], strict=True)]


def matrix_of(lines: list[str]) -> list[list[bool]]:
    """The module rows (True = dark) that :func:`qr_lines` drew: its inverse."""
    light = {ch: pair for pair, ch in BLOCKS.items()}
    rows: list[list[bool]] = []
    for line in lines:
        pairs = [light[ch] for ch in line]
        rows.append([not top for top, _ in pairs])
        rows.append([not bottom for _, bottom in pairs])
    return rows
