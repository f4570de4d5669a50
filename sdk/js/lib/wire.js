// wire.js - one msgpack map per ZeroMQ frame (PROTOCOL.md section 2). The
// decoder has limits so that a broken or hostile peer cannot make the bot
// allocate without bound; they are far above what protocol 1 sends (a request
// is a few KiB; an engine decision has at most 1024 legal actions).
import { Decoder, Encoder } from "@msgpack/msgpack";

export const LIMITS = Object.freeze({
  maxStrLength: 64 * 1024,
  maxBinLength: 64 * 1024,
  maxArrayLength: 4096,
  maxMapLength: 4096,
  maxExtLength: 1024,
});

/** Largest message we accept from the referee, in bytes (ZeroMQ enforces it). */
export const MAX_MESSAGE = 16 * 1024 * 1024;
/** Largest message the referee accepts from a bot (its ZMQ_MAXMSGSIZE default). */
export const MAX_SEND = 1024 * 1024;

// Reused: building a Decoder per message costs more than decoding a request.
const decoder = new Decoder(LIMITS);
const encoder = new Encoder();

/** The map in one frame, or throws an Error that says why not. */
export function decodeMessage(frame) {
  const m = decoder.decode(frame);
  if (m === null || typeof m !== "object" || Array.isArray(m) || m instanceof Uint8Array)
    throw new Error("a message that is not a msgpack map");
  if (typeof m.type !== "string") throw new Error("a message without a string \"type\"");
  return m;
}

export function encodeMessage(m) {
  const bytes = encoder.encode(m);
  if (bytes.length > MAX_SEND)
    throw new Error(`a ${bytes.length}-byte message is over the referee's ${MAX_SEND}-byte limit`);
  return bytes;
}
