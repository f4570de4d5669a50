"""The bot's side of the conversation (PROTOCOL.md s. 1-4).

Connection is the thin layer: a DEALER socket, hello, raw maps in and out.
The stdio bridge uses it directly because it must forward what a child
program says, right or wrong. run() is what a bot author calls: it decodes
every message, asks the bot for a choice and answers.
"""
from __future__ import annotations

import os
import sys

import zmq

from . import wire
from .model import ProtocolError, Request, Result, Update, Welcome

PROTOCOL = 1


class Connection:
    """One DEALER socket to the referee's seat endpoint, hello already sent."""

    def __init__(self, name: str, version: str, endpoint: str | None = None,
                 token: str | None = None, context: zmq.Context | None = None):
        endpoint = endpoint or os.environ.get("ARENA_ENDPOINT")
        token = token if token is not None else os.environ.get("ARENA_TOKEN")
        if not endpoint or token is None:
            raise ProtocolError("ARENA_ENDPOINT and ARENA_TOKEN are not set; "
                                "run this bot from the referee")
        self._own_context = context is None
        self.context = context or zmq.Context()
        self.socket = self.context.socket(zmq.DEALER)
        # Nothing is worth sending once the match is over; never block exit.
        self.socket.setsockopt(zmq.LINGER, 0)
        # A frame this big can only be corruption; ZeroMQ drops it unread.
        self.socket.setsockopt(zmq.MAXMSGSIZE, 64 << 20)
        self.socket.connect(endpoint)
        self.send({"type": "hello", "protocol": PROTOCOL, "token": token,
                   "name": name, "version": version})

    def send(self, msg: dict) -> None:
        self.socket.send(wire.pack(msg))

    def send_bytes(self, data: bytes) -> None:
        """Sends a frame as is: the bridge's way to pass on a malformed answer."""
        self.socket.send(data)

    def send_action(self, request_id: int, index: int | None = None,
                    text: str | None = None) -> None:
        msg = {"type": "action", "id": request_id}
        if index is not None:
            msg["index"] = index
        else:
            msg["text"] = text
        self.send(msg)

    def receive(self, timeout_ms: int | None = None) -> dict | None:
        """The next message that is a map with a str "type"; None on timeout.
        Anything else is reported on stderr and skipped."""
        while True:
            if timeout_ms is not None and not self.socket.poll(timeout_ms):
                return None
            msg = wire.unpack(self.socket.recv())
            if msg is not None and isinstance(msg.get("type"), str):
                return msg
            print("arena_bot: skipped a message from the referee that is not a msgpack map "
                  "with a type", file=sys.stderr)

    def close(self) -> None:
        self.socket.close(0)
        if self._own_context:
            self.context.term()


def _decider(bot):
    """A plain function is the decision; an object's decide() method is."""
    decide = getattr(bot, "decide", None)
    if callable(decide):
        return decide
    if callable(bot):
        return bot
    raise TypeError("run() wants a function choose(request) or an object with decide(request)")


def _hook(bot, name):
    fn = getattr(bot, name, None)
    # A function bot has no hooks; don't mistake its attributes for them.
    return fn if callable(fn) and hasattr(bot, "decide") else None


def run(bot, name: str = "bot", version: str = "1", endpoint: str | None = None,
        token: str | None = None, timeout_s: float | None = None) -> Result:
    """Plays one match for `bot` and returns the Result from "end".

    A choice may be an Action of request.actions, an int index or notation
    text; anything else raises InvalidChoice (the bot then dies, and the
    referee records a crash: better than a silent wrong move).

    timeout_s bounds the wait for each message from the referee (None: no
    bound, the referee ends its bots itself); past it run() raises
    ProtocolError, so a referee that died never leaves the bot waiting."""
    decide = _decider(bot)
    on_welcome, on_update, on_end = (_hook(bot, h) for h in ("on_welcome", "on_update", "on_end"))
    conn = Connection(name, version, endpoint, token)
    seat = game = None
    try:
        while True:
            msg = conn.receive(None if timeout_s is None else max(1, int(timeout_s * 1000)))
            if msg is None:
                raise ProtocolError(f"no message from the referee in {timeout_s:g} s")
            kind = msg["type"]
            if kind == "request":
                try:
                    req = Request.from_map(msg, game)
                except ProtocolError as e:
                    print(f"arena_bot: cannot answer a request: {e}", file=sys.stderr)
                    continue
                conn.send_action(req.id, req.index_of(decide(req)))
            elif kind == "update" and on_update:
                on_update(Update.from_map(msg, game))
            elif kind == "welcome":
                welcome = Welcome.from_map(msg)
                seat, game = welcome.seat, welcome.game
                if on_welcome:
                    on_welcome(welcome)
            elif kind == "error":
                print(f"arena_bot: the referee says {msg.get('code')}: {msg.get('message')}",
                      file=sys.stderr)
            elif kind == "end":
                result = Result.from_map(msg, seat)
                if on_end:
                    on_end(result)
                return result
            # Other types: a later protocol 1 may add some; ignore them.
    finally:
        conn.close()
