#!/usr/bin/env node
// arena-submit: send a bot to an arena's gateway from JavaScript (lib/submit.js).
//
//   node sdk/js/submit.js --credentials FILE --name BOT --version V [--game G]...
//       --cmd "CMD" [--timeout S] DIR|ARCHIVE.tar.gz
//   node sdk/js/submit.js --credentials FILE --list
import { parseArgs } from "node:util";
import { listBots, submit } from "./lib/submit.js";

const usage = "usage: submit.js --credentials FILE (--list | --name BOT --version V " +
  "[--game G]... --cmd CMD DIR|ARCHIVE) [--timeout S]";

function fail(message) {
  process.stderr.write(`submit: ${message}\n`);
  process.exit(2);
}

let args;
try {
  args = parseArgs({
    allowPositionals: true,
    options: {
      credentials: { type: "string" }, list: { type: "boolean" }, name: { type: "string" },
      version: { type: "string" }, game: { type: "string", multiple: true },
      cmd: { type: "string" }, timeout: { type: "string" },
    },
  });
} catch (e) {
  fail(`${e.message}\n${usage}`);
}
const o = args.values, paths = args.positionals;
if (!o.credentials) fail(`--credentials is needed\n${usage}`);
const timeoutS = o.timeout === undefined ? 600 : Number(o.timeout);
if (!Number.isInteger(timeoutS) || timeoutS < 1 || timeoutS > 86400)
  fail("--timeout must be a whole number of seconds from 1 to 86400");
if (!o.list && !(o.name && o.version && o.cmd && paths.length === 1))
  fail(`--name, --version, --cmd and one folder or archive are needed (or --list)\n${usage}`);

// What the gateway said, shown: control characters but newlines and tabs as '?'.
const show = (s) => s.replace(/[\x00-\x08\x0b-\x1f\x7f]/g, "?");
let reply;
try {
  reply = o.list ? await listBots(o.credentials, { timeoutS })
    : await submit(o.credentials, { name: o.name, version: o.version, cmd: o.cmd,
                                    folder: paths[0], games: o.game ?? [], timeoutS });
} catch (e) {
  process.stderr.write(`submit: ${e.message}\n`);
  process.exit(2);
}
process.stdout.write(show(reply.message) + "\n");
if (reply.hash) process.stdout.write(`content hash ${reply.hash}\n`);
if (reply.text) process.stdout.write(show(reply.text) + (reply.text.endsWith("\n") ? "" : "\n"));
process.exit(reply.accepted ? 0 : 1);
