"""The players a host was asked to forget (``hexnet stats --forget``), kept beside the database.

The list lives outside the database (``<data dir>/club/forgotten``, 0600) because the database
can be deleted and rebuilt from the journals at any time: a rebuild reads this list and seats
those players anonymously again, so a forget is never undone by a rebuild. It holds one line
per player: not the key itself but a hash of it, which only someone who already knows the key
can match.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from protocol.paths import private_dir, write_private

FORGET_FILE = "forgotten"


def _mark(key: str) -> str:
    return hashlib.sha256(b"hexnet-forgotten\0" + key.encode()).hexdigest()


class ForgetList:
    """The forget list of one club directory; ``in`` takes player keys."""

    def __init__(self, folder: Path) -> None:
        self.path = Path(folder) / FORGET_FILE
        try:
            lines = self.path.read_text("ascii").split()
        except FileNotFoundError:
            lines = []
        self._marks = {line for line in lines if len(line) == 64}

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and _mark(key) in self._marks

    def __len__(self) -> int:
        return len(self._marks)

    def add(self, key: str) -> None:
        """Forget ``key`` from now on (written at once, atomically)."""
        self._marks.add(_mark(key))
        private_dir(self.path.parent)
        write_private(self.path, "".join(f"{m}\n" for m in sorted(self._marks)).encode())
