"""The sample bots in agents/python/ play real matches against the referee
(ARENA_REFEREE, else build/referee/referee; ARENA_RANDOM, else
build/agents/random). Skipped when those are not built."""
import os
import shlex
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
REFEREE = os.environ.get("ARENA_REFEREE", os.path.join(ROOT, "build", "referee", "referee"))
RANDOM = os.environ.get("ARENA_RANDOM", os.path.join(ROOT, "build", "agents", "random"))


def py_bot(name):
    return f"{shlex.quote(sys.executable)} {shlex.quote(os.path.join(ROOT, 'agents', 'python', name))}"


@unittest.skipUnless(os.access(REFEREE, os.X_OK) and os.access(RANDOM, os.X_OK),
                     "the referee and the C random bot are not built")
class SampleBotsTest(unittest.TestCase):
    def play(self, seed, *bots):
        with tempfile.TemporaryDirectory() as tmp:
            rec = os.path.join(tmp, "match.rec")
            # --memory-mb 0: a sanitizer build of the C random bot needs its address space.
            cmd = [REFEREE, "play", "--seed", str(seed), "--record", rec, "--memory-mb", "0"]
            for b in bots:
                cmd += ["--bot", b]
            out = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=tmp)
            self.assertEqual(out.returncode, 0, out.stderr)
            replay = subprocess.run([REFEREE, "replay", rec], capture_output=True, text=True,
                                    timeout=60)
            self.assertEqual(replay.returncode, 0, replay.stdout + replay.stderr)
            with open(rec) as f:
                lines = dict(line.rstrip("\n").split(" ", 1) for line in f
                             if line.startswith(("result ", "reason ")))
        return lines["reason"], [float(s) for s in lines["result"].split()]

    def test_random_bot_plays_a_whole_match(self):
        reason, _ = self.play(3, py_bot("random_bot.py"), RANDOM)
        self.assertIn(reason, ("markers", "round_limit"))

    def test_greedy_beats_random_from_either_seat(self):
        self.assertEqual(self.play(1, py_bot("greedy_bot.py"), RANDOM), ("markers", [1.0, 0.0]))
        self.assertEqual(self.play(2, RANDOM, py_bot("greedy_bot.py")), ("markers", [0.0, 1.0]))


if __name__ == "__main__":
    unittest.main()
