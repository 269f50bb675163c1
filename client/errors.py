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


class ProtocolError(SessionError):
    """The host broke the protocol or refused the connection; ``code`` says why."""

    def __init__(self, message: str, code: str = "protocol") -> None:
        super().__init__(message)
        self.code = code


class ConnectionLost(SessionError):
    """The connection closed or failed."""
