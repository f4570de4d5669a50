"""run() against a fake referee: a real ZeroMQ ROUTER in a thread plays
hello -> welcome -> update -> request -> action -> ... -> error -> end and
records what the bot said, so the hello and every answer can be checked;
the welcome's game chooses who decodes the rest (arena_bot/games/)."""
import contextlib
import io
import os
import sys
import tempfile
import threading
import unittest

import msgpack
import zmq

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import arena_bot  # noqa: E402
from arena_bot import InvalidChoice, wire  # noqa: E402
from arena_bot.games import any_game, goofspiel  # noqa: E402

TOKEN = "0123456789abcdef0123456789abcdef"


def request(rid, texts):
    return {"type": "request", "id": rid, "decision": "turn",
            "time": {"move_ms": 1000, "bank_ms": 10000},
            "observation": {"seat": 0, "seats": 2, "phase": "play", "decision": "turn",
                            "board": [], "control": {}, "players": [], "pending": None},
            "actions": [{"text": t, "kind": t.split()[0], "coin": "archer", "unit": None,
                         "at": None, "from": None, "to": None, "target": None} for t in texts],
            "a_future_key": [1, 2]}


TEXTS = ["deploy archer d4", "claim archer", "pass archer"]


# The bounds that keep a broken test from hanging the suite, far above what
# a loaded machine needs: the fake's wait for the hello, and run()'s wait
# for each message (a fake that died would otherwise leave run() waiting).
HELLO_WAIT_MS = 60000
RUN_TIMEOUT_S = 60


class FakeReferee(threading.Thread):
    """Sends `script` (maps, or raw bytes) in order; after each request it
    waits up to timeout_ms for the bot's answer. Once it has the hello it
    always ends with an "end", even when it gives up, so run() returns."""

    def __init__(self, script, timeout_ms=30000):
        super().__init__(daemon=True)
        self.dir = tempfile.TemporaryDirectory()
        self.endpoint = f"ipc://{self.dir.name}/seat0"
        self.sock = zmq.Context.instance().socket(zmq.ROUTER)
        self.sock.setsockopt(zmq.LINGER, 0)
        self.sock.bind(self.endpoint)
        self.timeout_ms = timeout_ms
        self.script, self.hello, self.answers, self.failure = script, None, [], None

    def run(self):
        # Without the hello there is no identity to send the "end" to: wait
        # for it as long as a loaded machine may take, not the answer's time.
        if not self.sock.poll(HELLO_WAIT_MS):
            self.failure = TimeoutError("no hello")
            return
        ident, data = self.sock.recv_multipart()
        self.hello = msgpack.unpackb(data)
        try:
            for msg in self.script:
                self.sock.send_multipart([ident, msg if isinstance(msg, bytes) else wire.pack(msg)])
                if isinstance(msg, dict) and msg["type"] == "request":
                    if not self.sock.poll(self.timeout_ms):
                        raise TimeoutError(f"no answer to request {msg['id']}")
                    self.answers.append(msgpack.unpackb(self.sock.recv_multipart()[1]))
        except Exception as e:  # noqa: BLE001 - reported by the test
            self.failure = e
        self.sock.send_multipart([ident, wire.pack({"type": "end", "scores": [0.0, 1.0],
                                                    "reason": "timeout", "culprit": 0,
                                                    "detail": "the fake referee gave up"})])

    def finish(self):
        self.join()     # every wait in run() is bounded
        self.sock.close(0)
        self.dir.cleanup()


class Recorder:
    """A class bot with every hook; its choices exercise each kind of choice."""

    def __init__(self):
        self.calls = []
        self.choices = iter([lambda r: r.actions[1], lambda r: "pass archer", lambda r: 0])

    def on_welcome(self, w):
        self.calls.append(("welcome", w.seat, w.option("setup")))

    def on_update(self, u):
        self.calls.append(("update", u.seat, u.action.text))

    def on_end(self, result):
        self.calls.append(("end", result.reason, result.score))

    def decide(self, req):
        self.calls.append(("request", req.id, len(req.actions)))
        return next(self.choices)(req)


# Goofspiel's messages (PROTOCOL.md s. 12): seat 1's hidden bid, then seat 0's request.
HIDDEN_BID = {"type": "update", "id": 1, "seat": 1, "decision": "bid",
              "action": {"text": "bid ?", "card": None}}
BID_REQUEST = {"type": "request", "id": 2, "decision": "bid",
               "time": {"move_ms": 1000, "bank_ms": 9000},
               "observation": {"seat": 0, "seats": 2, "round": 1, "rounds": 3, "to_move": 0,
                               "prize": 2, "prizes_left": [1, 3], "hand": [1, 2, 3], "bid": None,
                               "points": [0, 0], "history": []},
               "actions": [{"text": f"bid {c}", "card": c} for c in (1, 2, 3)]}


class Seen:
    """A class bot that keeps the update's action and the request it was given
    and plays the last action."""

    def __init__(self):
        self.update = self.request = None

    def on_update(self, u):
        self.update = u.action

    def decide(self, req):
        self.request = req
        return req.actions[-1]


class RunTest(unittest.TestCase):
    def play(self, bot, script, timeout_ms=30000, **kw):
        ref = FakeReferee(script, timeout_ms)
        ref.start()
        self.stderr = io.StringIO()
        try:
            with contextlib.redirect_stderr(self.stderr):
                return ref, arena_bot.run(bot, endpoint=ref.endpoint, token=TOKEN,
                                          timeout_s=RUN_TIMEOUT_S, **kw)
        finally:
            ref.finish()

    def test_full_conversation(self):
        bot = Recorder()
        end = {"type": "end", "scores": [1.0, 0.0], "reason": "markers", "culprit": None,
               "detail": "all markers placed"}
        script = [{"type": "welcome", "protocol": 1, "game": "warchest", "seat": 0, "seats": 2,
                   "team": 0, "options": "players=2 setup=dealt", "time": {"move_ms": 1000,
                                                                           "bank_ms": 10000}},
                  {"type": "update", "id": 1, "seat": 1, "decision": "turn",
                   "action": {"text": "recruit ? footman", "kind": "recruit", "coin": "?"}},
                  request(2, TEXTS),
                  {"type": "a_later_type", "x": 1},          # unknown: ignored
                  b"\xc1junk",                                # not msgpack: skipped
                  request(3, TEXTS), request(4, TEXTS[:1]),
                  {"type": "error", "code": "none", "message": "just testing"}, end]
        ref, result = self.play(bot, script, name="recorder", version="2.5")
        self.assertIsNone(ref.failure)
        self.assertEqual(ref.hello, {"type": "hello", "protocol": 1, "token": TOKEN,
                                     "name": "recorder", "version": "2.5"})
        self.assertEqual(ref.answers, [{"type": "action", "id": 2, "index": 1},
                                       {"type": "action", "id": 3, "index": 2},
                                       {"type": "action", "id": 4, "index": 0}])
        self.assertEqual(bot.calls, [("welcome", 0, "dealt"), ("update", 1, "recruit ? footman"),
                                     ("request", 2, 3), ("request", 3, 3), ("request", 4, 1),
                                     ("end", "markers", 1.0)])
        self.assertEqual((result.reason, result.scores, result.seat), ("markers", [1.0, 0.0], 0))
        self.assertIn("skipped a message", self.stderr.getvalue())
        self.assertIn("the referee says none: just testing", self.stderr.getvalue())

    def play_game(self, game, update, req):
        """One match of `game`: the bot (a Seen) and the fake referee after it."""
        bot = Seen()
        welcome = {"type": "welcome", "protocol": 1, "game": game, "seat": 0, "seats": 2,
                   "team": 0, "options": "", "time": {"move_ms": 1000, "bank_ms": 10000}}
        ref, _ = self.play(bot, [welcome, update, req])
        self.assertIsNone(ref.failure)
        return bot, ref

    def test_welcome_chooses_war_chest(self):
        update = {"type": "update", "id": 1, "seat": 1, "decision": "turn",
                  "action": {"text": "recruit ? footman", "kind": "recruit", "coin": "?",
                             "unit": "footman"}}
        for game in ("warchest", ""):      # a welcome naming none: War Chest
            bot, ref = self.play_game(game, update, request(2, TEXTS))
            self.assertIsInstance(bot.update, arena_bot.Action)
            self.assertEqual((bot.update.kind, bot.update.coin, bot.update.unit),
                             ("recruit", "?", "footman"))
            self.assertIsInstance(bot.request.observation, arena_bot.Observation)
            self.assertEqual([a.kind for a in bot.request.actions], ["deploy", "claim", "pass"])
            self.assertEqual(ref.answers, [{"type": "action", "id": 2, "index": 2}])

    def test_welcome_chooses_goofspiel_or_any_game(self):
        bot, ref = self.play_game("goofspiel", HIDDEN_BID, BID_REQUEST)
        self.assertIsInstance(bot.update, goofspiel.Action)
        self.assertEqual((bot.update.text, bot.update.card), ("bid ?", None))
        self.assertEqual(bot.request.observation, BID_REQUEST["observation"])   # the plain dict
        self.assertEqual([a.card for a in bot.request.actions], [1, 2, 3])
        self.assertEqual(bot.request.actions[1].fields, {"text": "bid 2", "card": 2})
        self.assertFalse(hasattr(bot.request.actions[0], "kind"))
        self.assertEqual(ref.answers, [{"type": "action", "id": 2, "index": 2}])
        # A game without a module: the maps as they came, no part decoded.
        bot, ref = self.play_game("nosuchgame", HIDDEN_BID, BID_REQUEST)
        self.assertIsInstance(bot.update, any_game.Action)
        self.assertEqual(bot.update.fields, HIDDEN_BID["action"])
        self.assertEqual(bot.request.observation, BID_REQUEST["observation"])
        self.assertEqual([(a.text, a.index) for a in bot.request.actions],
                         [("bid 1", 0), ("bid 2", 1), ("bid 3", 2)])
        self.assertFalse(hasattr(bot.request.actions[0], "card"))
        self.assertEqual(ref.answers, [{"type": "action", "id": 2, "index": 2}])

    def test_function_bot(self):
        ref, result = self.play(lambda req: req.actions[-1], [request(5, TEXTS)])
        self.assertEqual(ref.answers, [{"type": "action", "id": 5, "index": 2}])
        self.assertEqual(result.reason, "timeout")     # the fake's closing "end"
        self.assertIsNone(result.score)                # no welcome: seat unknown

    def test_invalid_choice_raises(self):
        with self.assertRaisesRegex(InvalidChoice, "index 3 is out of range"):
            self.play(lambda req: 3, [request(6, TEXTS)], timeout_ms=100)

    def test_silent_referee_ends_the_run(self):
        # A referee that took the hello and then died says nothing more:
        # run() gives up after timeout_s instead of waiting forever.
        with tempfile.TemporaryDirectory() as d:
            sock = zmq.Context.instance().socket(zmq.ROUTER)
            sock.setsockopt(zmq.LINGER, 0)
            sock.bind(f"ipc://{d}/seat0")
            try:
                with self.assertRaisesRegex(arena_bot.ProtocolError,
                                            "no message from the referee in 0.2 s"):
                    arena_bot.run(lambda r: 0, endpoint=f"ipc://{d}/seat0", token=TOKEN,
                                  timeout_s=0.2)
                self.assertTrue(sock.poll(RUN_TIMEOUT_S * 1000))  # the hello had come
            finally:
                sock.close(0)

    def test_not_a_bot(self):
        with self.assertRaises(TypeError):
            arena_bot.run(42, endpoint="ipc:///nowhere", token=TOKEN)

    def test_no_environment(self):
        env = {k: os.environ.pop(k) for k in ("ARENA_ENDPOINT", "ARENA_TOKEN") if k in os.environ}
        try:
            with self.assertRaisesRegex(arena_bot.ProtocolError, "ARENA_ENDPOINT"):
                arena_bot.run(lambda r: 0)
        finally:
            os.environ.update(env)


if __name__ == "__main__":
    unittest.main()
