"""The bytes on the wire: one msgpack map per ZeroMQ frame (PROTOCOL.md s. 2).

The referee is trusted to follow the protocol, but a bot should not be
crashable by whatever bytes arrive, so decoding is strict about form
(UTF-8 strings, str map keys, bounded sizes, no extension types) and
answers None instead of raising.
"""
from __future__ import annotations

import msgpack

# Far above any real message (a request is a few KB) yet small enough that a
# corrupt length prefix cannot make the unpacker allocate gigabytes.
LIMITS = dict(max_str_len=1 << 20, max_bin_len=1 << 20, max_array_len=1 << 16,
              max_map_len=1 << 16, max_ext_len=0)


def unpack(data: bytes) -> dict | None:
    """One msgpack map with str keys, or None for anything else."""
    try:
        msg = msgpack.unpackb(data, raw=False, strict_map_key=True, use_list=True, **LIMITS)
    except Exception:  # msgpack raises many kinds (ValueError, StackError, OutOfData...)
        return None
    if not isinstance(msg, dict) or not all(isinstance(k, str) for k in msg):
        return None
    return msg


def pack(msg: dict) -> bytes:
    return msgpack.packb(msg, use_bin_type=True)
