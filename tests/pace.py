"""How often a secret step ticks in the suite's bot games (issue 22).

The host's default is :data:`protocol.traffic.SLOT_EVERY` (0.25 s): Hranice and Hexenhammer open
a reaction window after nearly every card, and each is a secret step with at least one tick, so a
bot game at the default takes several times as long. The suite's hosts tick every
:data:`SECRET_EVERY` instead — in-process hosts through :data:`host.server.SECRET_EVERY` (set for
every test by ``tests/conftest.py``), host processes through :data:`HOST_ARGS`. What the cadence
itself must hold (one frame a slot, nothing told by timing) is checked at the default by
``tests/e2e/test_traffic_analysis.py`` and at this pace by ``tests/e2e/test_cover_frames.py``.
"""

SECRET_EVERY = 0.05
HOST_ARGS = ["--secret-every", str(SECRET_EVERY)]  # for `hexnet host` / `hexnet play` processes
