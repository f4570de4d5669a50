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
import { Request, decodeMessage } from "../index.js";
import { DECODERS, same } from "./same-fields.js";

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..",
  "tests", "sdk", "fixtures");

function fixtures() {
  const names = readdirSync(FIXTURES).filter((n) => n.endsWith(".msgpack")).sort();
  assert.ok(names.length >= 10, names.join(" "));
  return names.map((name) => [name, decodeMessage(readFileSync(join(FIXTURES, name)))]);
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
