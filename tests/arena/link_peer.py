"""link_peer.py - what the test workers that speak the worker link by hand
share (forge_worker.py, fetch_worker.py): a DEALER joined to the arena,
over CURVE when given the arena's public key and a worker's secret key
(`arena keygen` files), that has said `ready`."""
import os

import msgpack
import zmq


def key_of(path):
    """The one key of a key file (its line that is not a # comment)."""
    with open(path) as f:
        return [line.strip() for line in f if line.strip() and not line.startswith("#")][0]


def join(endpoint, linger, server=None, secret_path=None):
    """A DEALER connected to endpoint that has said ready."""
    sock = zmq.Context().socket(zmq.DEALER)
    sock.setsockopt(zmq.LINGER, linger)
    if server:
        secret = key_of(secret_path).encode()
        sock.curve_serverkey = key_of(server).encode()
        sock.curve_secretkey = secret
        sock.curve_publickey = zmq.curve_public(secret)
    sock.connect(endpoint)
    sock.send(msgpack.packb({"type": "ready", "protocol": 1, "pid": os.getpid()}))
    return sock
