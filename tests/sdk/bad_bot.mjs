#!/usr/bin/env node
// bad_bot.mjs MODE - a JavaScript bot that breaks the protocol on purpose,
// in the same modes as bad_bot.py, so the referee's reasons can be compared
// across languages. Run from the repository root (it imports sdk/js's
// dependencies).
import { createRequire } from "node:module";
const require = createRequire(new URL("../../sdk/js/package.json", import.meta.url));
const { Dealer } = require("zeromq");
const { encode, decode } = require("@msgpack/msgpack");

const mode = process.argv[2];
const sock = new Dealer({ linger: 0 });
sock.connect(process.env.ARENA_ENDPOINT);
const token = mode === "badtoken" ? "0".repeat(32) : process.env.ARENA_TOKEN;
await sock.send(encode({ type: "hello", protocol: 1, token, name: "bad-js", version: "1" }));
if (mode === "outofturn")
  await sock.send(encode({ type: "action", id: 1, index: 0 }));
for (;;) {
  const msg = decode((await sock.receive())[0]);
  if (msg.type === "request") {
    if (mode === "garbage") await sock.send(Buffer.from("\xc1 not msgpack", "latin1"));
    else await sock.send(encode({ type: "action", id: msg.id, index: msg.actions.length }));
  } else if (msg.type === "end") break;
}
sock.close();
