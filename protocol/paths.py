"""Where hexnet keeps its files: ``$XDG_CONFIG_HOME/hexnet`` and ``$XDG_DATA_HOME/hexnet``.

Both directories (and the journals directory inside the data directory) are the owner's alone:
mode 0700, tightened if they already exist with looser modes; the files in them that hold
secrets (identity key, host key, room code, journals) are 0600, and those of the config
directory are tightened to 0600 whenever it is opened, whatever mode they were found in. A
journal holds the seed of a game still running — every hand and role — so no other user of the
machine may read it.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

# the files of a config directory that hold secrets: the host's key and room code, the guests'
# identity secret, a client's identity key
SECRET_FILES = ("host_key.pem", "room_code", "guest_secret", "identity.pem")


def config_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """The config directory (created, mode 0700): ``override`` or ``$XDG_CONFIG_HOME/hexnet``.
    The secret files found in it (:data:`SECRET_FILES`) are tightened to 0600, whatever mode
    they were found in."""
    if override:
        path = Path(override)
    else:
        base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
        path = Path(base) / "hexnet"
    private_dir(path)
    for name in SECRET_FILES:
        tighten_file(path / name)
    return path


def data_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """The data directory (created, mode 0700): ``override`` or ``$XDG_DATA_HOME/hexnet``."""
    if override:
        path = Path(override)
    else:
        base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
        path = Path(base) / "hexnet"
    return private_dir(path)


def private_dir(path: Path) -> Path:
    """``path`` as a directory only its owner may enter: made (with parents) mode 0700, or
    tightened to 0700 if it exists with a looser mode."""
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    tighten(path, 0o700)
    return path


def tighten(path: Path, mode: int) -> None:
    """Take away the group's and others' rights ``mode`` does not grant (owner's kept). A
    shared directory with the sticky bit (``/tmp``) is left alone."""
    st = path.stat()
    current = st.st_mode & 0o777
    if st.st_mode & stat.S_ISVTX:
        return
    if current & ~mode & 0o077:
        os.chmod(path, (current & 0o700) | (mode & 0o077))


def tighten_file(path: Path) -> None:
    """A secret file made the owner's alone (0600 at most) if it exists; a symbolic link is
    left alone (its target is not this directory's to change)."""
    try:
        st = path.lstat()
    except FileNotFoundError:
        return
    if stat.S_ISREG(st.st_mode) and st.st_mode & 0o077:
        os.chmod(path, st.st_mode & 0o700)


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
