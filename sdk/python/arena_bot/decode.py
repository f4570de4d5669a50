"""Lenient reads of the referee's decoded msgpack maps, shared by the
transport (model.py) and the games' decoders: a value of the wrong type
reads as the default, so a newer referee (or a broken one) cannot crash a
bot here.
"""
from __future__ import annotations


def _int(m: dict, key: str, default=None):
    v = m.get(key)
    # bool is an int in Python, but never a number in the protocol.
    return v if isinstance(v, int) and not isinstance(v, bool) else default


def _str(m: dict, key: str, default=None):
    v = m.get(key)
    return v if isinstance(v, str) else default


def _map(v) -> dict:
    return v if isinstance(v, dict) else {}


def _list(v) -> list:
    return v if isinstance(v, list) else []
