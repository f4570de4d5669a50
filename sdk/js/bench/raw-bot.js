#!/usr/bin/env node
// raw-bot.js - the floor for a JS bot's speed: PROTOCOL.md section 10's tiny
// bot, straight on zeromq and @msgpack/msgpack with no SDK in between. It
// picks exactly as agents/js/random.js does (same PRNG, same seed), so the two
// play identical matches and their times compare directly (see bench.sh).
import { Dealer } from "zeromq";
import { encode, decode } from "@msgpack/msgpack";

const sock = new Dealer({ linger: 0 });
sock.connect(process.env.ARENA_ENDPOINT);
await sock.send(encode({ type: "hello", protocol: 1, token: process.env.ARENA_TOKEN,
  name: "raw-js", version: "1" }));
// agents/js/random.js's mulberry32, repeated so this file stands alone.
let state = Number.parseInt(process.env.ARENA_BOT_SEED ?? "1", 10) >>> 0;
function random() {
  state = (state + 0x6d2b79f5) >>> 0;
  let x = state;
  x = Math.imul(x ^ (x >>> 15), x | 1);
  x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
  return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
}
for (;;) {
  const msg = decode((await sock.receive())[0]);
  if (msg.type === "request")
    await sock.send(encode({ type: "action", id: msg.id, index: Math.floor(random() * msg.actions.length) }));
  else if (msg.type === "end") break;
}
sock.close();
