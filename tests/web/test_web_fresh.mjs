// test_web_fresh.mjs - the web never shows standings more than 5 s old: a
// server reads DB; its standings are cached; then a real tournament writes
// matches into DB and a bot is put on trial (as `arena ladder --gate sprt`
// marks it). An answer is read at most 5 s before
// it was asked for (its as_of_ms), and the first answer asked for 5 s after
// the write shows the new matches and the bot's `trial` status, as `arena
// bot list` does. Before, the cache served its old answer however old, refreshing
// behind it: the first look after a quiet spell showed the stale one.
//   node test_web_fresh.mjs BASE_URL ARENA DB PYTHON
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

const [base, arena, db, python] = process.argv.slice(2);
const MAX_AGE_MS = 5000;
const sleep = ms => new Promise(r => setTimeout(r, ms));
const PATH = '/api/standings?game=warchest&players=2';
async function standings() {
  const asked = Date.now();
  const res = await fetch(base + PATH);
  assert.equal(res.status, 200);
  const json = await res.json();
  const games = json.standings.reduce((n, r) => n + r.games, 0) / 2;   // two seats a match
  const greedy = json.bots.find(b => b.name === 'greedy');
  return { asked, json, games, greedy: greedy && greedy.status };
}
function run(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  assert.equal(r.status, 0, `${cmd} ${args.join(' ')}: ${r.stdout}${r.stderr}`);
}

let failures = 0;
async function test(name, fn) {
  try { await fn(); console.log('ok   ' + name); }
  catch (e) { failures++; console.log('FAIL ' + name + '\n     ' + (e.stack || e)); }
}

await test('standings written under a running server are shown within 5 s', async () => {
  const before = await standings();
  assert.ok(before.games > 0 && before.greedy !== 'trial', JSON.stringify(before.json.bots));
  assert.ok(before.json.as_of_ms >= before.asked - MAX_AGE_MS, 'as_of_ms: when its data was read');
  // the cache has its answer now; a real tournament adds 2 matches
  run(arena, ['--db', db, 'tournament', '--games', '2', '--concurrency', '2', '--memory-mb', '0',
    '--quiet', 'random', 'greedy']);
  run(python, ['-c', `import sqlite3; d = sqlite3.connect(${JSON.stringify(db)}); ` +
    `d.execute("UPDATE bots SET status_reason = 'on trial: against random, SPRT running'` +
    ` WHERE name = 'greedy'"); d.commit()`]);
  const written = Date.now();
  // nobody looks for a while, as on a quiet site: the first look after it
  // must not be the answer cached before the write
  await sleep(MAX_AGE_MS + 500);
  const after = await standings();
  assert.ok(after.json.as_of_ms >= after.asked - MAX_AGE_MS,
            `an answer read ${after.asked - after.json.as_of_ms} ms before it was asked for`);
  assert.equal(after.games, before.games + 2, 'the tournament\'s matches');
  assert.equal(after.greedy, 'trial', 'a bot on trial shows as trial, not active');
});
process.exit(failures ? 1 : 0);
