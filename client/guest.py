"""``python -m client.guest``: the client that the host's web and SSH front doors run for a
guest (:mod:`host.web`, :mod:`host.ssh`), on the host machine, one process per guest.

It is the ordinary :class:`client.app.HexnetApp`, started against this host and pinned to the
fingerprint the host passes, with the identity in ``--config-dir`` (the host writes a key derived
for that guest there), connecting from ``--source`` (the guest's own loopback address). Without
``--name`` it first asks the guest's name (:class:`client.screens.name.NameScreen`, usable by
touch); with ``--plain`` it is the screen-reader mode (:mod:`client.plain`, the name asked as
a line); with ``--code-env`` the room code is read from ``$HEXNET_ROOM_CODE`` (the SSH door has
checked it already; the environment, unlike argv, is not shown to other users by ``ps``).
Without a code the app asks for one if the host needs it. Ctrl+Q ends it.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import os
import sys
import termios

from textual import events

from client.app import HexnetApp
from client.screens.name import NameScreen
from hexnet.i18n import LANGS


class GuestApp(HexnetApp):
    """:class:`HexnetApp` that asks the guest's name before connecting when it has none."""

    def begin(self) -> None:
        if self.player_name:
            super().begin()
            return
        label = f"{self.target[0]}:{self.target[1]}" if self.target else "the host"
        self.push_screen(NameScreen(label), callback=self._named)

    def _on_app_blur(self, event: events.AppBlur) -> None:
        # In a browser Textual's web driver says "blurred" at the start, and the page says so
        # whenever the phone's keyboard closes; a blurred app neither focuses a new screen nor
        # fills its footer — the very keys a finger taps. A guest's tab in front of them is in
        # use: stay live (prevent_default keeps App's own handler from running).
        if self.is_web:
            event.prevent_default()

    def _named(self, name: str | None) -> None:
        if not name:
            self.exit()
            return
        self.player_name = name
        super().begin()


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``python -m client.guest``."""
    p = argparse.ArgumentParser(prog="python -m client.guest",
                                description="The hexnet client a host runs for a web or SSH "
                                            "guest.")
    p.add_argument("--target", required=True, metavar="HOST:PORT", help="the host's game port")
    p.add_argument("--fingerprint", required=True, help="the host's key fingerprint (pinned)")
    p.add_argument("--config-dir", required=True, help="holds the guest's identity key")
    p.add_argument("--source", help="connect from this local address")
    p.add_argument("--name", help="sit down under this name (default: ask)")
    p.add_argument("--lang", choices=LANGS, help="the language (default: the locale's)")
    p.add_argument("--code-env", action="store_true",
                   help="take the room code from $HEXNET_ROOM_CODE")
    p.add_argument("--plain", action="store_true",
                   help="the screen-reader mode: plain lines in, plain lines out")
    return p


def take_terminal() -> None:
    """Make stdin this process's controlling terminal when it leads a session that has none
    (the SSH door starts guests so, on a pty), so window changes arrive as SIGWINCH. Done here,
    not in a ``preexec_fn`` of the host: uvloop runs that hook right after ``fork``, before the
    pty becomes stdin and before ``setsid``, so there it took no terminal and the client never
    drew."""
    if os.isatty(0) and os.getsid(0) == os.getpid():
        with contextlib.suppress(OSError):
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def main(argv: list[str] | None = None) -> int:
    """Run the guest's client; 2 for a bad command line."""
    from client.target import parse_target

    args = build_parser().parse_args(argv)
    try:
        target = parse_target(args.target)
    except ValueError as exc:
        print(f"client.guest: {exc}", file=sys.stderr)
        return 2
    code = os.environ.get("HEXNET_ROOM_CODE") or None if args.code_env else None
    take_terminal()
    if args.plain:
        import asyncio

        from client.plain.front import PlainClient

        client = PlainClient(target=target, name=(args.name or "")[:24], code=code,
                             config_dir=args.config_dir, fingerprint=args.fingerprint,
                             lang=args.lang)
        if args.source:
            client.connect_options["local_address"] = args.source
        return asyncio.run(client.run())
    app = GuestApp(target=target, name=(args.name or "")[:24], code=code,
                   config_dir=args.config_dir, fingerprint=args.fingerprint, lang=args.lang)
    if args.source:
        app.connect_options["local_address"] = args.source
    app.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
