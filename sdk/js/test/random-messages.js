// random-messages.js - the referee's messages of random War Chest games
// (FILE, written by tests/sdk/random_messages.c: 4-byte big-endian lengths,
// each followed by a message), decoded by this SDK from their bytes: every
// field must equal what the bytes say, as for the shared fixtures
// (shared-fixtures.test.js), over values the hand-made fixtures cannot all
// hold. Run by ctest's test_sdk_random_messages: node random-messages.js FILE
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { decodeMessage } from "../index.js";
import { DECODERS, same } from "./same-fields.js";

if (process.argv.length !== 3) {
  console.error("usage: node random-messages.js FILE");
  process.exit(2);
}
const data = readFileSync(process.argv[2]);
const seen = {};
let n = 0;
for (let at = 0; at < data.length; n++) {
  assert.ok(at + 4 <= data.length, `cut short at byte ${at}`);
  const size = data.readUInt32BE(at);
  assert.ok(at + 4 + size <= data.length, `cut short at byte ${at}`);
  const msg = decodeMessage(data.subarray(at + 4, at + 4 + size));
  at += 4 + size;
  const decode = DECODERS[msg.type];
  assert.ok(decode, `message ${n}: type ${msg.type}`);
  seen[msg.type] = (seen[msg.type] ?? 0) + 1;
  const { type, ...fields } = msg;
  same(fields, decode(msg), `message ${n} (${type} ${msg.id})`);
}
assert.ok((seen.request ?? 0) > 100, JSON.stringify(seen));
assert.equal(seen.update, 2 * seen.request, JSON.stringify(seen));
console.error(`js: ${n} messages decode field by field`);
