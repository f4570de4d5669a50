// test_web_live.mjs - /api/live while a real arena plays a tournament on the
// database the server reads (test_web.sh starts it): the tournament is listed
// as running, with the matches its arena has taken (its claims: playing or
// next in line, at most its window of 2 x concurrency + 2), one arena; once
// that arena is stopped, nothing is taken and the rest is queued.
//   node test_web_live.mjs BASE_URL playing|stopped PLANNED
import assert from 'node:assert/strict';

const [base, phase, plannedText] = process.argv.slice(2);
const planned = Number(plannedText);
async function live() {
  const res = await fetch(base + '/api/live');
  assert.equal(res.status, 200);
  return res.json();
}

try {
  let row = null;
  for (let tries = 0; tries < 300; tries++) {         // up to 30 s for the first match to start
    const l = await live();
    row = l.running[0] || null;
    if (phase === 'stopped' || (row && row[6] > 0)) break;
    await new Promise(r => setTimeout(r, 100));
  }
  assert.ok(row, 'the tournament is running');
  const [, game, format, plannedSeen, done, , taken, arenas] = row;
  assert.deepEqual([game, format, plannedSeen], ['warchest', 'round-robin', planned]);
  if (phase === 'playing') {
    assert.ok(taken >= 1 && taken <= 6, `${taken} taken at concurrency 2`);
    assert.equal(arenas, 1);
  } else {
    assert.deepEqual([taken, arenas], [0, 0]);
  }
  assert.ok(done + taken < planned, `${done} stored, ${taken} taken of ${planned}`);
  console.log(`ok   live while ${phase}: ${done} stored, ${taken} taken, ${arenas} arena(s) of ${planned}`);
} catch (e) {
  console.log(`FAIL live while ${phase}\n     ${e.stack || e}`);
  process.exit(1);
}
