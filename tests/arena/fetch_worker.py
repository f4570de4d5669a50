#!/usr/bin/python3
"""fetch_worker.py - a worker that asks the arena for bots' files it was
not given, and plays nothing.

usage: fetch_worker.py ENDPOINT OUT ARENA.pub SECRET_KEY

It joins over CURVE like `referee worker --curve-server ARENA.pub
--curve-key SECRET_KEY`, says ready, and on its first job sends the
worker link's `fetch` (ARCHITECTURE.md "The worker link") for: a hash no
bot of its match has, a bot's hash under another match's id, a malformed
hash, then one of its own match's bots, and that again until the arena
stops sending it (it sends each bot of a match at most twice). Each
answer's outcome is a line in OUT: "refused ERROR" or "archive BYTES
HASH". Then it leaves without a result (its match goes to another worker).
"""
import hashlib
import sys

import msgpack

import link_peer


def ask(sock, out, id_, hash_):
    sock.send(msgpack.packb({"type": "fetch", "id": id_, "hash": hash_}))
    while sock.poll(60000):
        msg = msgpack.unpackb(sock.recv(), raw=False)
        if msg.get("type") != "bot":
            continue
        if "archive" in msg:
            out.write("archive %d %s\n" % (len(msg["archive"]), msg["hash"]))
        else:
            out.write("refused %s\n" % msg.get("error"))
        out.flush()
        return "archive" in msg
    sys.exit("no answer to a fetch")


def main():
    endpoint, out_path, server, secret_path = sys.argv[1:5]
    sock = link_peer.join(endpoint, 0, server, secret_path)
    while sock.poll(120000):
        job = msgpack.unpackb(sock.recv(), raw=False)
        if job.get("type") != "job":
            continue
        mine = [b["hash"] for b in job["bots"] if "hash" in b]
        with open(out_path, "w") as out:
            ask(sock, out, job["id"], hashlib.sha256(b"not a bot of this match").hexdigest())
            ask(sock, out, job["id"] + 1000, mine[0])
            ask(sock, out, job["id"], "../../etc/passwd")
            for _ in range(10):
                if not ask(sock, out, job["id"], mine[0]):
                    break
            out.write("done\n")
        sock.close()
        return
    sys.exit("no job came")


main()
