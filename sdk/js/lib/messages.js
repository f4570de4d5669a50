// messages.js - the referee's messages (PROTOCOL.md sections 4 and 6) as
// friendly objects: Request with its Actions, Welcome, Update, Result. Also
// what a bot may answer: Request.indexOf turns an Action, an index or
// notation text into the index the `action` message carries, and throws
// InvalidChoice otherwise, before anything is sent: a readable Error beats an
// `illegal_action` forfeit dug out of the referee's record.
import { ProtocolError, need, map, int, str, arr, time, keepRaw } from "./decode.js";
import { gameModule } from "./games/index.js";

export { ProtocolError };

/** A choice that is none of the request's actions. */
export class InvalidChoice extends Error {
  constructor(message) {
    super(message);
    this.name = "InvalidChoice";
  }
}

/** One action: notation `text` and its parts; `index` is its place in the request.
 * The parts are the module's of `game`, the welcome's (games/index.js); a game
 * without one keeps its action map as it came, in `fields`. */
export class Action {
  constructor(m, index = -1, where = "action", game = undefined) {
    map(m, where);
    this.text = str(m, "text", where);
    gameModule(game).actionParts(this, m, where);
    this.index = index;               // -1 in an update
  }

  toString() {
    return this.text;
  }
}

export class Request {
  /** `game` is the welcome's: its module decodes the observation; a game
   * without one keeps the plain object it came as. */
  constructor(m, where = "request", game = undefined) {
    map(m, where);
    this.id = int(m, "id", where);
    this.decision = str(m, "decision", where);
    this.time = time(m, where);
    this.observation = gameModule(game).observation(m.observation, `${where}.observation`);
    const actions = arr(m, "actions", where);
    need(actions.length > 0, `${where}.actions`, "at least one action");
    this.actions = actions.map((a, i) => new Action(a, i, `${where}.actions[${i}]`, game));
    keepRaw(this, m);
  }

  /** The action written `text` (runs of spaces folded), or null. */
  find(text) {
    const want = text.trim().split(/\s+/).join(" ");
    return this.actions.find((a) => a.text === want) ?? null;
  }

  /** The index to send for a choice: an Action, an integer index or notation text. */
  indexOf(choice) {
    const n = this.actions.length;
    if (typeof choice === "number") {
      if (Number.isInteger(choice) && choice >= 0 && choice < n) return choice;
      throw new InvalidChoice(`index ${choice} is out of range: request ${this.id} ` +
        `offers ${n} actions (0..${n - 1})`);
    }
    if (choice instanceof Action) {
      if (this.actions[choice.index] === choice) return choice.index;
      const found = this.find(choice.text);     // an equal action built elsewhere
      if (found) return found.index;
      throw new InvalidChoice(`action "${choice.text}" is not offered in request ${this.id}`);
    }
    if (typeof choice === "string") {
      const found = this.find(choice);
      if (found) return found.index;
      const some = this.actions.slice(0, 3).map((a) => `"${a.text}"`).join(", ");
      throw new InvalidChoice(`"${choice}" is not a legal action now (request ${this.id}); ` +
        `e.g. ${some}`);
    }
    const what = choice === null || choice === undefined ? String(choice) : typeof choice;
    throw new InvalidChoice(`a choice must be an Action from request.actions, an integer ` +
      `index or notation text, not ${what}`);
  }
}

export class Welcome {
  constructor(m, where = "welcome") {
    map(m, where);
    this.protocol = int(m, "protocol", where);
    this.game = str(m, "game", where);
    this.options = str(m, "options", where);
    this.seat = int(m, "seat", where);
    this.seats = int(m, "seats", where);
    this.team = int(m, "team", where);
    this.time = time(m, where);
    keepRaw(this, m);
  }

  /** One rule of `options` ("players=2 setup=dealt ..."), as text, or `fallback`. */
  option(key, fallback = null) {
    for (const word of this.options.split(/\s+/)) {
      const eq = word.indexOf("=");
      if (eq > 0 && word.slice(0, eq) === key) return word.slice(eq + 1);
    }
    return fallback;
  }
}

/** What a seat decided; another seat's face-down coin shows as "?". */
export class Update {
  constructor(m, where = "update", game = undefined) {
    map(m, where);
    this.id = int(m, "id", where);
    this.seat = int(m, "seat", where);
    this.decision = str(m, "decision", where);
    this.action = new Action(m.action, -1, `${where}.action`, game);
    keepRaw(this, m);
  }
}

/** The end of a match: scores per seat (1 win, 0.5 draw, 0 loss), why, who forfeited. */
export class Result {
  constructor(m, seat = null, where = "end") {
    map(m, where);
    const scores = arr(m, "scores", where);
    scores.forEach((s, i) => need(typeof s === "number", `${where}.scores[${i}]`, "a number"));
    this.scores = scores;
    this.reason = str(m, "reason", where);
    this.culprit = int(m, "culprit", where, true);
    this.detail = typeof m.detail === "string" ? m.detail : "";
    this.seat = seat;                 // mine, once the welcome has said it
  }

  /** My score, or null before a welcome. */
  get score() {
    return this.seat !== null && this.seat < this.scores.length ? this.scores[this.seat] : null;
  }
}
