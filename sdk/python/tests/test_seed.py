"""bot_seed(): the referee's ARENA_BOT_SEED, 1 when unset, ValueError naming
the variable for anything else (sdk/PROTOCOL.md, section 1)."""
import os
import sys
import unittest
from unittest import mock

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import arena_bot  # noqa: E402


class BotSeed(unittest.TestCase):
    def seed_with(self, text):
        env = {k: v for k, v in os.environ.items() if k != "ARENA_BOT_SEED"}
        if text is not None:
            env["ARENA_BOT_SEED"] = text
        with mock.patch.dict(os.environ, env, clear=True):
            return arena_bot.bot_seed()

    def test_set(self):
        for text, want in [("2147483647", 2147483647), ("0", 0), ("42", 42),
                           ("4294967295", arena_bot.SEED_MAX), ("007", 7)]:
            self.assertEqual(self.seed_with(text), want, text)

    def test_unset_is_one(self):
        self.assertEqual(self.seed_with(None), 1)

    def test_malformed_is_refused(self):
        for text in ["", "x", "-1", "+3", " 7", "7 ", "7\n", "4294967296", "9" * 5000,
                     "0x10", "1.5", "\u0663", "1_000"]:
            with self.assertRaises(ValueError, msg=repr(text)) as caught:
                self.seed_with(text)
            self.assertIn("ARENA_BOT_SEED must be a whole number from 0 to 4294967295",
                          str(caught.exception))


if __name__ == "__main__":
    unittest.main()
