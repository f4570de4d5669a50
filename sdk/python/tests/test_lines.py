"""The bridge's JSON lines (PROTOCOL.md section 11): requests written out,
answers read back, and which answers count as malformed."""
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from arena_bot import wire  # noqa: E402
from arena_bot.lines import MAX_ANSWER, Malformed, parse_answer, to_line  # noqa: E402

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


class ToLineTest(unittest.TestCase):
    def test_request(self):
        with open(os.path.join(DATA, "request-priest.msgpack"), "rb") as f:
            msg = wire.unpack(f.read())
        line = to_line(msg)
        self.assertTrue(line.endswith(b"\n"))
        self.assertEqual(line.count(b"\n"), 1)
        self.assertTrue(line.startswith(b'{"type":"request","id":103,'))
        out = json.loads(line)
        self.assertEqual(out["observation"], msg["observation"])
        self.assertEqual(out["time"], msg["time"])
        self.assertEqual(len(out["actions"]), len(msg["actions"]))
        for i, a in enumerate(out["actions"]):
            self.assertEqual(list(a)[:2], ["index", "text"])
            self.assertEqual(a["index"], i)
            self.assertEqual(a["text"], msg["actions"][i]["text"])
            self.assertIn("from", a)
        # What random.sh counts.
        self.assertEqual(line.count(b'"index":'), len(msg["actions"]))

    def test_any_game_actions_keep_their_keys(self):
        msg = {"type": "request", "id": 4, "decision": "bid", "time": {},
               "observation": {"hand": [1, 3]},
               "actions": [{"text": "bid 1", "card": 1}, {"text": "bid 3", "card": 3}]}
        out = json.loads(to_line(msg))
        self.assertEqual(out["actions"], [{"index": 0, "text": "bid 1", "card": 1},
                                          {"index": 1, "text": "bid 3", "card": 3}])
        self.assertEqual(out["observation"], {"hand": [1, 3]})

    def test_other_messages_pass_through(self):
        end = {"type": "end", "scores": [1.0, 0.0], "reason": "markers", "culprit": None,
               "detail": "all markers placed", "blob": b"\xff"}
        out = json.loads(to_line(end))
        self.assertEqual(out["culprit"], None)
        self.assertEqual(out["scores"], [1.0, 0.0])
        self.assertEqual(out["blob"], "\ufffd")


class ParseAnswerTest(unittest.TestCase):
    def test_accepted(self):
        cases = {b"3": {"index": 3}, b" 12 \r": {"index": 12}, b"-1": {"index": -1},
                 b"999": {"index": 999}, b"99999999999999999999999": {"index": -1},
                 b'{"index": 2}': {"index": 2}, b'{"text": "claim royal"}': {"text": "claim royal"},
                 b'{"index": 1, "text": "x"}': {"index": 1}, b'"pass archer"': {"text": "pass archer"},
                 b"deploy archer d4": {"text": "deploy archer d4"},
                 b"fly away": {"text": "fly away"}}
        for line, want in cases.items():
            self.assertEqual(parse_answer(line), want, line)

    def test_malformed(self):
        for line in (b"", b"   ", b"\xff\xfe", b"{oops", b"{}", b'{"index": "2"}',
                     b'{"index": true}', b'{"index": 1.5}', b'{"text": 3}', b"[1]",
                     b'"\\ud800"', b"pass\tarcher", b"pass\x7farcher",
                     b'{"text": "claim\\u007froyal"}', b"x" * (MAX_ANSWER + 1)):
            with self.assertRaises(Malformed, msg=repr(line[:30])):
                parse_answer(line)


if __name__ == "__main__":
    unittest.main()
