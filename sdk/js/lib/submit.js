// submit.js - send a bot to an arena's gateway, as `arena submit` does
// (the same as the Python SDK's arena_bot/submit.py).
//
// A participant needs their credentials file (from the organizer's `arena
// user add`) and the bot's folder, or a .tar.gz of it:
//
//   node sdk/js/submit.js --credentials alice.cred --name mybot --version 2 \
//       --game warchest --cmd "node bot.js" ./mybot
//   node sdk/js/submit.js --credentials alice.cred --list
//
// or from JavaScript: await submit(credentials, { name, version, cmd, folder, games })
// and await listBots(credentials), each resolving to { accepted, message, text, hash }.
// The wire (gateway/gw_proto.c): over ZeroMQ with CURVE, a DEALER sends a
// msgpack header {type, protocol, ...} and, for a submission, the folder as
// a .tar.gz in a second frame; the reply is {type: "reply", accepted,
// message, text, hash}. The arena checks everything it is sent. A folder is
// packed by the system's tar (GNU tar on Debian); node's crypto derives the
// participant's public key from the secret (X25519, as libsodium does).
import crypto from "node:crypto";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { decode, encode } from "@msgpack/msgpack";
import { Dealer } from "zeromq";

export const SUBMIT_PROTOCOL = 1;

// ZeroMQ's Z85 (RFC 32/Z85): 5 characters for 4 bytes.
const Z85 = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";

export function z85Decode(text) {
  if (text.length % 5 !== 0) throw new Error("not a Z85 text (its length is not a multiple of 5)");
  const out = Buffer.alloc((text.length / 5) * 4);
  for (let i = 0; i < text.length; i += 5) {
    let v = 0;
    for (let k = 0; k < 5; k++) {
      const d = Z85.indexOf(text[i + k]);
      if (d < 0) throw new Error("not a Z85 text");
      v = v * 85 + d;
    }
    if (v > 0xffffffff) throw new Error("not a Z85 text");
    out.writeUInt32BE(v, (i / 5) * 4);
  }
  return out;
}

export function z85Encode(bytes) {
  let text = "";
  for (let i = 0; i < bytes.length; i += 4) {
    let v = bytes.readUInt32BE(i), chunk = "";
    for (let k = 0; k < 5; k++) {
      chunk = Z85[v % 85] + chunk;
      v = Math.floor(v / 85);
    }
    text += chunk;
  }
  return text;
}

// A CURVE secret key's public key (Z85 both): X25519 of the base point.
export function curvePublic(secretZ85) {
  const secret = z85Decode(secretZ85);
  if (secret.length !== 32) throw new Error("a CURVE secret key is 32 bytes");
  const pkcs8 = Buffer.concat([Buffer.from("302e020100300506032b656e04220420", "hex"), secret]);
  const key = crypto.createPrivateKey({ key: pkcs8, format: "der", type: "pkcs8" });
  const spki = crypto.createPublicKey(key).export({ format: "der", type: "spki" });
  return z85Encode(spki.subarray(spki.length - 32));
}

// The credentials file's fields: name, endpoint, server-key, secret-key.
export function readCredentials(path) {
  const fields = {};
  for (const raw of fs.readFileSync(path, "utf8").split("\n")) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    const space = line.indexOf(" ");
    fields[space < 0 ? line : line.slice(0, space)] = space < 0 ? "" : line.slice(space + 1);
  }
  for (const key of ["name", "endpoint", "server-key", "secret-key"])
    if (!fields[key]) throw new Error(`${path}: no ${key} (not a credentials file)`);
  return fields;
}

// A folder as a .tar.gz (its paths relative to it), or a .tar.gz's bytes as they are.
export function packFolder(path) {
  if (!fs.statSync(path).isDirectory()) return fs.readFileSync(path);
  return execFileSync("tar", ["-czf", "-", "-C", path, "."], { maxBuffer: 1 << 30 });
}

async function call(credentials, frames, timeoutS) {
  const cred = readCredentials(credentials);
  const sock = new Dealer({
    linger: 2000,
    receiveTimeout: timeoutS * 1000,
    curveServerKey: cred["server-key"],
    curvePublicKey: curvePublic(cred["secret-key"]),
    curveSecretKey: cred["secret-key"],
  });
  try {
    sock.connect(cred.endpoint);
    await sock.send(frames);
    let reply;
    try {
      [reply] = await sock.receive();
    } catch (e) {
      if (e.code !== "EAGAIN") throw e;
      throw new Error(`no answer from the gateway at ${cred.endpoint} in ${timeoutS} s ` +
                      "(are these credentials this arena's?)");
    }
    const r = decode(reply);
    if (!r || typeof r !== "object" || r.type !== "reply") throw new Error("an unreadable reply");
    return { accepted: Boolean(r.accepted), message: String(r.message ?? ""),
             text: String(r.text ?? ""), hash: String(r.hash ?? "") };
  } finally {
    sock.close();
  }
}

// Sends the folder (or a .tar.gz, by path or as bytes) as NAME@VERSION.
export async function submit(credentials, { name, version, cmd, folder, games = [],
                                            timeoutS = 600 }) {
  const archive = Buffer.isBuffer(folder) ? folder : packFolder(folder);
  const head = encode({ type: "submit", protocol: SUBMIT_PROTOCOL, name, version,
                        games: [...games], cmd });
  return call(credentials, [head, archive], timeoutS);
}

// The participant's own bots, as a table in the reply's text.
export async function listBots(credentials, { timeoutS = 60 } = {}) {
  return call(credentials, [encode({ type: "list", protocol: SUBMIT_PROTOCOL })], timeoutS);
}
