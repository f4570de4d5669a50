"""The referee's messages of random War Chest games (FILE, written by
tests/sdk/random_messages.c: 4-byte big-endian lengths, each followed by a
message), decoded by this SDK from their bytes: every field must equal what
the bytes say, as for the shared fixtures (test_fixtures.py), over values
the hand-made fixtures cannot all hold. Run by ctest's
test_sdk_random_messages:

    /usr/bin/python3 random_messages.py FILE
"""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from arena_bot import wire  # noqa: E402
from test_fixtures import DECODERS, SameFields  # noqa: E402


def messages(path):
    with open(path, "rb") as f:
        data = f.read()
    at = 0
    while at < len(data):
        size = int.from_bytes(data[at:at + 4], "big")
        assert at + 4 + size <= len(data), f"{path}: cut short at byte {at}"
        yield data[at + 4:at + 4 + size]
        at += 4 + size


class RandomMessagesTest(SameFields, unittest.TestCase):
    path = None

    def test_every_field_of_every_message_decodes(self):
        seen = {}
        for n, frame in enumerate(messages(self.path)):
            msg = wire.unpack(frame)
            self.assertIsInstance(msg, dict, f"message {n}")
            kind = msg["type"]
            self.assertIn(kind, DECODERS, f"message {n}")
            seen[kind] = seen.get(kind, 0) + 1
            fields = {k: v for k, v in msg.items() if k != "type"}
            self.same(fields, DECODERS[kind](msg), f"message {n} ({kind} {msg.get('id')})")
        self.assertGreater(seen.get("request", 0), 100, seen)
        self.assertEqual(seen.get("update", 0), 2 * seen["request"], seen)
        print(f"python: {sum(seen.values())} messages decode field by field", file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: random_messages.py FILE")
    RandomMessagesTest.path = sys.argv.pop()
    unittest.main()
