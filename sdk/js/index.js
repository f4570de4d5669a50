// arena-bot - write a War Chest bot for the arena in JavaScript.
//
//   import { run } from "arena-bot";
//   await run((request) => request.actions[0], { name: "first", version: "1" });
//
// This file only gathers the public API, which mirrors the Python SDK's
// (sdk/python/arena_bot) in camelCase. lib/run.js speaks the protocol
// (../PROTOCOL.md), lib/messages.js decodes its messages for any game;
// lib/games/ holds a module per game that decodes its observation and
// actions, chosen by the welcome's game (lib/games/index.js, the registry):
// War Chest's (lib/games/warchest.js) with lib/observation.js and
// lib/hex.js, the board; Goofspiel's. lib/wire.js frames msgpack,
// lib/seed.js reads the seed the referee chose for this seat's random
// choices; lib/submit.js sends a bot to an arena's gateway (submit.js, its
// command line).
export { run, PROTOCOL } from "./lib/run.js";
export { Request, Action, Welcome, Update, Result, InvalidChoice, ProtocolError }
  from "./lib/messages.js";
export { Observation } from "./lib/observation.js";
export { hexToAxial, axialToHex, hexDistance, neighbours, onBoard, boardHexes, inLine, between,
  LOCATIONS_2P, LOCATIONS_4P } from "./lib/hex.js";
export { botSeed, SEED_MAX } from "./lib/seed.js";
export { decodeMessage, encodeMessage, LIMITS } from "./lib/wire.js";
export { submit, listBots, readCredentials, curvePublic } from "./lib/submit.js";
