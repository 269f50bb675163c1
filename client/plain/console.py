"""The plain mode's terminal: whole lines out, whole lines in — nothing else.

Output goes to the normal scrollback one line at a time: no escape sequences, no cursor
movement, no alternate screen, no colour (a line is made safe before it is written, whatever
it holds). Input is read a line at a time from standard input without changing the terminal's
mode: the terminal's own line editing (and a screen reader's echo of it) works as in a shell.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import sys
from collections.abc import Callable
from typing import TextIO

from protocol.sanitize import strip_unsafe

MAX_LINE = 4096  # characters of one typed line kept (the rest of a longer one is dropped)
# decorative marks the screens draw; in a sentence the words around them say the same
_MARKS = re.compile("[◆◇▮▯●○★▶⟳⚡⌀⚙⚖†⊔✓✗⚠👁☾⏱⏸░▒▓█»]\ufe0f?")
_SPACES = re.compile(r"[ \t]+")


def speakable(text: str) -> str:
    """``text`` as a line a screen reader reads well: the screens' marks left out (their
    meaning is in the words next to them), ``·`` and ``│`` as commas and semicolons, no
    escape sequences or control characters, runs of spaces as one."""
    text = strip_unsafe(text.replace("\n", " "))
    text = text.replace(" · ", ", ").replace(" │ ", "; ").replace("│", ";")
    text = _MARKS.sub("", text)
    return _SPACES.sub(" ", text).strip(" ,;")


def sentence(text: str) -> str:
    """``text`` ending as a sentence: a trailing colon or dash becomes a full stop."""
    text = text.strip().rstrip(":—-").rstrip()
    return text if not text or text[-1] in ".!?…" else text + "."


class Console:
    """Lines to ``out`` (stdout) and from file descriptor ``fd`` (stdin)."""

    def __init__(self, out: TextIO | None = None, fd: int | None = None) -> None:
        self.out = out or sys.stdout
        self.fd = sys.stdin.fileno() if fd is None else fd
        self._buffer = b""
        self._on_line: Callable[[str | None], None] | None = None
        self._reading = False

    def say(self, *lines: str) -> None:
        """Write each of ``lines`` (made speakable) as a line of its own; empty ones are left
        out."""
        for line in lines:
            for part in str(line).split("\n"):
                text = speakable(part)
                if text:
                    self.out.write(text + "\n")
        with contextlib.suppress(OSError, ValueError):
            self.out.flush()

    def start(self, on_line: Callable[[str | None], None]) -> None:
        """Call ``on_line(line)`` for every typed line (without its newline), and
        ``on_line(None)`` at the end of input. Needs a running event loop."""
        self._on_line = on_line
        asyncio.get_running_loop().add_reader(self.fd, self._readable)
        self._reading = True

    def stop(self) -> None:
        """Stop reading."""
        if self._reading:
            with contextlib.suppress(Exception):
                asyncio.get_running_loop().remove_reader(self.fd)
            self._reading = False

    def _readable(self) -> None:
        try:
            data = os.read(self.fd, 4096)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self.stop()
            if self._buffer:
                self._emit(self._buffer)
                self._buffer = b""
            if self._on_line is not None:
                self._on_line(None)
            return
        self._buffer += data
        while b"\n" in self._buffer:
            line, self._buffer = self._buffer.split(b"\n", 1)
            self._emit(line)
        if len(self._buffer) > MAX_LINE * 4:
            self._buffer = self._buffer[-MAX_LINE:]

    def _emit(self, raw: bytes) -> None:
        text = strip_unsafe(raw.decode("utf-8", errors="replace"))[:MAX_LINE].strip()
        if self._on_line is not None:
            self._on_line(text)
