"""The JSON line format of the stdin/stdout bridge (PROTOCOL.md s. 11).

to_line() turns a referee message into the one line a stdio bot reads;
parse_answer() turns the line it writes back into what the bridge sends.
Kept here, beside the SDK, so that both are unit-tested without a child.
"""
from __future__ import annotations

import json
import re

# Longer answers are refused as malformed: the longest action text is under
# 40 characters, and this keeps a forwarded text far below the 1 MiB cap.
MAX_ANSWER = 64 << 10
_INT = re.compile(r"[+-]?[0-9]+")


def _jsonable(v):
    """msgpack may carry bytes; JSON cannot. Nothing in protocol 1 is bytes."""
    if isinstance(v, (bytes, bytearray)):
        return v.decode("utf-8", "replace")
    raise TypeError(type(v).__name__)


def to_line(msg: dict) -> bytes:
    """One line of compact JSON, newline included. A request's actions get
    their "index" first, so a shell script can count them with grep; each
    action's other keys pass as they came, whatever the game."""
    if msg.get("type") == "request":
        acts = msg.get("actions") if isinstance(msg.get("actions"), list) else []
        out = {"type": "request", "id": msg.get("id"), "decision": msg.get("decision"),
               "time": msg.get("time"), "observation": msg.get("observation"),
               "actions": [dict({"index": i}, **{str(k): v for k, v in a.items() if k != "index"})
                           for i, a in enumerate(acts) if isinstance(a, dict)]}
    else:
        out = msg
    return json.dumps(out, separators=(",", ":"), default=_jsonable).encode() + b"\n"


class Malformed(ValueError):
    """A line that is no answer at all: the bridge passes it on as bytes that
    are not msgpack, so the referee records `malformed`."""


def _int64(n: int) -> int:
    # msgpack cannot carry a wider int; any such index is out of range anyway,
    # and -1 keeps it an illegal index rather than a packing error.
    return n if -(1 << 63) <= n < (1 << 63) else -1


def parse_answer(line: bytes) -> dict:
    """{"index": n} or {"text": s} for the action message; raises Malformed.

    Accepted: a bare integer ("3"), a JSON object with "index" (an integer)
    or "text" (a string) - index wins if both - a JSON string, or the
    action's notation ("deploy archer d4"). Any other JSON (a line starting
    with {, [ or ") is malformed. Legality is the referee's call.
    """
    if len(line) > MAX_ANSWER:
        raise Malformed(f"a line of {len(line)} bytes (at most {MAX_ANSWER})")
    try:
        text = line.decode("utf-8").strip()
    except UnicodeDecodeError:
        raise Malformed("a line that is not UTF-8") from None
    if not text:
        raise Malformed("an empty line")
    if _INT.fullmatch(text):
        return {"index": _int64(int(text))}
    if text[0] in '{["':                 # JSON: no action's notation starts so
        try:
            v = json.loads(text)
        except ValueError:
            raise Malformed("a line that starts like JSON but is not") from None
        if isinstance(v, str):
            return _text(v)
        if isinstance(v, dict):
            if "index" in v:
                n = v["index"]
                if isinstance(n, int) and not isinstance(n, bool):
                    return {"index": _int64(n)}
                raise Malformed('"index" that is not an integer')
            if isinstance(v.get("text"), str):
                return _text(v["text"])
        raise Malformed('JSON that is neither {"index": n} nor {"text": "..."}')
    return _text(text)


def _text(s: str) -> dict:
    if any(ord(c) < 32 or ord(c) == 127 for c in s):
        raise Malformed("control characters in an action's text")
    try:
        s.encode("utf-8")   # JSON can smuggle in lone surrogates; msgpack can't pack them
    except UnicodeEncodeError:
        raise Malformed("a text that is not valid Unicode") from None
    return {"text": s}
