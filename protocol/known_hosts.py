"""The client's pins: ``$XDG_CONFIG_HOME/hexnet/known_hosts``, lines ``host:port fingerprint``.

Trust on first use; a CHANGED fingerprint is refused with an ssh-style warning and never re-pinned
silently (the user must delete the line by hand).
"""

from __future__ import annotations

import os
from pathlib import Path

from protocol.tls import human_fingerprint

FILE = "known_hosts"


def label(host: str, port: int) -> str:
    """The known_hosts key of a host (IPv6 addresses in brackets)."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


class KnownHosts:
    """The pinned fingerprints in one file."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _entries(self) -> dict[str, str]:
        out: dict[str, str] = {}
        if not self.path.exists():
            return out
        for line in self.path.read_text(encoding="utf-8").splitlines():
            parts = line.split()
            if len(parts) >= 2 and not line.startswith("#"):
                out.setdefault(parts[0], parts[1].lower())
        return out

    def get(self, host_label: str) -> str | None:
        """The pinned hex fingerprint of ``host_label``, or None."""
        return self._entries().get(host_label)

    def add(self, host_label: str, fp_hex: str) -> None:
        """Pin ``host_label`` to ``fp_hex`` (only if it has no pin yet)."""
        if self.get(host_label) is not None:
            raise ValueError(f"{host_label} is already pinned; edit {self.path} to change it")
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        with os.fdopen(fd, "a", encoding="utf-8") as f:
            f.write(f"{host_label} {fp_hex.lower()}\n")


def changed_key_warning(host_label: str, pinned: str, seen: str, path: Path) -> str:
    """The loud, ssh-style warning for a host whose key changed."""
    bar = "@" * 59
    return (f"{bar}\n@    WARNING: THE HOST'S KEY HAS CHANGED!                 @\n{bar}\n"
            f"The host at {host_label} shows a different key than the one you trusted.\n"
            "Someone could be impersonating it (a man-in-the-middle), or the host was "
            "reinstalled.\n"
            f"  pinned: {human_fingerprint(pinned)}\n"
            f"  now:    {human_fingerprint(seen)}\n"
            f"The connection was refused. If you know why the key changed, remove the line for "
            f"{host_label} from {path} and connect again.")
