"""Write the kept replays again: ``python -m tests.replays.make`` (from the repository root).

Each is a game played in-process by the heuristic bots from a fixed seed, written with the
host's own journal writer, and next to it what ``hexnet replay JOURNAL --text`` prints for it in
English and Hungarian (``<name>.en.txt``, ``<name>.hu.txt``). Run it when the generator, an
engine or the catalogs change on purpose; ``tests/client/test_replay_cli.py`` then compares the
command's output with these files.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.replays.games import play, write_journal

HERE = Path(__file__).parent
KEPT = {  # name -> (game, players, seed)
    "hexenhammer": ("hexenhammer", ["Ada", "Bert", "Cili"], 7),
}
LANGS = ("en", "hu")


def text(journal: Path, lang: str) -> str:
    """What ``hexnet replay JOURNAL --text --lang LANG`` prints."""
    return subprocess.run([sys.executable, "-m", "hexnet.cli", "replay", str(journal), "--text",
                           "--lang", lang], check=True, capture_output=True, text=True,
                          timeout=60).stdout


def main() -> int:
    for name, (game, players, seed) in KEPT.items():
        journal = HERE / f"{name}.journal"
        journal.unlink(missing_ok=True)
        write_journal(journal, play(game, players, seed))
        for lang in LANGS:
            (HERE / f"{name}.{lang}.txt").write_text(text(journal, lang), "utf-8")
        print(f"wrote {journal.name} and its text in {', '.join(LANGS)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
