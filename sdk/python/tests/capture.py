#!/usr/bin/python3
"""capture.py OUTDIR - a random bot that saves every message the referee
sends it, as the exact bytes, to OUTDIR/NNNN-TYPE.msgpack.

How the fixtures in tests/data/ were made (then a few were picked by hand):
    referee play --setup draft --bot "/usr/bin/python3 capture.py /tmp/cap" --bot random
It speaks through Connection, not run(), so decoding cannot hide anything.
"""
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), ".."))
from arena_bot import Connection, wire  # noqa: E402


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = random.Random(int(os.environ.get("ARENA_BOT_SEED", "1")))
    conn = Connection("capture", "1")
    for n in range(100000):
        data = conn.socket.recv()
        msg = wire.unpack(data) or {}
        kind = msg.get("type", "junk")
        with open(os.path.join(out, f"{n:04d}-{kind}.msgpack"), "wb") as f:
            f.write(data)
        if kind == "request":
            conn.send_action(msg["id"], rng.randrange(len(msg["actions"])))
        elif kind == "end":
            break
    conn.close()


if __name__ == "__main__":
    main()
