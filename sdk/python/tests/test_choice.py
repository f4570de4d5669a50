"""Choice resolution: what a bot may return from decide(), and the clear
InvalidChoice for anything that is not one of the request's actions."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from arena_bot import Action, InvalidChoice, Request  # noqa: E402


def request(*texts):
    return Request.from_map({"type": "request", "id": 7, "decision": "turn",
                             "actions": [{"text": t, "kind": t.split()[0]} for t in texts]})


class ChoiceTest(unittest.TestCase):
    def setUp(self):
        self.req = request("deploy archer d4", "claim archer", "pass archer")

    def test_action(self):
        self.assertEqual(self.req.index_of(self.req.actions[2]), 2)
        # An equal action from elsewhere (e.g. a copy kept from an earlier request).
        self.assertEqual(self.req.index_of(Action("claim archer", "claim")), 1)

    def test_index(self):
        self.assertEqual(self.req.index_of(0), 0)
        self.assertEqual(self.req.index_of(2), 2)

    def test_text(self):
        self.assertEqual(self.req.index_of("pass archer"), 2)
        self.assertEqual(self.req.index_of("  claim archer\n"), 1)
        self.assertIs(self.req.find("claim archer"), self.req.actions[1])
        self.assertIsNone(self.req.find("claim"))

    def test_invalid(self):
        for bad in (3, -1, True, "claim footman", "", Action("move archer d4-d5"), None, 1.0,
                    ["claim archer"]):
            with self.assertRaises(InvalidChoice, msg=repr(bad)):
                self.req.index_of(bad)
        with self.assertRaisesRegex(InvalidChoice, r"index 3 is out of range.*3 actions"):
            self.req.index_of(3)
        with self.assertRaisesRegex(InvalidChoice, r"'claim footman' is not a legal action"):
            self.req.index_of("claim footman")
        with self.assertRaisesRegex(InvalidChoice, r"not NoneType"):
            self.req.index_of(None)
        self.assertTrue(issubclass(InvalidChoice, ValueError))


if __name__ == "__main__":
    unittest.main()
