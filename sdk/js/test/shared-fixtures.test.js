// shared-fixtures.test.js - the shared fixtures (tests/sdk/fixtures, made by
// the referee's own code from hand-made positions; the C and Python SDKs read
// the same files): every field of every message, decoded by this SDK, must
// equal what the bytes say. The walk starts from the bytes, so a field the
// SDK does not decode, or decodes from another key, fails by name; the
// positions give fields a decoder could swap different values.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { Request, Welcome, Update, Result, decodeMessage } from "../index.js";

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..",
  "tests", "sdk", "fixtures");
const DECODERS = {
  welcome: (m) => new Welcome(m), request: (m) => new Request(m),
  update: (m) => new Update(m), end: (m) => new Result(m),
};
const camel = (key) => key.replace(/_([a-z])/g, (_, c) => c.toUpperCase());

function fixtures() {
  const names = readdirSync(FIXTURES).filter((n) => n.endsWith(".msgpack")).sort();
  assert.ok(names.length >= 10, names.join(" "));
  return names.map((name) => [name, decodeMessage(readFileSync(join(FIXTURES, name)))]);
}

// Every key of `raw` has its value in `decoded`, recursively.
function same(raw, decoded, where) {
  if (Array.isArray(raw)) {
    assert.ok(Array.isArray(decoded), `${where}: not a list`);
    assert.equal(decoded.length, raw.length, where);
    raw.forEach((r, i) => same(r, decoded[i], `${where}[${i}]`));
  } else if (raw !== null && typeof raw === "object") {
    assert.ok(decoded !== null && typeof decoded === "object", `${where}: not decoded`);
    if (decoded instanceof Map) {
      assert.deepEqual([...decoded.keys()].sort(), Object.keys(raw).sort(), where);
      for (const [k, v] of Object.entries(raw)) same(v, decoded.get(k), `${where}.${k}`);
      return;
    }
    for (const [key, value] of Object.entries(raw)) {
      const attr = key in decoded && !(camel(key) in decoded) ? key : camel(key);
      assert.ok(attr in decoded, `${where}.${key}: not decoded (no ${attr})`);
      if (key === "board") {          // a list of units, decoded by hex
        assert.deepEqual([...decoded.board.keys()].sort(), value.map((u) => u.hex).sort(), where);
        for (const u of value) same(u, decoded.board.get(u.hex), `${where}.board[${u.hex}]`);
      } else {
        same(value, decoded[attr], `${where}.${key}`);
      }
    }
  } else {
    assert.equal(decoded, raw, where);
  }
}

test("every field of every shared fixture decodes", () => {
  const seen = new Set();
  for (const [name, msg] of fixtures()) {
    const decode = DECODERS[msg.type];
    if (!decode) {
      assert.equal(msg.type, "error", name);          // shown, not decoded
      continue;
    }
    seen.add(msg.type);
    const { type, ...fields } = msg;
    same(fields, decode(msg), name);
  }
  assert.deepEqual([...seen].sort(), Object.keys(DECODERS).sort());
});

test("the fixtures' values tell fields apart", () => {
  const [, req] = fixtures().find(([n]) => n === "request-turn.msgpack");
  const obs = new Request(req).observation;
  assert.equal(obs.initiativeClaimed, true);
  assert.deepEqual(obs.players.map((p) => [p.bag, p.hand, p.facedown]), [[4, 2, 6], [5, 3, 1]]);
  assert.deepEqual([obs.round, obs.roundLimit, obs.markers, obs.initiative], [7, 40, 6, 0]);
});
