// same-fields.js - the walk from a message's bytes to what this SDK decoded:
// every key of the message must have its value in the decoded object, by
// name (camelCased), recursively. Shared by shared-fixtures.test.js (the
// hand-made fixtures) and random-messages.js (random games' messages).
import assert from "node:assert/strict";
import { Request, Welcome, Update, Result } from "../index.js";

export const DECODERS = {
  welcome: (m) => new Welcome(m), request: (m) => new Request(m),
  update: (m) => new Update(m), end: (m) => new Result(m),
};
const camel = (key) => key.replace(/_([a-z])/g, (_, c) => c.toUpperCase());

// Every key of `raw` has its value in `decoded`, recursively.
export function same(raw, decoded, where) {
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
