"""arena-stdio against the real referee: stdio bots play whole matches, and
each way a child can go wrong shows in the match record as it would for a
native bot (malformed, illegal_action, exit, crash, timeout, out_of_turn).

ARENA_REFEREE and ARENA_RANDOM name the referee and the C random bot
(default: build/referee/referee and build/agents/random in this repo).
"""
import os
import shlex
import subprocess
import sys
import tempfile
import textwrap
import unittest

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
REFEREE = os.environ.get("ARENA_REFEREE", os.path.join(ROOT, "build", "referee", "referee"))
RANDOM = os.environ.get("ARENA_RANDOM", os.path.join(ROOT, "build", "agents", "random"))
BRIDGE = os.path.join(ROOT, "sdk", "stdio", "arena-stdio")
PY = shlex.quote(sys.executable)
Q = shlex.quote


def sh(body):
    """A child that is a line of shell."""
    return f"sh -c {Q(body)}"

# A child that answers in every accepted form in turn, to show each works.
ANSWER_FORMS = textwrap.dedent("""
    import json, sys
    n = 0
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] != "request":
            continue
        a = msg["actions"][n % len(msg["actions"])]
        forms = [str(a["index"]), json.dumps({"index": a["index"]}),
                 json.dumps({"text": a["text"]}), a["text"], json.dumps(a["text"])]
        print(forms[n % len(forms)], flush=True)
        n += 1
""")

# With --all: logs each line's type on stderr (the bot log), answers 0.
LOGGER = textwrap.dedent("""
    import json, os, sys
    print("token seen:", "ARENA_TOKEN" in os.environ, file=sys.stderr, flush=True)
    for line in sys.stdin:
        kind = json.loads(line)["type"]
        print("got", kind, file=sys.stderr, flush=True)
        if kind == "request":
            print(0, flush=True)
    print("got eof", file=sys.stderr, flush=True)
""")


@unittest.skipUnless(os.access(REFEREE, os.X_OK) and os.access(RANDOM, os.X_OK),
                     "the referee and the C random bot are not built")
class BridgeTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def script(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            f.write(text)
        return Q(path)

    def play(self, child, opts="", time=("1000", "2000"), seed=1):
        """Bridged `child` as seat 0 against the C random bot: the record's
        fields, and seat 0's log."""
        rec = os.path.join(self.dir, "match.rec")
        bot = f"{Q(BRIDGE)} {opts} -- {child}"
        # --memory-mb 0: a sanitizer build of the C random bot needs its address space.
        cmd = [REFEREE, "play", "--seed", str(seed), "--move-ms", time[0], "--bank-ms", time[1],
               "--memory-mb", "0",
               "--record", rec, "--log-dir", self.dir, "--bot", bot, "--bot", RANDOM]
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=ROOT)
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)
        with open(rec) as f:
            fields = {}
            for line in f:
                key, _, value = line.rstrip("\n").partition(" ")
                fields.setdefault(key, value)
        with open(os.path.join(self.dir, "seat0.log"), errors="replace") as f:
            fields["log"] = f.read()
        return fields

    def assert_forfeit(self, fields, reason):
        self.assertEqual(fields["reason"], reason, fields)
        self.assertEqual((fields["culprit"], fields["result"]), ("0", "0 1"))

    def assert_finished(self, fields):
        self.assertIn(fields["reason"], ("markers", "round_limit"), fields)
        replay = subprocess.run([REFEREE, "replay", os.path.join(self.dir, "match.rec")],
                                capture_output=True, text=True, timeout=60)
        self.assertEqual(replay.returncode, 0, replay.stdout + replay.stderr)
        self.assertIn("verified", replay.stdout)

    # -- whole matches ---------------------------------------------------
    def test_awk_bot_plays_a_match(self):
        awk = os.path.join(ROOT, "agents", "stdio", "first.awk")
        fields = self.play(f"awk -f {Q(awk)}", opts="--name first --version 2")
        self.assert_finished(fields)
        self.assertEqual(fields["bot"], "0 first 2")

    def test_bash_bot_plays_a_match_with_all_lines(self):
        sh = os.path.join(ROOT, "agents", "stdio", "random.sh")
        fields = self.play(f"bash {Q(sh)}", opts="--all", seed=2)
        self.assert_finished(fields)
        self.assertEqual(fields["bot"], "0 bash 1")      # the default name: CMD's basename

    def test_every_answer_form(self):
        self.assert_finished(self.play(f"{PY} {self.script('forms.py', ANSWER_FORMS)}"))

    def test_all_lines_stderr_and_eof(self):
        fields = self.play(f"{PY} {self.script('logger.py', LOGGER)}", opts="--all")
        self.assert_finished(fields)
        log = fields["log"]
        self.assertIn("token seen: False", log)            # the child cannot reach the referee
        for kind in ("welcome", "update", "request", "end", "eof"):
            self.assertIn(f"got {kind}\n", log)
        self.assertLess(log.index("got end"), log.index("got eof"))

    # -- costs, as for a native bot ----------------------------------------
    def test_malformed(self):
        for answer in (r"printf '\377\376\n'", "echo '{oops'", "echo", "echo '{\"idx\": 1}'"):
            with self.subTest(answer=answer):
                fields = self.play(sh(f"read l; {answer}; sleep 5"))
                self.assert_forfeit(fields, "malformed")
                self.assertIn("arena-stdio: the bot wrote", fields["log"])

    def test_illegal_action(self):
        for answer in ("999", "fly away", '{"text": "deploy nobody z9"}'):
            with self.subTest(answer=answer):
                fields = self.play(sh(f"read l; echo {Q(answer)}; sleep 5"))
                self.assert_forfeit(fields, "illegal_action")

    def test_exit_and_crash(self):
        for body, reason, status in (("exit 0", "exit", "status 0"),
                                     ("exit 3", "crash", "status 3"),
                                     ("kill -SEGV $$", "crash", "signal 11 (SIGSEGV"),
                                     ("exec 1>&-; sleep 0.2; exit 4", "crash", "status 4")):
            with self.subTest(body=body):
                fields = self.play(sh(f"read l; {body}"))
                self.assert_forfeit(fields, reason)
                self.assertIn(status, fields["detail"])

    def test_cannot_start(self):
        fields = self.play(Q(os.path.join(self.dir, "no-such-bot")))
        self.assert_forfeit(fields, "crash")
        self.assertIn("cannot start", fields["log"])

    def test_timeout(self):
        fields = self.play(sh("read l; sleep 5; echo 0"), time=("200", "100"))
        self.assert_forfeit(fields, "timeout")

    def test_unasked_line_is_out_of_turn(self):
        # Two lines in one write for one request: the second is unasked. (A
        # line written before reading a request can't be told from an answer.)
        fields = self.play(sh(r"read l; printf '0\n0\n'; sleep 5"))
        self.assert_forfeit(fields, "out_of_turn")


class UsageTest(unittest.TestCase):
    def run_bridge(self, *args, env=None):
        return subprocess.run([sys.executable, BRIDGE, *args], capture_output=True, text=True,
                              timeout=30, env=env)

    def test_no_command(self):
        out = self.run_bridge("--all")
        self.assertEqual(out.returncode, 1)
        self.assertIn("no command", out.stderr)
        self.assertIn("usage:", out.stderr)

    def test_help(self):
        out = self.run_bridge("--help")
        self.assertEqual(out.returncode, 0)
        self.assertIn("--all", out.stdout)

    def test_outside_the_referee(self):
        env = {k: v for k, v in os.environ.items() if not k.startswith("ARENA_")}
        out = self.run_bridge("--", "true", env=env)
        self.assertEqual(out.returncode, 1)
        self.assertIn("ARENA_ENDPOINT", out.stderr)


if __name__ == "__main__":
    unittest.main()
