// submit.test.js - what the submit helper computes alone (lib/submit.js):
// Z85 both ways (RFC 32's vector), a CURVE public key from its secret (a
// pair libzmq's tests use, and as pyzmq derives it), credentials files read
// or refused, an archive sent as it is. The round trip through a real
// gateway is tests/arena/test_arena_gateway.sh's.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { curvePublic, packFolder, readCredentials, z85Decode, z85Encode } from "../lib/submit.js";

test("Z85 both ways", () => {
  const bytes = Buffer.from([0x86, 0x4f, 0xd2, 0x6f, 0xb5, 0x59, 0xf7, 0x5b]);
  assert.equal(z85Encode(bytes), "HelloWorld");
  assert.deepEqual(z85Decode("HelloWorld"), bytes);
  assert.throws(() => z85Decode("Hello".slice(0, 4)), /multiple of 5/);
  assert.throws(() => z85Decode("Hell\""), /not a Z85/);
});

test("a CURVE public key from its secret", () => {
  assert.equal(curvePublic("JTKVSB%%)wK0E.X)V>+}o?pNmC{O&4W4b!Ni{Lh6"),
               "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7");
  assert.throws(() => curvePublic("HelloWorld"), /32 bytes/);
});

test("credentials read, or refused with what is missing", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "submit-test-"));
  const good = path.join(dir, "a.cred"), bad = path.join(dir, "b.cred");
  fs.writeFileSync(good, "# arena credentials of alice\nname alice\nendpoint tcp://h:7100\n" +
                         "server-key rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7\n" +
                         "secret-key JTKVSB%%)wK0E.X)V>+}o?pNmC{O&4W4b!Ni{Lh6\n");
  fs.writeFileSync(bad, "name alice\nendpoint tcp://h:7100\n");
  const c = readCredentials(good);
  assert.equal(c.name, "alice");
  assert.equal(c.endpoint, "tcp://h:7100");
  assert.equal(c["secret-key"], "JTKVSB%%)wK0E.X)V>+}o?pNmC{O&4W4b!Ni{Lh6");
  assert.throws(() => readCredentials(bad), /no server-key/);
  assert.deepEqual(packFolder(good), fs.readFileSync(good));     // a file: sent as it is
  const gz = packFolder(dir);                                    // a folder: a .tar.gz
  assert.equal(gz[0], 0x1f);
  assert.equal(gz[1], 0x8b);
  fs.rmSync(dir, { recursive: true });
});
