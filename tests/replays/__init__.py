"""Known games for the replay tests: played in-process by bots and written as real journals
(host.journal's writer). ``python -m tests.replays.make`` writes them again — with the
expected ``hexnet replay --text`` output next to each — whenever the generator or the events
change."""
