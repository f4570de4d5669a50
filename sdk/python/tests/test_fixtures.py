"""The shared fixtures (tests/sdk/fixtures, made by the referee's own code
from hand-made positions; the C and JavaScript SDKs read the same files):
every field of every message, decoded by this SDK, must equal what the
bytes say. The walk starts from the bytes, so a field the SDK does not
decode, or decodes from another key, fails by name; the positions give
fields a decoder could swap different values."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from arena_bot import Request, Result, Update, Welcome, wire  # noqa: E402

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                        "tests", "sdk", "fixtures")

DECODERS = {"welcome": Welcome.from_map, "request": Request.from_map,
            "update": Update.from_map, "end": Result.from_map}
# Protocol keys whose Python attribute has another name.
RENAMED = {"from": "from_"}


def fixtures():
    names = sorted(n for n in os.listdir(FIXTURES) if n.endswith(".msgpack"))
    assert len(names) >= 10, names
    for name in names:
        with open(os.path.join(FIXTURES, name), "rb") as f:
            msg = wire.unpack(f.read())
        assert isinstance(msg, dict), name
        yield name, msg


class SameFields:
    """The walk from the bytes, for a unittest.TestCase (also used by
    random_messages.py, the same check over random games' messages)."""

    def same(self, raw, decoded, where):
        """Every key of `raw` has its value in `decoded`, recursively."""
        if isinstance(raw, dict) and not isinstance(decoded, dict):
            for key, value in raw.items():
                attr = RENAMED.get(key, key)
                self.assertTrue(hasattr(decoded, attr), f"{where}.{key}: not decoded")
                self.same_field(key, value, getattr(decoded, attr), f"{where}.{key}")
        elif isinstance(raw, list):
            self.assertIsInstance(decoded, list, where)
            self.assertEqual(len(raw), len(decoded), where)
            for i, (r, d) in enumerate(zip(raw, decoded)):
                self.same(r, d, f"{where}[{i}]")
        else:
            self.assertEqual(type(raw), type(decoded), f"{where}: {raw!r} != {decoded!r}")
            self.assertEqual(raw, decoded, where)

    def same_field(self, key, raw, decoded, where):
        if key == "board":          # a list of units, decoded by hex
            self.assertEqual(sorted(decoded), sorted(u["hex"] for u in raw), where)
            for u in raw:
                self.same(u, decoded[u["hex"]], f"{where}[{u['hex']}]")
        elif key == "scores":       # numbers, decoded as floats
            self.assertEqual([float(s) for s in raw], decoded, where)
        else:
            self.same(raw, decoded, where)


class FixturesTest(SameFields, unittest.TestCase):
    def test_every_field_decodes(self):
        seen = set()
        for name, msg in fixtures():
            kind = msg["type"]
            if kind not in DECODERS:
                self.assertEqual(kind, "error", name)   # shown, not decoded
                continue
            seen.add(kind)
            decoded = DECODERS[kind](msg)
            self.same({k: v for k, v in msg.items() if k != "type"}, decoded, name)
        self.assertEqual(seen, set(DECODERS))

    def test_the_values_tell_fields_apart(self):
        # The fixtures are what make the test above able to fail.
        _, req = next((n, m) for n, m in fixtures() if n == "request-turn.msgpack")
        obs = Request.from_map(req).observation
        self.assertIs(obs.initiative_claimed, True)
        self.assertEqual([(p.bag, p.hand, p.facedown) for p in obs.players], [(4, 2, 6), (5, 3, 1)])
        self.assertEqual((obs.round, obs.round_limit, obs.markers, obs.initiative), (7, 40, 6, 0))


if __name__ == "__main__":
    unittest.main()
