"""What can go wrong with a connection to a host, as exceptions whose ``str()`` is a sentence to
show the player (raised by :mod:`client.session`, also :mod:`client.reconnect`'s to tell apart)."""

from __future__ import annotations


class SessionError(Exception):
    """A failure to show the player: ``str(exc)`` is a sentence."""


class FingerprintMismatch(SessionError):
    """The host's key differs from the pinned one (known_hosts or ``pinned_fingerprint``)."""


class HostNotTrusted(SessionError):
    """First contact with an unknown key was not confirmed."""


class BadRoomCode(SessionError):
    """The host refused the room code (or needs one)."""


class RateLimited(BadRoomCode):
    """Too many wrong codes from this address; wait a minute."""


class HostBusy(SessionError):
    """The host's line of room codes from this address is full (a flood of wrong codes beside
    this player, behind the same address): not this player's fault, ``seconds`` says when to
    try again (:meth:`client.session.Session.connect` does, a few times)."""

    def __init__(self, message: str, seconds: float = 1.0) -> None:
        super().__init__(message)
        self.seconds = seconds


class ProtocolError(SessionError):
    """The host broke the protocol or refused the connection; ``code`` says why."""

    def __init__(self, message: str, code: str = "protocol") -> None:
        super().__init__(message)
        self.code = code


class ConnectionLost(SessionError):
    """The connection closed or failed."""


class Unreachable(ConnectionLost):
    """No connection could be opened: nothing listens there, no such host, no answer."""

    def __init__(self, host: str, port: int, why: BaseException, timeout: float) -> None:
        super().__init__(unreachable_text(host, port, why, timeout))


def unreachable_text(host: str, port: int, why: BaseException, timeout: float) -> str:
    """Why ``host:port`` could not be reached, as a sentence in the reader's language."""
    import socket
    import ssl

    from hexnet.i18n import _

    address = f"{host}:{port}"
    if isinstance(why, ConnectionRefusedError):
        return _("Nothing answers at {address} (connection refused): is the host running, "
                 "on that port?").format(address=address)
    if isinstance(why, TimeoutError):
        return _("No answer from {address} within {seconds} s.").format(
            address=address, seconds=f"{timeout:g}")
    if isinstance(why, socket.gaierror):
        return _("There is no host named {host} on this network.").format(host=host)
    if isinstance(why, ssl.SSLError):
        return _("{address} answers, but not as a hexnet host (TLS: {why}).").format(
            address=address, why=why.reason or why)
    reason = why.strerror if isinstance(why, OSError) and why.strerror else str(why)
    return _("Cannot reach {address}: {why}.").format(address=address,
                                                       why=reason or type(why).__name__)


def told_wait(said: str) -> int | None:
    """The seconds a host's refusal ``said`` to wait ("… try again in 3 s."), if it names any."""
    import re

    wait = re.search(r"(\d+) s\b", said)
    return int(wait.group(1)) if wait else None


def code_refusal(code: str, said: str) -> str:
    """A refused room code in the reader's language (``said``: the host's own sentence, kept
    where these words do not cover it)."""
    from hexnet.i18n import _

    if code == "bad_code":
        return _("That room code is not this host's.")
    if code == "code_required":
        return _("This host needs its room code.")
    if code == "malformed":
        return _("A room code is 10 letters and digits, like 7K3QF-9XM2D.")
    wait = told_wait(said)
    if code == "rate_limited" and wait is not None:
        return _("Too many wrong room codes from you; try again in {seconds} s.").format(
            seconds=wait)
    if code == "busy" and wait is not None:
        return _("The host is checking too many room codes from your address at once; try "
                 "again in {seconds} s.").format(seconds=wait)
    return said
