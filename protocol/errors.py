"""The protocol's own errors: every decoding or validation failure raises one of these."""

from __future__ import annotations


class ProtocolError(Exception):
    """Invalid input on the wire. ``code`` is machine-readable, ``message`` a sentence."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def as_message(self) -> dict[str, str]:
        """The ``error`` message that reports this to the peer."""
        return {"type": "error", "code": self.code, "message": self.message}


class FrameTooLarge(ProtocolError):
    """A frame whose announced length exceeds the cap in force."""

    def __init__(self, length: int, cap: int) -> None:
        super().__init__("too_large", f"A frame of {length} bytes exceeds the limit of {cap}.")
