#!/usr/bin/env node
// random.js - the random bot in JavaScript: any legal action, uniformly, like
// agents/random.c. Its choices come from botSeed() (ARENA_BOT_SEED, default
// 1) through a PRNG of its own, so a match replays exactly. Run it from anywhere:
//   referee play --bot "node agents/js/random.js" --bot build/agents/random
// It imports the SDK by relative path, so Node finds the SDK's dependencies
// in sdk/js/node_modules (install them with `npm ci --prefix sdk/js`).
import { botSeed, run } from "../../sdk/js/index.js";

// mulberry32: a 32-bit state stepped by a Weyl constant and mixed by two
// multiply-xorshift rounds. Plenty for picking moves, and tiny.
function mulberry32(seed) {
  let state = seed >>> 0;
  return function next() {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const random = mulberry32(botSeed());

await run((request) => Math.floor(random() * request.actions.length),
  { name: "random-js", version: "1.0" });
