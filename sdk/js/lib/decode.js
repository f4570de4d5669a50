// decode.js - type-checked reads from the referee's decoded msgpack maps,
// shared by messages.js and observation.js. A wrong type throws a
// ProtocolError naming the field ("request.observation.board[0].coins"),
// because a bot that silently reads `undefined` plays badly without knowing
// why. Keys nobody reads are simply ignored, as protocol 1 allows new ones.

/** A message from the referee that does not have the shape PROTOCOL.md gives. */
export class ProtocolError extends Error {
  constructor(message) {
    super(message);
    this.name = "ProtocolError";
  }
}

export const isMap = (v) => v !== null && typeof v === "object" && !Array.isArray(v) &&
  !(v instanceof Uint8Array);

export function need(ok, where, what) {
  if (!ok) throw new ProtocolError(`${where}: expected ${what}`);
}

export function map(v, where) {
  need(isMap(v), where, "a map");
  return v;
}

const absent = (v) => v === null || v === undefined;

export function int(m, key, where, nullable = false) {
  const v = m[key];
  if (nullable && absent(v)) return null;
  need(Number.isSafeInteger(v), `${where}.${key}`, nullable ? "an integer or nil" : "an integer");
  return v;
}

export function str(m, key, where, nullable = false) {
  const v = m[key];
  if (nullable && absent(v)) return null;
  need(typeof v === "string", `${where}.${key}`, nullable ? "a string or nil" : "a string");
  return v;
}

export function arr(m, key, where) {
  const v = m[key];
  need(Array.isArray(v), `${where}.${key}`, "an array");
  return v;
}

export function strings(m, key, where) {
  const a = arr(m, key, where);
  a.forEach((s, i) => need(typeof s === "string", `${where}.${key}[${i}]`, "a string"));
  return a;
}

/** A zone {coin: count}, copied into a fresh object so the bot may change it. */
export function zone(m, key, where) {
  const z = map(m[key], `${where}.${key}`), out = {};
  for (const coin of Object.keys(z)) {
    need(Number.isSafeInteger(z[coin]) && z[coin] >= 0, `${where}.${key}.${coin}`, "a count");
    out[coin] = z[coin];
  }
  return out;
}

/** The {move_ms, bank_ms} map of welcome and request, as {moveMs, bankMs}. */
export function time(m, where) {
  const t = map(m.time, `${where}.time`);
  return { moveMs: int(t, "move_ms", `${where}.time`), bankMs: int(t, "bank_ms", `${where}.time`) };
}

/** Keeps the map a message came from, out of sight of loops and deepEqual. */
export function keepRaw(obj, m) {
  Object.defineProperty(obj, "raw", { value: m, enumerable: false });
}
