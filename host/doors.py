"""The host's other front doors, started beside its game port: ``--web [PORT]``
(:mod:`host.web`) and ``--ssh [PORT]`` (:mod:`host.ssh`).

:func:`open_doors` starts the ones the command line asks for and returns them as
:class:`Doors`, whose :meth:`Doors.lines` are what the host shows (screen and headless log): the
web address (``https://``, with a QR code of it on the screen, and the start of its key's
SHA-256 as a browser's certificate viewer shows it) and the SSH command with the SSH host key's
fingerprint, next to the TLS one. Their libraries are optional extras (``hexnet[web]``,
``hexnet[ssh]``); without them :func:`check_extras` says which to install.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass, field
from typing import Any

EXTRAS = {"web": ("textual_serve", "hexnet[web]"), "ssh": ("asyncssh", "hexnet[ssh]")}


class DoorError(Exception):
    """A front door cannot start: ``str(exc)`` is a sentence."""


def check_extras(web: int | None, ssh: int | None) -> None:
    """DoorError naming the extra to install when a requested door's library is missing (a
    port out of range is refused as the command line is read: hexnet.cli.checks.PORT)."""
    for flag, port in (("web", web), ("ssh", ssh)):
        if port is None:
            continue
        module, extra = EXTRAS[flag]
        if importlib.util.find_spec(module) is None:
            raise DoorError(f"--{flag} needs {module}: pip install '{extra}'")


@dataclass
class Doors:
    """The started front doors of one host."""

    web: Any = None
    ssh: Any = None
    web_urls: list[str] = field(default_factory=list)
    ssh_address: str = ""

    def lines(self) -> list[str]:
        """What the host shows about its front doors, one line each."""
        out = []
        if self.web is not None:
            out.append(f"web: open {self.web_urls[0]} in a browser"
                       + (f" (also {', '.join(self.web_urls[1:])})" if self.web_urls[1:]
                          else ""))
            out.append(f"web: key SHA-256 {self.web.key_fingerprint} (browsers warn once)")
        if self.ssh is not None:
            port = "" if self.ssh.port == 22 else f"-p {self.ssh.port} "
            out.append(f"ssh: ssh {port}{self.ssh_address} — SSH host key "
                       f"{self.ssh.fingerprint}")
        return out

    async def close(self) -> None:
        """Stop every door (their guests' clients end)."""
        for door in (self.web, self.ssh):
            if door is not None:
                await door.stop()
        self.web = self.ssh = None


async def open_doors(host: Any, bind: str, web: int | None, ssh: int | None) -> Doors:
    """Start the doors asked for (port numbers; None = not asked) of the started ``host``.
    OSError if a port cannot be bound (doors already started are stopped)."""
    from host.mdns import advertised_addresses

    doors = Doors()
    addresses = advertised_addresses(None, bind)
    try:
        if web is not None:
            from host.web import WebDoor

            doors.web = WebDoor(host, bind=bind, port=web, addresses=addresses)
            port = await doors.web.start()
            doors.web_urls = [f"https://{a}:{port}" for a in addresses]
        if ssh is not None:
            from host.ssh import SSHDoor

            doors.ssh = SSHDoor(host, bind=bind, port=ssh)
            await doors.ssh.start()
            doors.ssh_address = addresses[0]
    except BaseException:
        await doors.close()
        raise
    return doors
