"""Decoding the referee's messages: real bytes captured from `referee play`
(tests/data, made with tests/capture.py), the examples of PROTOCOL.md
section 9 built by hand, and hostile input that must not crash a bot."""
import os
import sys
import unittest

import msgpack

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from arena_bot import (Action, Observation, Pending, ProtocolError, Request, Result,  # noqa: E402
                       Update, Welcome, wire)

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


def load(name):
    with open(os.path.join(DATA, name), "rb") as f:
        msg = wire.unpack(f.read())
    assert msg is not None, name
    return msg


def act(text, kind, coin=None, unit=None, at=None, frm=None, to=None, target=None):
    return {"text": text, "kind": kind, "coin": coin, "unit": unit, "at": at, "from": frm,
            "to": to, "target": target}


# PROTOCOL.md section 9's request, exactly as printed (its elided actions left out).
SECTION9_REQUEST = {
    "type": "request", "id": 10, "decision": "turn",
    "time": {"move_ms": 1000, "bank_ms": 9500},
    "observation": {
        "seat": 1, "seats": 2, "phase": "play", "decision": "turn", "to_move": 1,
        "turn": 1, "round": 2, "round_limit": 100, "initiative": 0, "initiative_claimed": False,
        "markers": 6, "royal_guard": "2018",
        "board": [{"hex": "e2", "unit": "crossbowman", "coins": 1, "seat": 0},
                  {"hex": "g6", "unit": "berserker", "coins": 1, "seat": 1}],
        "control": {"c6": None, "d4": None, "d7": 1, "e2": 0, "e5": None, "g3": None, "g6": 1,
                    "h1": 0, "h4": None, "i2": None},
        "players": [
            {"seat": 0, "side": 0, "units": ["crossbowman", "ensign", "lancer", "swordsman"],
             "supply": {"crossbowman": 3, "ensign": 3, "lancer": 1},
             "discard": {"lancer": 1, "swordsman": 3}, "removed": {},
             "bag": 3, "hand": 1, "facedown": 4},
            {"seat": 1, "side": 1, "units": ["berserker", "knight", "pikeman", "royal_guard"],
             "supply": {"berserker": 2, "knight": 2, "pikeman": 1, "royal_guard": 3},
             "discard": {"berserker": 1, "pikeman": 1}, "removed": {},
             "bag": 3, "hand": 2, "facedown": 3}],
        "hand": {"knight": 1, "pikeman": 1},
        "bag": {"knight": 1, "royal_guard": 1, "royal": 1},
        "facedown": {"berserker": 1, "pikeman": 1, "royal_guard": 1},
        "draft_pool": [], "pending": None},
    "actions": [act("deploy knight d7", "deploy", coin="knight", to="d7"),
                act("claim knight", "claim", coin="knight"),
                act("recruit knight berserker", "recruit", coin="knight", unit="berserker"),
                act("pass pikeman", "pass", coin="pikeman")]}


class Section9Test(unittest.TestCase):
    def test_request(self):
        # Through real msgpack bytes, as the referee would send them.
        req = Request.from_map(wire.unpack(msgpack.packb(SECTION9_REQUEST)))
        self.assertEqual((req.id, req.decision), (10, "turn"))
        self.assertEqual((req.time.move_ms, req.time.bank_ms), (1000, 9500))
        obs = req.observation
        self.assertEqual((obs.seat, obs.seats, obs.phase, obs.to_move, obs.turn), (1, 2, "play", 1, 1))
        self.assertEqual((obs.round, obs.round_limit, obs.initiative, obs.markers), (2, 100, 0, 6))
        self.assertIs(obs.initiative_claimed, False)
        self.assertEqual(obs.royal_guard, "2018")
        self.assertEqual(obs.board["e2"].unit, "crossbowman")
        self.assertEqual([u.hex for u in obs.my_units()], ["g6"])
        self.assertEqual([u.hex for u in obs.units_of(0)], ["e2"])
        self.assertEqual([u.hex for u in obs.enemy_units()], ["e2"])
        self.assertEqual(obs.side, 1)
        self.assertEqual(obs.locations_controlled_by(1), ["d7", "g6"])
        self.assertEqual(obs.locations_controlled_by(None), ["c6", "d4", "e5", "g3", "h4", "i2"])
        self.assertEqual(len(obs.locations_to_take()), 8)
        self.assertEqual(obs.nearest_location_to_take("g6"), 2)     # h4
        self.assertEqual(obs.players[0].supply, {"crossbowman": 3, "ensign": 3, "lancer": 1})
        self.assertEqual(obs.players[1].units[-1], "royal_guard")
        self.assertEqual((obs.me.bag, obs.me.hand, obs.me.facedown), (3, 2, 3))
        self.assertEqual(obs.hand, {"knight": 1, "pikeman": 1})
        self.assertEqual(obs.bag["royal"], 1)
        self.assertIsNone(obs.pending)
        a = req.actions[0]
        self.assertEqual((a.text, a.kind, a.coin, a.to, a.at, a.from_, a.index),
                         ("deploy knight d7", "deploy", "knight", "d7", None, None, 0))
        self.assertEqual(str(req.actions[2]), "recruit knight berserker")
        self.assertEqual(req.actions[2].unit, "berserker")

    def test_other_messages(self):
        w = Welcome.from_map({"type": "welcome", "protocol": 1, "game": "warchest",
                              "options": "players=2 setup=dealt royal_guard=2018 round_limit=100",
                              "seat": 0, "seats": 2, "team": 0,
                              "time": {"move_ms": 1000, "bank_ms": 10000}})
        self.assertEqual((w.seat, w.team, w.time.bank_ms), (0, 0, 10000))
        self.assertEqual(w.option("round_limit"), "100")
        self.assertIsNone(w.option("nope"))
        u = Update.from_map({"type": "update", "id": 10, "seat": 1, "decision": "turn",
                             "action": act("recruit ? footman", "recruit", coin="?",
                                           unit="footman")})
        self.assertEqual((u.id, u.seat, u.action.coin, str(u.action)),
                         (10, 1, "?", "recruit ? footman"))
        r = Result.from_map({"type": "end", "scores": [1.0, 0.0], "reason": "timeout",
                             "culprit": 1, "detail": "seat 1: no action within 11002 ms"}, seat=1)
        self.assertEqual((r.scores, r.reason, r.culprit, r.score), ([1.0, 0.0], "timeout", 1, 0.0))
        self.assertIsNone(Result.from_map({"culprit": None}).culprit)


class CapturedTest(unittest.TestCase):
    """Bytes the real referee sent (setup=draft, seed 5)."""

    def test_welcome(self):
        w = Welcome.from_map(load("welcome.msgpack"))
        self.assertEqual((w.protocol, w.game, w.seats), (1, "warchest", 2))
        self.assertEqual(w.option("setup"), "draft")

    def test_draft_request(self):
        req = Request.from_map(load("request-draft.msgpack"))
        self.assertEqual(req.decision, "draft")
        obs = req.observation
        self.assertEqual(obs.phase, "draft")
        self.assertEqual(len(obs.draft_pool), len(req.actions))
        self.assertTrue(all(a.kind == "pick" and a.unit in obs.draft_pool for a in req.actions))
        self.assertEqual(obs.board, {})

    def test_follow_up_request(self):
        req = Request.from_map(load("request-priest.msgpack"))
        p = req.observation.pending
        self.assertIsInstance(p, Pending)
        self.assertEqual((p.decision, p.unit, p.hex, p.coin, p.other_hex),
                         ("priest", "warrior_priest", "i2", "crossbowman", None))
        self.assertTrue(all(a.coin == "crossbowman" for a in req.actions))
        moves = [a for a in req.actions if a.kind == "move"]
        self.assertTrue(moves and all(a.at and a.to for a in moves))
        attack = next(a for a in req.actions if a.kind == "attack")
        self.assertIn(attack.target, req.observation.board)

    def test_late_request(self):
        req = Request.from_map(load("request-late.msgpack"))
        obs = req.observation
        self.assertEqual(obs.round, obs.round_limit)
        self.assertEqual(sum(len(obs.units_of(s)) for s in (0, 1)), len(obs.board))
        self.assertTrue(obs.players[0].removed)

    def test_updates_and_end(self):
        hidden = Update.from_map(load("update-hidden.msgpack"))
        self.assertEqual((hidden.seat, hidden.action.coin, hidden.action.kind), (1, "?", "recruit"))
        self.assertTrue(hidden.action.text.startswith("recruit ? "))
        own = Update.from_map(load("update-own.msgpack"))
        self.assertEqual((own.seat, own.action.kind), (0, "pick"))
        end = Result.from_map(load("end.msgpack"), seat=0)
        self.assertEqual((end.reason, end.score), ("round_limit", 0.5))


class HostileTest(unittest.TestCase):
    def test_unpack_refuses(self):
        bad = [b"", b"\xc1", b"\x93\x01\x02\x03",                       # not a map
               msgpack.packb({1: 2}),                                    # int key
               msgpack.packb({"type": "x"}) + b"\x00",                   # extra data
               b"\x81\xa4type\xa2\xff\xfe",                              # not UTF-8
               msgpack.packb({"type": msgpack.ExtType(5, b"abc")}),      # extension
               b"\xdd\xff\xff\xff\xff",                                  # a 4G array
               b"\x91" * 5000 + b"\x00"]                                  # deep nesting
        for data in bad:
            self.assertIsNone(wire.unpack(data), data[:20])

    def test_lenient_observation(self):
        # Unknown keys, wrong types and missing keys read as defaults.
        obs = Observation.from_map({"seat": True, "board": [{"hex": "f4"}, 3, {"hex": "d4",
                                    "unit": "archer", "coins": "2", "seat": 0, "new": 1}],
                                    "control": {"d4": 0, "e5": "x"}, "players": "no",
                                    "hand": {"archer": 2, "x": -1, "y": "1"}, "future": {}})
        self.assertEqual(obs.seat, 0)
        self.assertEqual(list(obs.board), ["d4"])
        self.assertEqual(obs.board["d4"].coins, 1)
        self.assertEqual(obs.control, {"d4": 0, "e5": None})
        self.assertEqual(obs.players, [])
        self.assertEqual(obs.hand, {"archer": 2})
        self.assertIsNone(obs.me)
        self.assertIsInstance(Observation.from_map(None), Observation)

    def test_request_needs_id_and_actions(self):
        for m in ({"type": "request"}, {"type": "request", "id": 1, "actions": []},
                  {"type": "request", "id": "1", "actions": [{}]}):
            with self.assertRaises(ProtocolError):
                Request.from_map(m)
        req = Request.from_map({"type": "request", "id": 1, "actions": [{"text": 5}, "junk"]})
        self.assertEqual([a.text for a in req.actions], ["", ""])
        self.assertEqual(req.decision, "")

    def test_action_fields(self):
        a = Action.from_map(act("tactic lancer e5-e3 x e2", "tactic", coin="lancer", at="e5",
                                frm="e5", to="e3", target="e2"), 4)
        self.assertEqual((a.from_, a.to, a.target, a.index), ("e5", "e3", "e2", 4))


class AnyGame(unittest.TestCase):
    """Another game's request: its observation passes through as the plain
    map it came as, its actions keep their text and index."""

    REQUEST = {"type": "request", "id": 3, "decision": "bid",
               "time": {"move_ms": 1000, "bank_ms": 10000},
               "observation": {"seat": 1, "seats": 3, "hand": [2, 5, 9], "prize": 7},
               "actions": [{"text": "bid 2", "card": 2}, {"text": "bid 5", "card": 5},
                           {"text": "bid 9", "card": 9}]}

    def test_observation_is_plain_data(self):
        req = Request.from_map(self.REQUEST, "anothergame")
        self.assertEqual(req.observation, self.REQUEST["observation"])
        self.assertEqual(req.decision, "bid")
        self.assertEqual([a.text for a in req.actions], ["bid 2", "bid 5", "bid 9"])
        self.assertEqual(req.index_of("bid 9"), 2)
        self.assertEqual(req.index_of(req.actions[1]), 1)

    def test_war_chest_stays_decoded(self):
        req = Request.from_map(load("request-late.msgpack"), "warchest")
        self.assertIsInstance(req.observation, Observation)


if __name__ == "__main__":
    unittest.main()
