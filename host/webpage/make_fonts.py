"""Build the web page's symbol fonts: the glyphs the client draws that its terminal font
(textual-serve's Roboto Mono) lacks, cut from free fonts, so every browser draws ``⏱ ⏸ ⚖ ◆ ✓ …``
the same way and none fetches a font from elsewhere.

Run by hand (needs fontTools, not a dependency of hexnet) when the client starts using a new
symbol; ``tests/e2e/test_web_phone.py`` fails until then::

    python -m host.webpage.make_fonts DIR

``DIR`` holds the source fonts, e.g. unpacked from Debian's packages (``apt-get download
fonts-dejavu-core fonts-noto-core fonts-symbola``; ``dpkg-deb -x PKG.deb DIR``). The pictographs
(U+1F300 on: the emotes of ``seeds/emotes.toml``, 👁) come from Symbola, so every face at the
table is drawn by one hand and in one colour, as the terminal's text is (the colour emoji font
is 10 MB of bitmaps a terminal cannot tint; Symbola is monochrome and covers them all). Each
other symbol comes from the first source that has it: DejaVu Sans Mono (its advance is Roboto
Mono's, 0.6 em, so a symbol fills one cell), then DejaVu Sans, then Noto Sans Symbols 2.
Licences: DejaVu's (Bitstream Vera terms, renamed as they ask), the SIL Open Font License 1.1
and Symbola's ("free for any use"), beside the fonts.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).parent
# (the file served, its family name, the source font's file name, the code points it takes
# before the others), in the order tried
PICTOGRAPHS = range(0x1F300, 0x1FB00)
FONTS = (("hexnet-symbols-emoji.ttf", "hexnet symbols emoji", "Symbola_hint.ttf", PICTOGRAPHS),
         ("hexnet-symbols-mono.ttf", "hexnet symbols mono", "DejaVuSansMono.ttf", None),
         ("hexnet-symbols-sans.ttf", "hexnet symbols sans", "DejaVuSans.ttf", None),
         ("hexnet-symbols-noto.ttf", "hexnet symbols noto", "NotoSansSymbols2-Regular.ttf",
          None))
# where the client's words live: its code, the games' tables and the translations
TEXTS = (("client", "*.py"), ("hexnet", "*.py"), ("seeds", "*.toml"), ("seeds", "*.po"))


def symbols_used(root: Path) -> list[str]:
    """Every character from U+2000 on (arrows, marks, symbols) in the client's texts."""
    found: set[str] = set()
    for folder, pattern in TEXTS:
        for path in (root / folder).rglob(pattern):
            found.update(c for c in path.read_text(encoding="utf-8", errors="replace")
                         if ord(c) >= 0x2000 and c != "\ufffd")
    return sorted(found)


def main(source_dir: str) -> None:
    import textual_serve
    from fontTools import subset
    from fontTools.ttLib import TTFont

    roboto = TTFont(Path(textual_serve.__file__).parent / "static" / "fonts"
                    / "RobotoMono-VariableFont_wght.ttf").getBestCmap()
    wanted = [c for c in symbols_used(HERE.parents[1]) if ord(c) not in roboto
              and not 0x2500 <= ord(c) <= 0x259F]  # box drawing and blocks: xterm draws them
    for file, family, source, takes in FONTS:
        src = next(Path(source_dir).rglob(source))
        cmap = TTFont(src).getBestCmap()
        mine = [c for c in wanted if ord(c) in cmap and (takes is None or ord(c) in takes)]
        wanted = [c for c in wanted if c not in mine]
        options = subset.Options()
        options.name_IDs = []  # the names are set below
        options.layout_features = []
        options.notdef_outline = True
        options.hinting = False
        sub = subset.Subsetter(options)
        ttf = TTFont(src)
        sub.populate(unicodes=[ord(c) for c in mine])
        sub.subset(ttf)
        name = ttf["name"]
        for record_id, text in ((1, family), (2, "Regular"), (3, family),
                                (4, family), (6, family.replace(" ", ""))):
            name.setName(text, record_id, 3, 1, 0x409)
        ttf.save(HERE / "static" / "fonts" / file)
        print(f"{file}: {''.join(mine)}")
    if wanted:
        sys.exit(f"no source font has {''.join(wanted)}")


if __name__ == "__main__":
    main(sys.argv[1])
