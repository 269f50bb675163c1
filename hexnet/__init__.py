"""hexnet: the rules. Pure, deterministic game engines and the bots' policies.

The rules core (this package's modules, ``games/`` and ``i18n/``) touches no network, writes no
file and imports nothing of ``protocol``, ``host`` or ``client``: the host and the client build
on it. Two
sub-packages sit above it: ``tools/`` runs many games in-process (selfplay, ladders, workers, the
search bench) and ``cli/`` is the ``hexnet`` command, the front door above every room.
"""

__version__ = "0.1.0"
