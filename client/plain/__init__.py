"""``--plain``: hexnet in plain lines, for screen readers and braille displays.

Every change is written as one or more sentences to the terminal's normal scrollback — no box
drawing, no repainting, no alternate screen, no cursor movement, no colour — and every command
is a typed line: a number (or ``play 3``) picks a numbered choice; ``pass``, ``hand``,
``table``, ``log 10``, ``chat …``, ``help``. The plain mode is another front end over the same
network session and the same words as the full screen (:mod:`client.words`): it decides no rule
and has no Textual in it.

- :mod:`.front` — the client: connecting, the loop, help, chat, quitting;
- :mod:`.lobby` — the lobby's news and commands;
- :mod:`.table` — a table's news (log, phase, whom it waits for, timer, your choices) and
  commands;
- :mod:`.describe` and one describer per game (:mod:`.hexenhammer`, :mod:`.fang`,
  :mod:`.hranice`) — the table, the hand and the choices in sentences;
- :mod:`.results` — the end of a game; :mod:`.replay` — a journal stepped through in lines;
- :mod:`.console` — lines out (made speakable) and lines in.
"""
