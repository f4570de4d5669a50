// test_web_idle.mjs - idle, half-sent and flooding connections cannot stall
// `arena serve` (its defaults: 512 threads, 32 connections an address, a
// request head within 5 s, an idle kept connection closed after 3 s).
//
// Ten loopback addresses (127.0.0.2 ... 11) each hold 25 idle keep-alive
// connections (one request answered, then silence) and 5 half-sent ones (a
// head without its end): 300 connections the server keeps, each a thread.
// One more address floods 100 half-sent connections: 32 are kept, the
// other 68 are closed at once. With all of them open, a new visitor's GET
// /api/games answers 200 within a second. Without the fix (8 threads, a
// thread held per connection) it waited for the timeouts, 5 to 10 s: the
// bound is a second, generous beside the few milliseconds it takes, and far
// below what a stall costs. Then every one of them is closed by the server
// at its timeout.
//   node test_web_idle.mjs BASE_URL
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';

const base = new URL(process.argv[2]);
const port = Number(base.port);
const HELD_ADDRESSES = 10, IDLE_EACH = 25, HALF_EACH = 5, FLOOD = 100, PER_ADDRESS = 32;
// civetweb waits for a head in polls of the whole timeout: one may begin
// just before the bound and end a timeout later. So a connection is closed
// within twice its timeout (and on a loaded machine, not much sooner):
// before, a head had 10 s and an idle connection 5 s.
const HEAD_MS = 5000, IDLE_MS = 3000;

// A connection from localAddress; resolves once connected with its record:
// when the server answered (answered_ms) and when it closed it (closed_ms).
function open(localAddress) {
  return new Promise((resolve, reject) => {
    const rec = { opened_ms: 0, answered_ms: 0, closed_ms: 0, text: '' };
    const s = net.connect({ port, host: base.hostname, localAddress }, () => {
      rec.opened_ms = Date.now();
      resolve(rec);
    });
    rec.socket = s;
    s.on('data', d => {
      rec.text += d;
      if (!rec.answered_ms && rec.text.includes('\r\n\r\n')) rec.answered_ms = Date.now();
    });
    s.on('end', () => { rec.closed_ms = rec.closed_ms || Date.now(); s.end(); });
    s.on('close', () => { rec.closed_ms = rec.closed_ms || Date.now(); });
    s.on('error', e => { if (!rec.opened_ms) reject(e); });
  });
}
const sleep = ms => new Promise(r => setTimeout(r, ms));
const HEAD = `GET /favicon.svg HTTP/1.1\r\nHost: ${base.host}\r\nConnection: keep-alive\r\n`;

let failures = 0;
async function test(name, fn) {
  try { await fn(); console.log('ok   ' + name); }
  catch (e) { failures++; console.log('FAIL ' + name + '\n     ' + (e.stack || e)); }
}

const idle = [], half = [], flood = [];
await test('300 idle and half-sent connections from 10 addresses, 100 more from one', async () => {
  const opening = [];
  for (let a = 0; a < HELD_ADDRESSES; a++) {
    const addr = `127.0.0.${2 + a}`;
    for (let i = 0; i < IDLE_EACH; i++)
      opening.push(open(addr).then(r => { r.socket.write(HEAD + '\r\n'); idle.push(r); }));
    for (let i = 0; i < HALF_EACH; i++)
      opening.push(open(addr).then(r => { r.socket.write(HEAD); half.push(r); }));
  }
  for (let i = 0; i < FLOOD; i++)
    opening.push(open('127.0.0.12').then(r => { r.socket.write(HEAD); flood.push(r); }));
  await Promise.all(opening);
  // every idle one has its answer: it is now a kept connection, waiting
  for (let t = 0; t < 100 && idle.some(r => !r.answered_ms); t++) await sleep(20);
  assert.equal(idle.filter(r => r.text.startsWith('HTTP/1.1 200')).length, idle.length,
               'every idle connection had its first answer');
  assert.equal(half.length + idle.length + flood.length, 400);
});

// A GET on a connection of its own from 127.0.0.1: status, body, milliseconds.
function visit(path) {
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    const req = http.get(new URL(path, base), { agent: false, timeout: 20000 }, res => {
      let body = '';
      res.on('data', d => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode, body, ms: Date.now() - t0 }));
    });
    req.on('timeout', () => req.destroy(new Error('no answer in 20 s')));
    req.on('error', reject);
  });
}

await test('a new visitor is answered within a second beside them', async () => {
  const r = await visit('/api/games');
  assert.equal(r.status, 200);
  assert.ok(Array.isArray(JSON.parse(r.body).kinds));
  // the kept ones are still open: the answer did not come from their timeouts
  const stillOpen = idle.concat(half).filter(x => !x.closed_ms).length;
  console.log(`     answered in ${r.ms} ms with ${stillOpen} of 300 kept connections open`);
  assert.ok(r.ms < 1000, `the answer took ${r.ms} ms`);
  assert.ok(stillOpen >= 250, `${stillOpen} of 300 still open`);
});

await test('past 32 connections, an address has the rest closed at once', async () => {
  for (let t = 0; t < 100 && flood.filter(r => r.closed_ms).length < FLOOD - PER_ADDRESS; t++)
    await sleep(20);
  const closed = flood.filter(r => r.closed_ms);
  assert.equal(closed.length, FLOOD - PER_ADDRESS, `${closed.length} of ${FLOOD} closed`);
  const slowest = Math.max(...closed.map(r => r.closed_ms - r.opened_ms));
  assert.ok(slowest < HEAD_MS - 1000, `closed after ${slowest} ms, not at once`);
});

await test('idle and half-sent connections are closed at their timeouts', async () => {
  const all = idle.concat(half, flood);
  for (let t = 0; t < 300 && all.some(r => !r.closed_ms); t++) await sleep(50);   // 15 s at most
  assert.ok(all.every(r => r.closed_ms), `${all.filter(r => !r.closed_ms).length} left open`);
  const idleMax = Math.max(...idle.map(r => r.closed_ms - r.answered_ms));
  const halfMax = Math.max(...half.map(r => r.closed_ms - r.opened_ms));
  console.log(`     idle closed after at most ${idleMax} ms, half-sent after ${halfMax} ms`);
  assert.ok(idleMax >= IDLE_MS - 500 && idleMax < 2 * IDLE_MS, `idle: ${idleMax} ms`);
  assert.ok(halfMax >= HEAD_MS - 500 && halfMax < 2 * HEAD_MS, `half-sent: ${halfMax} ms`);
});

for (const r of idle.concat(half, flood)) r.socket.destroy();
process.exit(failures ? 1 : 0);
