#!/usr/bin/python3
"""forge_worker.py - a worker that plays nothing and forges its results.

usage: forge_worker.py ENDPOINT MODE RECORDS_DIR JOBS_LOG [ARENA.pub SECRET_KEY]

It speaks the worker link (ARCHITECTURE.md "The worker link": ready, job,
result; msgpack over a ZeroMQ DEALER) like `referee worker`, and answers
each job with a real match record from RECORDS_DIR (records exported from
another database: `arena export`), forged by MODE:
  seed  a record of another seed as it is (it replays: only its seed
        tells it from the job's);
  flip  the record of the job's own seed, its result line changed
        (each seat's score turned over), so only a replay can tell;
  contended  a record of another seed made to end `contended` (a match
        the arena plays again rather than stores: a forger's way to stall);
  escape  the job's record with a terminal's escape sequence in its game
        line (the arena's log quotes the line it cannot read).
Each job it gets is a line "job ID SEED" in JOBS_LOG; a `stop` ends it.
With the two key files (arena keygen), it joins over CURVE like
`referee worker --curve-server ARENA.pub --curve-key SECRET_KEY`.
"""
import os
import re
import sys

import msgpack

import link_peer


def records(folder):
    """Every record in folder: {seed: text}."""
    out = {}
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name)) as f:
            text = f.read()
        seed = int(re.search(r"^seed (\d+)$", text, re.M).group(1))
        out[seed] = text
    return out


def with_result(text, scores):
    return re.sub(r"^result .*$", "result " + scores, text, count=1, flags=re.M)


def forge(mode, job, recs):
    if mode == "seed":
        return [t for s, t in recs.items() if s != job["seed"]][0]
    if mode == "contended":
        text = [t for s, t in recs.items() if s != job["seed"]][0]
        text = re.sub(r"^reason .*$", "reason contended", text, count=1, flags=re.M)
        text = re.sub(r"^culprit .*$", "culprit 0", text, count=1, flags=re.M)
        return with_result(text, "0 0")
    text = recs[job["seed"]]
    if mode == "escape":
        return re.sub(r"^game ", "game \x1b[2J\x1b]0;owned\x07", text, count=1, flags=re.M)
    scores = re.search(r"^result (.*)$", text, re.M).group(1).split()
    return with_result(text, " ".join("0" if float(s) > 0 else "1" for s in scores))


def main():
    endpoint, mode, folder, log = sys.argv[1:5]
    recs = records(folder)
    keys = sys.argv[5:7] if len(sys.argv) == 7 else [None, None]
    sock = link_peer.join(endpoint, 2000, *keys)
    while sock.poll(120000):
        msg = msgpack.unpackb(sock.recv(), raw=False)
        if msg.get("type") == "stop":
            with open(log, "a") as f:
                f.write("stop\n")
            return
        if msg.get("type") != "job":
            continue
        with open(log, "a") as f:
            f.write("job %d %d\n" % (msg["id"], msg["seed"]))
        sock.send(msgpack.packb({"type": "result", "id": msg["id"], "error": None,
                                 "record": forge(mode, msg, recs),
                                 "started_ms": 0, "finished_ms": 1}))
    sys.exit("no stop came")


main()
