"""A test tap on the host's side of its TLS connections: every frame the host hands to a TLS
transport, decoded at the moment it is handed over (before encryption, before any byte leaves).

asyncio funnels every plaintext write of a TLS transport (``write`` and ``writelines``)
through ``SSLProtocol._write_appdata``; the tap wraps it (with pytest's ``monkeypatch``, undone
after the test), passes the bytes on untouched, and for connections whose local port is the
host's cuts them into frames (4-byte length, msgpack map) and calls ``on_frame(msg)`` right
there — so a check in ``on_frame`` sees the world exactly as it is when the frame is written.
"""

from __future__ import annotations

import asyncio.sslproto
import struct
from collections.abc import Callable
from typing import Any

import msgpack
import pytest

_LEN = struct.Struct(">I")


class HostWiretap:
    """Calls ``on_frame(msg)`` for every frame the host on ``port`` writes, at write time."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, port: int,
                 on_frame: Callable[[dict[str, Any]], None]) -> None:
        self.port = port
        self.on_frame = on_frame
        self.frames = 0
        self._buffers: dict[int, bytearray] = {}
        real = asyncio.sslproto.SSLProtocol._write_appdata
        tap = self

        def write_appdata(protocol: Any, list_of_data: Any) -> None:
            chunks = [bytes(d) for d in list_of_data]
            sock = protocol._transport.get_extra_info("sockname") if protocol._transport else None
            if sock is not None and sock[1] == tap.port:
                tap._take(id(protocol), b"".join(chunks))
            return real(protocol, chunks)

        monkeypatch.setattr(asyncio.sslproto.SSLProtocol, "_write_appdata", write_appdata)

    def _take(self, key: int, data: bytes) -> None:
        buf = self._buffers.setdefault(key, bytearray())
        buf += data
        while len(buf) >= _LEN.size:
            (length,) = _LEN.unpack_from(buf)
            if len(buf) < _LEN.size + length:
                return
            payload = bytes(buf[_LEN.size:_LEN.size + length])
            del buf[:_LEN.size + length]
            self.frames += 1
            self.on_frame(msgpack.unpackb(payload, raw=False, strict_map_key=False))


def state_id_of(msg: dict[str, Any]) -> int | None:
    """The state id a ``view`` frame carries (in the view, or beside it in a delta frame)."""
    if "state_id" in msg:
        return int(msg["state_id"])
    view = msg.get("view")
    return int(view["state_id"]) if isinstance(view, dict) and "state_id" in view else None
