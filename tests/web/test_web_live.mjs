// test_web_live.mjs - /api/live while a real arena plays a tournament on the
// database the server reads (test_web.sh starts it): the tournament is listed
// as running, with the matches its arena has taken (its claims: playing or
// next in line, at most its window of 2 x concurrency + 2), one arena; and
// that arena among the arenas at work, by its pid, with its two workers;
// once it is stopped, nothing is taken, the rest is queued, and its row is
// gone.
//   node test_web_live.mjs BASE_URL playing|stopped PLANNED ARENA_PID
import assert from 'node:assert/strict';

const [base, phase, plannedText, pidText] = process.argv.slice(2);
const planned = Number(plannedText), pid = Number(pidText);
async function live() {
  const res = await fetch(base + '/api/live');
  assert.equal(res.status, 200);
  return res.json();
}

try {
  let row = null, l = null, mine = null;
  for (let tries = 0; tries < 300; tries++) {         // up to 30 s for its workers to be ready
    l = await live();
    row = l.running[0] || null;
    mine = l.arenas.find(a => a[1] === pid) || null;
    if (phase === 'stopped' || (row && row[6] > 0 && mine && mine[4] === 2)) break;
    await new Promise(r => setTimeout(r, 100));
  }
  assert.ok(row, 'the tournament is running');
  const [, game, format, plannedSeen, done, , taken, arenas] = row;
  assert.deepEqual([game, format, plannedSeen], ['warchest', 'round-robin', planned]);
  if (phase === 'playing') {
    assert.ok(taken >= 1 && taken <= 6, `${taken} taken at concurrency 2`);
    assert.equal(arenas, 1);
    assert.ok(mine, `arena ${pid} among ${JSON.stringify(l.arenas)}`);
    const [host, , tournament, ladder, workers, taken2, listening, started, seen] = mine;
    assert.ok(typeof host === 'string' && host.length > 0);
    assert.deepEqual([tournament, ladder, workers, listening], [row[0], null, 2, null]);
    assert.ok(taken2 >= 0 && taken2 <= 6 && started <= seen && l.now_ms - seen < 10000);
  } else {
    assert.deepEqual([taken, arenas], [0, 0]);
    assert.deepEqual(l.arenas, [], 'a stopped arena deletes its row');
  }
  assert.ok(done + taken < planned, `${done} stored, ${taken} taken of ${planned}`);
  console.log(`ok   live while ${phase}: ${done} stored, ${taken} taken, ${arenas} arena(s) of ${planned}`);
} catch (e) {
  console.log(`FAIL live while ${phase}\n     ${e.stack || e}`);
  process.exit(1);
}
