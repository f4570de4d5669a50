#!/usr/bin/python3
"""raw_bot.py - the floor for a Python bot: bare pyzmq and msgpack, no SDK.

It answers every request with a seeded random index, as random_bot.py
does, so scripts/bench-sdk.sh can compare the SDK's cost with the raw
round trip on matches of the same kind.
"""
import os
import random

import msgpack
import zmq

sock = zmq.Context().socket(zmq.DEALER)
sock.connect(os.environ["ARENA_ENDPOINT"])
sock.send(msgpack.packb({"type": "hello", "protocol": 1, "token": os.environ["ARENA_TOKEN"],
                         "name": "raw-python", "version": "1"}))
rng = random.Random(int(os.environ.get("ARENA_BOT_SEED", "1")))
while True:
    msg = msgpack.unpackb(sock.recv(), raw=False)
    if msg["type"] == "request":
        sock.send(msgpack.packb({"type": "action", "id": msg["id"],
                                 "index": rng.randrange(len(msg["actions"]))}))
    elif msg["type"] == "end":
        break
