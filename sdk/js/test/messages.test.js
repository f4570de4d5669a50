// messages.test.js - decoding the referee's maps of PROTOCOL.md section 9
// into Request / Observation / Action, through the real msgpack wire code.
import { test } from "node:test";
import assert from "node:assert/strict";
import { encode } from "@msgpack/msgpack";
import { Request, Observation, Action, Welcome, Update, Result, ProtocolError, decodeMessage }
  from "../index.js";
import * as fx from "./fixtures.js";

// As run() sees it: bytes off the socket, decoded with the SDK's limits.
const wire = (m) => decodeMessage(encode(m));

test("a request decodes with its time, decision and actions", () => {
  const r = new Request(wire(fx.request()));
  assert.equal(r.id, 10);
  assert.equal(r.decision, "turn");
  assert.deepEqual(r.time, { moveMs: 1000, bankMs: 9500 });
  assert.equal(r.actions.length, 4);
  assert.ok(r.actions.every((a) => a instanceof Action));
  const [deploy, , recruit] = r.actions;
  assert.deepEqual({ ...deploy }, { text: "deploy knight d7", kind: "deploy", coin: "knight",
    unit: null, at: null, from: null, to: "d7", target: null, index: 0 });
  assert.equal(recruit.unit, "berserker");
  assert.equal(recruit.index, 2);
  assert.equal(r.raw.observation.round_limit, 100);       // the map it came from
  assert.equal(String(deploy), "deploy knight d7");
  assert.equal(`${recruit}`, "recruit knight berserker");
});

test("an observation decodes every field of section 5", () => {
  const o = new Request(wire(fx.request())).observation;
  assert.ok(o instanceof Observation);
  assert.equal(o.seat, 1);
  assert.equal(o.seats, 2);
  assert.equal(o.phase, "play");
  assert.equal(o.decision, "turn");
  assert.equal(o.toMove, 1);
  assert.equal(o.turn, 1);
  assert.equal(o.round, 2);
  assert.equal(o.roundLimit, 100);
  assert.equal(o.initiative, 0);
  assert.equal(o.initiativeClaimed, false);
  assert.equal(o.markers, 6);
  assert.equal(o.royalGuard, "2018");
  assert.equal(o.side, 1);
  assert.ok(o.board instanceof Map);
  assert.deepEqual(o.board.get("e2"), { hex: "e2", unit: "crossbowman", coins: 1, seat: 0 });
  assert.equal(o.board.get("f4"), undefined);
  assert.ok(o.control instanceof Map);
  assert.equal(o.control.size, 10);
  assert.equal(o.control.get("d7"), 1);
  assert.equal(o.control.get("e2"), 0);
  assert.equal(o.control.get("d4"), null);
  assert.equal(o.players.length, 2);
  assert.deepEqual(o.players[0], { seat: 0, side: 0,
    units: ["crossbowman", "ensign", "lancer", "swordsman"],
    supply: { crossbowman: 3, ensign: 3, lancer: 1 }, discard: { lancer: 1, swordsman: 3 },
    removed: {}, bag: 3, hand: 1, facedown: 4 });
  assert.deepEqual(o.hand, { knight: 1, pikeman: 1 });
  assert.deepEqual(o.bag, { knight: 1, royal_guard: 1, royal: 1 });
  assert.deepEqual(o.facedown, { berserker: 1, pikeman: 1, royal_guard: 1 });
  assert.deepEqual(o.draftPool, []);
  assert.equal(o.pending, null);
});

test("the observation's helpers: units, sides, locations", () => {
  const o = new Request(wire(fx.request())).observation;
  assert.deepEqual(o.myUnits(), [{ hex: "g6", unit: "berserker", coins: 1, seat: 1 }]);
  assert.deepEqual(o.unitsOf(0).map((u) => u.hex), ["e2"]);
  assert.deepEqual(o.unitsOf(3), []);
  assert.deepEqual(o.enemyUnits().map((u) => u.hex), ["e2"]);
  assert.equal(o.unitAt("g6").unit, "berserker");
  assert.equal(o.unitAt("f4"), null);
  assert.equal(o.sideOf(0), 0);
  assert.equal(o.me.seat, 1);
  assert.deepEqual(o.locationsControlledBy(1), ["d7", "g6"]);
  assert.deepEqual(o.locationsControlledBy(null), ["c6", "d4", "e5", "g3", "h4", "i2"]);
  assert.deepEqual(o.locationsToTake(), ["c6", "d4", "e2", "e5", "g3", "h1", "h4", "i2"]);
  assert.equal(o.nearestLocationToTake("g6"), 2);          // e5 and h4
  assert.equal(o.nearestLocationToTake("e2", 0), 2);       // g3, d4 (e2 is held)
});

test("a pending follow-up decodes camelCased", () => {
  const m = fx.request();
  m.observation.pending = { decision: "footman", seat: 1, unit: "footman", hex: "d4",
    other_hex: "e5", coin: null };
  const p = new Request(wire(m)).observation.pending;
  assert.deepEqual(p, { decision: "footman", seat: 1, unit: "footman", hex: "d4",
    otherHex: "e5", coin: null });
});

test("welcome, updates and end decode", () => {
  const w = new Welcome(wire(fx.welcome));
  assert.deepEqual({ ...w }, { protocol: 1, game: "warchest",
    options: "players=2 setup=dealt royal_guard=2018 round_limit=100", seat: 0, seats: 2,
    team: 0, time: { moveMs: 1000, bankMs: 10000 } });
  assert.equal(w.option("round_limit"), "100");
  assert.equal(w.option("royal_guard"), "2018");
  assert.equal(w.option("strikes", "0"), "0");
  const pub = new Update(wire(fx.updatePublic));
  assert.equal(pub.id, 10);
  assert.equal(pub.seat, 1);
  assert.equal(pub.action.coin, "?");
  assert.equal(pub.action.text, "recruit ? footman");
  assert.equal(pub.action.index, -1);
  assert.equal(new Update(wire(fx.updateOwn)).action.coin, "archer");
  const end = new Result(wire(fx.endMarkers), 0);
  assert.deepEqual({ ...end }, { scores: [1, 0], reason: "markers", culprit: null,
    detail: "all markers placed", seat: 0 });
  assert.equal(end.score, 1);
  assert.equal(new Result(wire(fx.endTimeout), 1).score, 0);
  assert.equal(new Result(wire(fx.endTimeout)).score, null);
  assert.equal(new Result(wire(fx.endTimeout)).culprit, 1);
});

test("unknown keys are ignored", () => {
  const m = fx.request();
  m.future = { anything: [1, 2, 3] };
  m.observation.weather = "rain";
  m.actions[0].score = 0.25;
  const r = new Request(wire(m));
  assert.equal(r.future, undefined);
  assert.equal(r.actions[0].score, undefined);
  assert.equal(r.observation.weather, undefined);
});

test("a malformed request throws a ProtocolError naming the field", () => {
  const bad = (change, where) => {
    const m = fx.request();
    change(m);
    assert.throws(() => new Request(wire(m)),
      (e) => e instanceof ProtocolError && e.message.includes(where));
  };
  bad((m) => { m.id = "10"; }, "request.id");
  bad((m) => { delete m.time; }, "request.time");
  bad((m) => { m.actions = []; }, "request.actions");
  bad((m) => { m.actions[1].text = 7; }, "request.actions[1].text");
  bad((m) => { m.observation.board[0].coins = null; }, "request.observation.board[0].coins");
  bad((m) => { m.observation.hand.knight = -1; }, "request.observation.hand.knight");
  bad((m) => { m.observation.players = {}; }, "request.observation.players");
  bad((m) => { m.observation.control.d4 = "A"; }, "request.observation.control.d4");
});

test("the wire refuses what is not a map with a type, and oversized parts", () => {
  assert.throws(() => decodeMessage(encode([1, 2])), /not a msgpack map/);
  assert.throws(() => decodeMessage(encode({ id: 1 })), /type/);
  assert.throws(() => decodeMessage(new Uint8Array([0xc1])));             // never used byte
  assert.throws(() => decodeMessage(encode({ type: "x", a: new Array(5000).fill(0) })),
    /Max length exceeded/);
  assert.throws(() => decodeMessage(encode({ type: "x", s: "x".repeat(70000) })),
    /Max length exceeded/);
  // A map header that claims 2^32-1 entries must fail before allocating them.
  assert.throws(() => decodeMessage(new Uint8Array([0xdf, 0xff, 0xff, 0xff, 0xff])),
    /Max length exceeded/);
  // "__proto__" as a key would let a message reach Object.prototype.
  const proto = new Uint8Array([0x82, 0xa4, ...Buffer.from("type"), 0xa1, 0x78,
    0xa9, ...Buffer.from("__proto__"), 0x80]);
  assert.throws(() => decodeMessage(proto), /__proto__/);
});

test("another game's request: plain observation, actions by text and index", () => {
  const m = { type: "request", id: 3, decision: "bid", time: { move_ms: 1000, bank_ms: 10000 },
    observation: { seat: 1, seats: 3, hand: [2, 5, 9], prize: 7 },
    actions: [{ text: "bid 2", card: 2 }, { text: "bid 5", card: 5 }, { text: "bid 9", card: 9 }] };
  const req = new Request(wire(m), "request", "anothergame");
  assert.deepEqual(req.observation, m.observation);
  assert.deepEqual(req.actions.map((a) => a.text), ["bid 2", "bid 5", "bid 9"]);
  assert.equal(req.actions[2].fields.card, 9);
  assert.equal(req.indexOf("bid 9"), 2);
  assert.equal(req.indexOf(req.actions[1]), 1);
  // Without a game named, War Chest's strict decoding still applies.
  assert.throws(() => new Request(wire(m)), ProtocolError);
});
