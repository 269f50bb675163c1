"""What the host's web and SSH front doors (:mod:`host.web`, :mod:`host.ssh`) share.

A guest at a front door gets the ordinary hexnet client, run on the host machine as a
subprocess (``python -m client.guest``; ``host/`` never imports ``client/``) that connects to this
host over TLS like any player, pinned to the host's own fingerprint. What the front door adds:

* **Identity.** A guest's Ed25519 identity is derived, never stored: HMAC-SHA256 of a secret kept
  in the host's config dir (``guest_secret``, made once, mode 0600) over the kind of door and
  what the guest brings back each time — the browser's cookie token, or the SSH public key it
  proved it holds. So a reload or a returning key is the same identity and gets its seat back;
  nothing piles up on disk. The key is written (0600) into a private temporary directory that
  lives as long as the guest's client process (:class:`GuestDir`).
* **Its own loopback address.** Each guest's client connects from an address in 127.0.0.0/8
  derived from the guest's real address (:func:`loopback_for`), so the game port's limits per
  address (room-code attempts, unauthenticated connections) count each guest separately instead
  of lumping every web/SSH guest together as 127.0.0.1.
* **Caps** (:class:`SessionCaps`): client processes per remote address and in total.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import ipaddress
import os
import secrets
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from protocol import identity, paths

SECRET_FILE = "guest_secret"
MAX_SESSIONS = 24  # client processes at once (each a Python process, ~60 MB)
MAX_SESSIONS_PER_ADDRESS = 4
# the largest terminal a front door gives a guest's client: what it draws grows with the cells
# (a 1000×500 window redrawn on every resize burned a core)
MAX_COLS, MAX_ROWS = 300, 100
IDLE_AFTER = 20 * 60.0  # seconds without input before a front-door session is closed
LOOPBACK_BASE = int(ipaddress.IPv4Address("127.64.0.0"))
LOOPBACK_SPAN = 1 << 22  # 127.64.0.0 – 127.127.255.255: never 127.0.0.1


def guest_secret(config_dir: Path) -> bytes:
    """The host's 32-byte secret for guest identities (``config_dir/guest_secret``, made once)."""
    path = config_dir / SECRET_FILE
    with contextlib.suppress(OSError):
        data = path.read_bytes()
        if len(data) == 32:
            return data
    data = secrets.token_bytes(32)
    paths.write_private(path, data)
    return data


def guest_key(secret: bytes, door: str, token: bytes) -> Ed25519PrivateKey:
    """The identity of the guest who brings ``token`` to ``door`` ("web" or "ssh")."""
    seed = hmac.new(secret, door.encode() + b"\0" + token, hashlib.sha256).digest()
    return Ed25519PrivateKey.from_private_bytes(seed)


def loopback_for(address: str) -> str:
    """A loopback address (127.64.0.1 – 127.127.255.254) standing for remote ``address``: the
    same address always maps to the same one; 127.0.0.1 is never used."""
    digest = hashlib.sha256(address.encode()).digest()
    offset = int.from_bytes(digest[:4], "big") % (LOOPBACK_SPAN - 2) + 1
    return str(ipaddress.IPv4Address(LOOPBACK_BASE + offset))


def local_target(bind: str) -> tuple[str, bool]:
    """Where a guest's client reaches the game port of a host bound to ``bind``, and whether
    that is a loopback address (only then can the client pick its own loopback source)."""
    if bind in ("", "0.0.0.0", "::"):
        return "127.0.0.1", True
    try:
        return bind, ipaddress.ip_address(bind).is_loopback
    except ValueError:
        return bind, False


class SessionCaps:
    """Counts live front-door sessions: at most ``per_address`` from one address and ``total``
    in all. :meth:`admit` says why not (and counts nothing) or counts one."""

    def __init__(self, total: int = MAX_SESSIONS,
                 per_address: int = MAX_SESSIONS_PER_ADDRESS) -> None:
        self.total, self.per_address = total, per_address
        self.live: dict[str, int] = {}

    @property
    def count(self) -> int:
        """Live sessions now."""
        return sum(self.live.values())

    def admit(self, address: str) -> str | None:
        """Count one more session from ``address``; None if admitted, else why not."""
        if self.live.get(address, 0) >= self.per_address:
            return f"too many sessions from {address}"
        if self.count >= self.total:
            return "the host has as many guests as it can run"
        self.live[address] = self.live.get(address, 0) + 1
        return None

    def release(self, address: str) -> None:
        """One session from ``address`` ended."""
        n = self.live.get(address, 0) - 1
        if n > 0:
            self.live[address] = n
        else:
            self.live.pop(address, None)


class GuestDir:
    """A private temporary config dir for one guest's client: holds ``identity.pem`` (the
    guest's key) and whatever the client writes (its ``known_hosts``); removed by
    :meth:`remove`."""

    def __init__(self, key: Ed25519PrivateKey) -> None:
        self.path = Path(tempfile.mkdtemp(prefix="hexnet-guest-"))  # mode 0700
        paths.write_private(self.path / identity.IDENTITY_FILE, key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption()))
        self.public = identity.public_bytes(key)

    def remove(self) -> None:
        """Delete the directory and the key in it."""
        shutil.rmtree(self.path, ignore_errors=True)


def seated_name(host: Any, public: bytes) -> str | None:
    """The name under which identity ``public`` holds a seat at ``host``, if it holds one."""
    here = host.lobby.where(public)
    if here is None:
        return None
    table, seat = here
    return table.seats[seat].name or None


def browser_language(accept_language: str | None) -> str | None:
    """The first hexnet language a browser's ``Accept-Language`` names (``hu-HU,hu;q=0.9`` →
    ``hu``), or None."""
    from hexnet.i18n import language_of

    for part in (accept_language or "").split(",")[:16]:
        lang = language_of(part.split(";")[0].strip())
        if lang:
            return lang
    return None


def locale_language(environ: dict[str, str]) -> str | None:
    """The hexnet language of the locale an SSH client sent (``LC_ALL``, ``LC_MESSAGES``,
    ``LANG``: the first set decides), or None."""
    from hexnet.i18n import language_of

    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if environ.get(var):
            return language_of(environ[var][:64])
    return None


def client_command(host: Any, guest: GuestDir, address: str,
                   lang: str | None = None) -> list[str]:
    """The argv of the client for a guest from remote ``address``: connects to ``host`` on this
    machine, pinned to its fingerprint, from the guest's own loopback address, in ``lang`` (the
    guest's language, when known); asks for a name unless the guest already holds a seat (then
    it resumes under that name)."""
    target, loopback = local_target(host.bind)
    argv = [sys.executable, "-m", "client.guest", "--target", f"{target}:{host.port}",
            "--fingerprint", host.fingerprint, "--config-dir", str(guest.path)]
    if loopback:
        argv += ["--source", loopback_for(address)]
    if lang:
        argv += ["--lang", lang]
    name = seated_name(host, guest.public)
    if name:
        argv += ["--name", name]
    return argv


def client_environment(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a guest's client: the host's, without any room code of its own,
    plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if k != "HEXNET_ROOM_CODE"}
    env.update(extra or {})
    return env
