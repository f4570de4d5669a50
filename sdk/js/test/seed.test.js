// seed.test.js - botSeed(): the referee's ARENA_BOT_SEED, 1 when unset, a
// RangeError naming the variable for anything else (PROTOCOL.md, section 1).
import { test, afterEach } from "node:test";
import assert from "node:assert/strict";
import { botSeed, SEED_MAX } from "../index.js";

const saved = process.env.ARENA_BOT_SEED;
afterEach(() => {
  if (saved === undefined) delete process.env.ARENA_BOT_SEED;
  else process.env.ARENA_BOT_SEED = saved;
});

test("the referee's value, and the documented fallback when unset", () => {
  for (const [text, want] of [["2147483647", 2147483647], ["0", 0], ["42", 42],
    ["4294967295", SEED_MAX], ["007", 7]]) {
    process.env.ARENA_BOT_SEED = text;
    assert.equal(botSeed(), want, text);
  }
  delete process.env.ARENA_BOT_SEED;
  assert.equal(botSeed(), 1);
});

test("anything but a whole number in range is refused, naming the variable", () => {
  for (const text of ["", "x", "-1", "+3", " 7", "7 ", "7\n", "4294967296", "9".repeat(30),
    "0x10", "1.5", "1e3", "\u0663"]) {
    process.env.ARENA_BOT_SEED = text;
    assert.throws(() => botSeed(),
      { name: "RangeError", message: /^ARENA_BOT_SEED must be a whole number from 0 to 4294967295/ },
      JSON.stringify(text));
  }
});
