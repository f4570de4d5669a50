"""submit.py - send a bot to an arena's gateway, as `arena submit` does.

A participant needs their credentials file (from the organizer's `arena user
add`) and the bot's folder:

    /usr/bin/python3 -m arena_bot.submit --credentials alice.cred --name mybot \\
        --version 2 --game warchest --cmd "python3 bot.py" ./mybot
    /usr/bin/python3 -m arena_bot.submit --credentials alice.cred --list

or from Python: submit(credentials, name, version, cmd, folder, games) and
list_bots(credentials), each returning (accepted, message, text, hash).
The wire (gateway/gw_proto.c): over ZeroMQ with CURVE, a DEALER sends a
msgpack header {type, protocol, ...} and, for a submission, the folder as
a .tar.gz in a second frame; the reply is {type: "reply", accepted,
message, text, hash}. The arena checks everything it is sent.
"""
import argparse
import io
import sys
import tarfile

import msgpack
import zmq

PROTOCOL = 1


def read_credentials(path):
    """The credentials file's fields: name, endpoint, server-key, secret-key."""
    fields = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                key, _, value = line.partition(" ")
                fields[key] = value
    for key in ("name", "endpoint", "server-key", "secret-key"):
        if len(fields.get(key, "")) == 0:
            raise ValueError("%s: no %s (not a credentials file)" % (path, key))
    return fields


def pack_folder(folder):
    """The folder as a .tar.gz in memory, its paths relative to it."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as tar:
        tar.add(folder, arcname=".")
    return out.getvalue()


def _call(credentials, frames, timeout_s):
    cred = read_credentials(credentials)
    ctx = zmq.Context()
    sock = ctx.socket(zmq.DEALER)
    try:
        sock.linger = 2000
        public = zmq.curve_public(cred["secret-key"].encode())
        sock.curve_serverkey = cred["server-key"].encode()
        sock.curve_publickey = public
        sock.curve_secretkey = cred["secret-key"].encode()
        sock.connect(cred["endpoint"])
        sock.send_multipart(frames)
        if not sock.poll(timeout_s * 1000):
            raise TimeoutError("no answer from the gateway at %s in %d s (are these "
                               "credentials this arena's?)" % (cred["endpoint"], timeout_s))
        reply = msgpack.unpackb(sock.recv(), raw=False)
        if not isinstance(reply, dict) or reply.get("type") != "reply":
            raise ValueError("an unreadable reply")
        return (bool(reply.get("accepted")), str(reply.get("message", "")),
                str(reply.get("text", "")), str(reply.get("hash", "")))
    finally:
        sock.close(0)
        ctx.term()


def submit(credentials, name, version, cmd, folder, games=(), timeout_s=600):
    """Sends the folder (or the bytes of a .tar.gz) as NAME@VERSION."""
    archive = folder if isinstance(folder, bytes) else pack_folder(folder)
    head = msgpack.packb({"type": "submit", "protocol": PROTOCOL, "name": name,
                          "version": version, "games": list(games), "cmd": cmd})
    return _call(credentials, [head, archive], timeout_s)


def list_bots(credentials, timeout_s=60):
    """The participant's own bots, as a table in the reply's text."""
    return _call(credentials, [msgpack.packb({"type": "list", "protocol": PROTOCOL})],
                 timeout_s)


def main(argv=None):
    p = argparse.ArgumentParser(description="Send a bot to an arena's gateway.")
    p.add_argument("--credentials", required=True)
    p.add_argument("--list", action="store_true", help="your bots")
    p.add_argument("--name")
    p.add_argument("--version")
    p.add_argument("--game", action="append", default=[])
    p.add_argument("--cmd")
    p.add_argument("--timeout", type=int, default=600)
    p.add_argument("folder", nargs="?")
    a = p.parse_args(argv)
    if a.list:
        accepted, message, text, digest = list_bots(a.credentials, a.timeout)
    else:
        if not (a.name and a.version and a.cmd and a.folder):
            p.error("--name, --version, --cmd and a folder are needed (or --list)")
        accepted, message, text, digest = submit(a.credentials, a.name, a.version, a.cmd,
                                                 a.folder, a.game, a.timeout)
    show = lambda s: "".join(c if c >= " " or c in "\n\t" else "?" for c in s)
    print(show(message))
    if digest:
        print("content hash " + digest)
    if text:
        print(show(text), end="" if text.endswith("\n") else "\n")
    return 0 if accepted else 1


if __name__ == "__main__":
    sys.exit(main())
