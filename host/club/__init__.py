"""Club nights: a host that remembers — finished games, ratings and profiles (issue 28).

The journals are the record; this package keeps an index of them, a SQLite database in the
host's data directory (``<data dir>/club/club.db``), that can always be rebuilt from them:

- :class:`~host.club.store.Club` — ``Club.open_or_rebuild(data_dir)`` at the host's start,
  ``club.index_finished(journal_path)`` after a table's journal is closed (both may run in a
  worker thread), ``club.rebuild(dirs)``, ``club.leaderboard()``, ``club.rating(key, game)``,
  ``club.forget(key)``;
- :func:`~host.club.profile.profile` — a player's profile as data (for the client's screen);
- :mod:`~host.club.ratings` — OpenSkill ratings (places; Fang's sides with a side bias);
- :mod:`hexnet.cli.club` — ``hexnet stats`` and ``hexnet db rebuild``.
"""

from host.club.games import FinishedGame, Refusal, fingerprint, player_key
from host.club.ratings import Rating
from host.club.store import Club, Report, Row, club_dir

__all__ = ["Club", "FinishedGame", "Rating", "Refusal", "Report", "Row", "club_dir",
           "fingerprint", "player_key"]
