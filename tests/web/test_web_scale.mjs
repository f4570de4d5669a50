// test_web_scale.mjs - a bot's page when the bot has played more matches
// than its rating plot has points, forfeited some and logged in others: a
// database filled by `arena bench --web` (test_web.sh). The plot's points
// are every history_step-th rated match and the last, each at its match's
// time; forfeits and logs are the bot's own (schema 11's tables, the walk of
// its newest matches).
//   node test_web_scale.mjs BASE_URL BOT...
import assert from 'node:assert/strict';

const [base, ...bots] = process.argv.slice(2);
let failures = 0;
async function get(path) {
  const res = await fetch(base + path);
  assert.equal(res.status, 200, path);
  return res.json();
}

for (const name of bots) {
  try {
    const b = await get('/api/bots/' + name);
    assert.ok(b.games > 500, `${name} played ${b.games}`);
    assert.equal(b.history_total, b.games);
    const step = Math.ceil(b.games / 500);
    assert.equal(b.history_step, step);
    const onGrid = Math.ceil(b.games / step), lastOnGrid = (b.games - 1) % step === 0;
    assert.equal(b.history.length, onGrid + (lastOnGrid ? 0 : 1));
    const ids = b.history.map(p => p[2]);
    assert.ok(ids.every((id, i) => !i || id > ids[i - 1]), 'points in match order');
    // the last point is the newest match, at the live rating
    assert.equal(ids.at(-1), b.recent.matches[0].id);
    assert.equal(b.history.at(-1)[1], b.live_elo);
    // each point stands at its own match's finish, and is a match of this bot
    for (const [ms, , id] of [b.history[0], b.history[1], b.history.at(-2)]) {
      const page = await get(`/api/matches?bot=${name}&before=${id + 1}&limit=1`);
      assert.equal(page.matches[0].id, id);
      assert.equal(page.matches[0].finished_ms, ms);
    }
    // forfeits: newest first, each a match where the culprit's seat is this bot
    assert.ok(b.forfeits.length > 0 && b.forfeits.length <= 50, `${b.forfeits.length} forfeits`);
    assert.ok(b.forfeits.every((f, i) => !i || f[0] < b.forfeits[i - 1][0]));
    for (const [id, , reason] of b.forfeits.slice(0, 3)) {
      const m = await get('/api/matches/' + id);
      assert.equal(m.seats[m.culprit].bot_id, b.id, `match ${id}`);
      assert.equal(m.reason, reason);
    }
    // logs: the newest 50 of its seats' logs
    assert.equal(b.logs.length, 50);
    assert.equal(b.logs[0][0], b.recent.matches[0].id);
    const m = await get('/api/matches/' + b.logs[0][0]);
    assert.equal(m.seats[b.logs[0][1]].bot_id, b.id);
    console.log(`ok   ${name}: ${b.games} matches, ${b.history.length} points, ` +
      `${b.forfeits.length} forfeits, ${b.logs.length} logs`);
  } catch (e) {
    failures++;
    console.log(`FAIL ${name}\n     ${e.stack || e}`);
  }
}
if (failures) process.exit(1);
console.log('all passed');
