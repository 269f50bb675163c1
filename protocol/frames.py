"""Frames: a 4-byte big-endian length, then one msgpack map.

Caps: :data:`PRE_AUTH_MAX` bytes before authentication, :data:`POST_AUTH_MAX` after, both
directions. Decoding is strict (``raw=False``, ``strict_map_key=True``, ``max_*_len`` limits,
ext types refused); anything that is not a map with a string ``type`` is a :class:`ProtocolError`.
Only :class:`ProtocolError` (and its subclasses) ever leaves :func:`decode`.
"""

from __future__ import annotations

import asyncio
import struct
from typing import Any

import msgpack

from protocol.errors import FrameTooLarge, ProtocolError

PRE_AUTH_MAX = 4 * 1024
POST_AUTH_MAX = 64 * 1024
_LEN = struct.Struct(">I")


def _no_ext(code: int, data: bytes) -> Any:
    raise ProtocolError("bad_frame", f"msgpack extension type {code} is not allowed.")


def encode(msg: dict[str, Any], cap: int = POST_AUTH_MAX) -> bytes:
    """``msg`` as one frame (length prefix included); ValueError if it would exceed ``cap``."""
    payload = msgpack.packb(msg, use_bin_type=True)
    if len(payload) > cap:
        raise ValueError(f"a {msg.get('type')!r} message of {len(payload)} bytes exceeds {cap}")
    return _LEN.pack(len(payload)) + payload


def decode(payload: bytes, cap: int = POST_AUTH_MAX) -> dict[str, Any]:
    """The map in one frame's payload, decoded strictly."""
    if len(payload) > cap:
        raise FrameTooLarge(len(payload), cap)
    try:
        obj = msgpack.unpackb(
            payload, raw=False, strict_map_key=True, use_list=True, ext_hook=_no_ext,
            max_str_len=cap, max_bin_len=cap, max_array_len=cap, max_map_len=cap,
            max_ext_len=0)
    except ProtocolError:
        raise
    except Exception as exc:  # msgpack raises several types (ExtraData, ValueError, StackError…)
        raise ProtocolError("bad_frame", "The frame is not one valid msgpack value.") from exc
    if not isinstance(obj, dict):
        raise ProtocolError("bad_frame", "A message must be a msgpack map.")
    if not isinstance(obj.get("type"), str):
        raise ProtocolError("bad_message", "A message needs a string 'type'.")
    return obj


async def read_frame(reader: asyncio.StreamReader, cap: int) -> dict[str, Any]:
    """Read one frame. EOF → ``asyncio.IncompleteReadError``; a length over ``cap`` →
    :class:`FrameTooLarge` (raised before reading the payload)."""
    head = await reader.readexactly(_LEN.size)
    (length,) = _LEN.unpack(head)
    if length > cap:
        raise FrameTooLarge(length, cap)
    payload = await reader.readexactly(length)
    return decode(payload, cap)


async def write_frame(writer: asyncio.StreamWriter, msg: dict[str, Any], cap: int) -> None:
    """Write one frame and drain."""
    writer.write(encode(msg, cap))
    await writer.drain()
