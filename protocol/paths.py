"""Where hexnet keeps its files: ``$XDG_CONFIG_HOME/hexnet`` and ``$XDG_DATA_HOME/hexnet``."""

from __future__ import annotations

import os
from pathlib import Path


def config_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """The config directory (created, mode 0700): ``override`` or ``$XDG_CONFIG_HOME/hexnet``."""
    if override:
        path = Path(override)
    else:
        base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
        path = Path(base) / "hexnet"
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    return path


def data_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """The data directory (created, mode 0700): ``override`` or ``$XDG_DATA_HOME/hexnet``."""
    if override:
        path = Path(override)
    else:
        base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
        path = Path(base) / "hexnet"
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    return path


def write_private(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` readable only by the owner, atomically (tmp + rename)."""
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
