// run.test.js - run() against a fake referee: a real ZeroMQ ROUTER in this
// process playing hello -> welcome -> update -> request -> action -> end;
// the welcome's game chooses who decodes the rest (lib/games/).
import { test } from "node:test";
import assert from "node:assert/strict";
import { Router } from "zeromq";
import { encode, decode } from "@msgpack/msgpack";
import { run, Observation } from "../index.js";
import * as fx from "./fixtures.js";

const TOKEN = "0123456789abcdef0123456789abcdef";

// Sets (or, with undefined, unsets) ARENA_* variables; returns how to undo it.
function setEnv(vars) {
  const old = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  const apply = (v) => {
    for (const [k, x] of Object.entries(v)) {
      if (x === undefined) delete process.env[k];
      else process.env[k] = x;
    }
  };
  apply(vars);
  return () => apply(old);
}

// A referee for one seat: bind, then wait for the bot's hello.
async function referee() {
  const sock = new Router({ linger: 0 });
  await sock.bind("tcp://127.0.0.1:*");
  let peer = null;
  return {
    endpoint: sock.lastEndpoint,
    async receive() {
      const [id, frame] = await sock.receive();
      peer = id;
      return decode(frame);
    },
    send: (m) => sock.send([peer, encode(m)]),
    // Whether the bot sends anything within ms milliseconds.
    async silent(ms) {
      sock.receiveTimeout = ms;
      try {
        await sock.receive();
        return false;
      } catch (e) {
        if (e.code === "EAGAIN") return true;
        throw e;
      }
    },
    close: () => sock.close(),
  };
}

test("a match: hello, welcome, updates, a request answered, error, end", async () => {
  const ref = await referee();
  const seen = [];
  const bot = {
    onWelcome: (w) => seen.push(["welcome", w.seat, w.time.moveMs]),
    onUpdate: (u) => seen.push(["update", u.seat, u.action.text]),
    onEnd: (r) => seen.push(["end", r.reason]),
    async decide(request) {
      seen.push(["request", request.id, request.observation.hand]);
      await new Promise((resolve) => setTimeout(resolve, 5));   // an async bot
      return "recruit knight berserker";
    },
  };
  const playing = run(bot, { name: "tester", version: "2.1", endpoint: ref.endpoint,
    token: TOKEN });
  try {
    const hello = await ref.receive();
    assert.deepEqual(hello, { type: "hello", protocol: 1, token: TOKEN, name: "tester",
      version: "2.1" });
    await ref.send(fx.welcome);
    await ref.send(fx.updatePublic);
    await ref.send({ type: "news", whatever: 1 });              // unknown: ignored
    await ref.send(fx.request());
    assert.deepEqual(await ref.receive(), { type: "action", id: 10, index: 2 });
    await ref.send(fx.updateOwn);
    await ref.send(fx.error);
    await ref.send(fx.endTimeout);
    const result = await playing;
    assert.deepEqual({ ...result }, { scores: [1, 0], reason: "timeout", culprit: 1,
      detail: "seat 1: no action within 11002 ms", seat: 0 });
    assert.equal(result.score, 1);
    assert.deepEqual(seen, [
      ["welcome", 0, 1000],
      ["update", 1, "recruit ? footman"],
      ["request", 10, { knight: 1, pikeman: 1 }],
      ["update", 1, "recruit archer footman"],
      ["end", "timeout"],
    ]);
  } finally {
    ref.close();
  }
});

test("a function bot and an environment endpoint; answers by index and Action", async () => {
  const ref = await referee();
  const restore = setEnv({ ARENA_ENDPOINT: ref.endpoint, ARENA_TOKEN: TOKEN });
  let n = 0;
  const playing = run((r) => (n++ === 0 ? 3 : r.actions[1]), { name: "fn", version: "1" });
  try {
    assert.equal((await ref.receive()).token, TOKEN);
    await ref.send(fx.welcome);
    await ref.send(fx.request());
    assert.deepEqual(await ref.receive(), { type: "action", id: 10, index: 3 });
    await ref.send({ ...fx.request(), id: 12 });
    assert.deepEqual(await ref.receive(), { type: "action", id: 12, index: 1 });
    await ref.send(fx.endMarkers);
    assert.equal((await playing).reason, "markers");
  } finally {
    restore();
    ref.close();
  }
});

test("an illegal choice rejects run() and sends nothing", async () => {
  const ref = await referee();
  const playing = run(() => "deploy knight f4", { endpoint: ref.endpoint, token: TOKEN });
  try {
    await ref.receive();
    await ref.send(fx.request());
    await assert.rejects(playing, { name: "InvalidChoice" });
    assert.ok(await ref.silent(100));
  } finally {
    ref.close();
  }
});

// Goofspiel's messages (PROTOCOL.md section 12): seat 1's hidden bid, then
// seat 0's request.
const hiddenBid = { type: "update", id: 1, seat: 1, decision: "bid",
  action: { text: "bid ?", card: null } };
const bidRequest = { type: "request", id: 2, decision: "bid", time: { move_ms: 1000, bank_ms: 9000 },
  observation: { seat: 0, seats: 2, round: 1, rounds: 3, to_move: 0, prize: 2,
    prizes_left: [1, 3], hand: [1, 2, 3], bid: null, points: [0, 0], history: [] },
  actions: [1, 2, 3].map((card) => ({ text: `bid ${card}`, card })) };

// One match of `game`: what the bot was given (the update's action, the
// request) and what it answered (the request's last action).
async function playGame(game, update, request) {
  const ref = await referee();
  const seen = [];
  const bot = { onUpdate: (u) => seen.push(u.action),
    decide: (r) => { seen.push(r); return r.actions[r.actions.length - 1]; } };
  const playing = run(bot, { endpoint: ref.endpoint, token: TOKEN });
  try {
    await ref.receive();
    await ref.send({ ...fx.welcome, game });
    await ref.send(update);
    await ref.send(request);
    // a run() that rejects (a message it could not decode) answers nothing
    const answer = await Promise.race([ref.receive(),
      playing.then(() => assert.fail("run() ended without answering"))]);
    await ref.send(fx.endMarkers);
    await playing;
    return [...seen, answer];
  } finally {
    ref.close();
  }
}

test("the welcome's game chooses the decoding: War Chest's", async () => {
  for (const game of ["warchest", ""]) {         // a welcome naming none: War Chest
    const [update, request, answer] = await playGame(game, fx.updatePublic, fx.request());
    assert.deepEqual({ ...update }, { text: "recruit ? footman", kind: "recruit", coin: "?",
      unit: "footman", at: null, from: null, to: null, target: null, index: -1 });
    assert.ok(request.observation instanceof Observation, game);
    assert.equal(request.observation.myUnits().length, 1);
    assert.deepEqual(request.actions.map((a) => a.kind), ["deploy", "claim", "recruit", "pass"]);
    assert.ok(!("fields" in request.actions[0]) && !("card" in request.actions[0]));
    assert.deepEqual(answer, { type: "action", id: 10, index: 3 });
  }
});

test("the welcome's game chooses the decoding: Goofspiel's, and any other game's", async () => {
  const [update, request, answer] = await playGame("goofspiel", hiddenBid, bidRequest);
  assert.equal(update.card, null);                // another seat's bid: hidden
  assert.equal(update.text, "bid ?");
  assert.deepEqual(request.observation, bidRequest.observation);   // the plain object
  assert.deepEqual(request.actions.map((a) => a.card), [1, 2, 3]);
  assert.deepEqual(request.actions[1].fields, { text: "bid 2", card: 2 });
  assert.ok(!("kind" in request.actions[0]));
  assert.deepEqual(answer, { type: "action", id: 2, index: 2 });
  // A game without a module: the maps as they came, no part decoded.
  const [u, r, a] = await playGame("nosuchgame", hiddenBid, bidRequest);
  assert.deepEqual({ ...u }, { text: "bid ?", fields: hiddenBid.action, index: -1 });
  assert.deepEqual(r.observation, bidRequest.observation);
  assert.deepEqual({ ...r.actions[0] }, { text: "bid 1", fields: { text: "bid 1", card: 1 }, index: 0 });
  assert.deepEqual(a, { type: "action", id: 2, index: 2 });
  // War Chest's decoding refuses Goofspiel's request: the choice is the welcome's.
  const ref = await referee();
  const playing = run(() => 0, { endpoint: ref.endpoint, token: TOKEN });
  try {
    await ref.receive();
    await ref.send(fx.welcome);
    await ref.send(bidRequest);
    await assert.rejects(playing, { name: "ProtocolError" });
  } finally {
    ref.close();
  }
});

test("a malformed request rejects run() with a ProtocolError", async () => {
  const ref = await referee();
  const playing = run(() => 0, { endpoint: ref.endpoint, token: TOKEN });
  try {
    await ref.receive();
    const m = fx.request();
    delete m.observation.board;
    await ref.send(m);
    await assert.rejects(playing, { name: "ProtocolError",
      message: "request.observation.board: expected an array" });
  } finally {
    ref.close();
  }
});

test("without ARENA_ENDPOINT run() says how to run a bot", async () => {
  const restore = setEnv({ ARENA_ENDPOINT: undefined, ARENA_TOKEN: undefined });
  try {
    await assert.rejects(run(() => 0), /ARENA_ENDPOINT and ARENA_TOKEN are not set/);
    await assert.rejects(run(42, { endpoint: "tcp://127.0.0.1:1", token: "x" }), TypeError);
  } finally {
    restore();
  }
});
