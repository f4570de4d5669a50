// run.js - the bot's side of the conversation in PROTOCOL.md section 4:
// connect a DEALER to ARENA_ENDPOINT, say hello with ARENA_TOKEN, then answer
// each request with the bot's choice until `end`. Mirrors the Python SDK's
// run(bot, {name, version}) so a bot reads alike in both languages.
import { Dealer } from "zeromq";
import { decodeMessage, encodeMessage, MAX_MESSAGE } from "./wire.js";
import { Request, Welcome, Update, Result, ProtocolError } from "./messages.js";

export const PROTOCOL = 1;

// A bot is a function choose(request), or an object with decide(request).
function chooser(bot) {
  if (typeof bot === "function") return bot;
  if (bot && typeof bot.decide === "function") return (request) => bot.decide(request);
  throw new TypeError("run(bot): bot must be a function choose(request) " +
    "or an object with a decide(request) method");
}

// A hook is a method of an object bot, or else an option: run(choose, {onEnd}).
function hook(bot, options, name) {
  const fn = (bot && typeof bot === "object" && bot[name]) || options[name];
  if (fn === undefined) return async () => {};
  if (typeof fn !== "function") throw new TypeError(`run(bot): ${name} must be a function`);
  return (arg) => fn.call(bot, arg);
}

/**
 * Plays one match. Resolves to the Result {scores, reason, culprit, detail,
 * seat, score} when the referee sends `end`. Rejects when the bot throws or
 * chooses badly (InvalidChoice), or the referee's messages do not decode
 * (ProtocolError): an unhandled rejection exits non-zero, which the referee
 * records as a crash, with the reason in the bot's log.
 * options: name, version (one word each); endpoint, token override the
 * environment (for tests); onWelcome, onUpdate, onEnd hooks for a function bot.
 */
export async function run(bot, options = {}) {
  const choose = chooser(bot);
  const onWelcome = hook(bot, options, "onWelcome"), onUpdate = hook(bot, options, "onUpdate");
  const onEnd = hook(bot, options, "onEnd");
  const endpoint = options.endpoint ?? process.env.ARENA_ENDPOINT;
  const token = options.token ?? process.env.ARENA_TOKEN;
  if (!endpoint || !token)
    throw new Error("arena-bot: ARENA_ENDPOINT and ARENA_TOKEN are not set; " +
      "run this bot from the referee (referee play --bot CMD ...)");

  // linger 0: after `end` nothing we could still send matters, so close at once.
  const sock = new Dealer({ linger: 0, maxMessageSize: MAX_MESSAGE });
  try {
    sock.connect(endpoint);
    await sock.send(encodeMessage({ type: "hello", protocol: PROTOCOL, token,
      name: String(options.name ?? "bot"), version: String(options.version ?? "1") }));
    let seat = null, game;
    for (;;) {
      const [frame] = await sock.receive();
      let m;
      try {
        m = decodeMessage(frame);
      } catch (e) {
        throw new ProtocolError(`arena-bot: cannot decode a message from the referee: ${e.message}`);
      }
      switch (m.type) {
        case "welcome": {
          const welcome = new Welcome(m);
          seat = welcome.seat;
          game = welcome.game;
          await onWelcome(welcome);
          break;
        }
        case "update":
          await onUpdate(new Update(m, "update", game));
          break;
        case "request": {
          const request = new Request(m, "request", game);
          const index = request.indexOf(await choose(request));
          await sock.send(encodeMessage({ type: "action", id: request.id, index }));
          break;
        }
        case "error":
          // Sent once, just before `end`, to a seat that broke the rules.
          process.stderr.write(`arena-bot: the referee says ${m.code}: ${m.message}\n`);
          break;
        case "end": {
          const result = new Result(m, seat);
          await onEnd(result);
          return result;
        }
        default:
          break;                      // a later protocol 1 may add message types
      }
    }
  } finally {
    sock.close();
  }
}
