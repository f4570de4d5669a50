#!/usr/bin/python3
"""bad_bot.py MODE - a Python bot that breaks the protocol on purpose.

Modes: garbage (bytes that are not msgpack), illegal (an index past the
end), outofturn (an action before any request), badtoken (a wrong hello
token). The referee must give each the same reason it gives a C bot.
"""
import os
import sys

import msgpack
import zmq

mode = sys.argv[1]
sock = zmq.Context().socket(zmq.DEALER)
sock.setsockopt(zmq.LINGER, 0)
sock.connect(os.environ["ARENA_ENDPOINT"])
token = "0" * 32 if mode == "badtoken" else os.environ["ARENA_TOKEN"]
sock.send(msgpack.packb({"type": "hello", "protocol": 1, "token": token,
                         "name": "bad-python", "version": "1"}))
if mode == "outofturn":
    sock.send(msgpack.packb({"type": "action", "id": 1, "index": 0}))
while True:
    msg = msgpack.unpackb(sock.recv(), raw=False)
    if msg["type"] == "request":
        if mode == "garbage":
            sock.send(b"\xc1 not msgpack")
        else:
            sock.send(msgpack.packb({"type": "action", "id": msg["id"],
                                     "index": len(msg["actions"])}))
    elif msg["type"] == "end":
        break
