// test_web_http.mjs - every API route of `arena serve` over real HTTP, good
// input and bad: each answers JSON with the documented fields, bad input is
// a 4xx naming the problem, never a 5xx, and the server still answers after.
//   node test_web_http.mjs BASE_URL
import assert from 'node:assert/strict';
import net from 'node:net';

const base = process.argv[2];
let failures = 0;
async function test(name, fn) {
  try { await fn(); console.log('ok   ' + name); }
  catch (e) { failures++; console.log('FAIL ' + name + '\n     ' + (e.stack || e)); }
}
async function get(path, init) {
  const res = await fetch(base + path, init);
  const text = await res.text();
  let json = null;
  try { json = JSON.parse(text); } catch { /* pages are HTML */ }
  return { status: res.status, headers: res.headers, text, json };
}
async function bad(path, status) {
  const r = await get(path);
  assert.equal(r.status, status, `${path}: ${r.status} ${r.text.slice(0, 200)}`);
  assert.ok(r.json && typeof r.json.error === 'string' && r.json.error.length, `${path}: an error message`);
  return r.json.error;
}
// A raw request, for what fetch refuses to send.
function raw(request) {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const s = net.connect(Number(url.port), url.hostname, () => s.end(request));
    let out = '';
    s.on('data', d => { out += d; });
    s.on('end', () => resolve(out));
    s.on('error', reject);
    s.setTimeout(10000, () => { s.destroy(); resolve(out); });
  });
}

await test('standings: rows of the tournament, bots with status', async () => {
  const r = await get('/api/standings?game=warchest&players=2');
  assert.equal(r.status, 200);
  assert.equal(r.headers.get('content-type'), 'application/json');
  const names = r.json.standings.map(x => x.bot).sort();
  assert.deepEqual(names, ['<script>alert(1)</script>', 'greedy', 'random']);
  for (const row of r.json.standings)
    for (const k of ['rank', 'elo', 'ci95', 'live_elo', 'games', 'wins', 'draws', 'losses', 'score_pct'])
      assert.equal(typeof row[k], 'number', k);
  assert.ok(r.json.bots.every(b => b.status && 'last_active_ms' in b));
  // the games each plays (registered untried: every game)
  assert.deepEqual(r.json.bots.find(b => b.name === 'greedy').plays, ['goofspiel', 'warchest']);
  assert.ok(r.json.bots.every(b => Array.isArray(b.plays) && b.plays.length > 0));
});
const LADDER = encodeURIComponent('<b>night</b> & day');
await test('standings and crosstable of a ladder', async () => {
  const r = await get(`/api/standings?ladder=${LADDER}&game=goofspiel&players=2`);
  assert.equal(r.status, 200);
  assert.deepEqual(r.json.standings.map(x => x.games), [4, 4, 4]);
  // the ladder's matches only: none in War Chest, none in three seats
  assert.deepEqual((await get(`/api/standings?ladder=${LADDER}&game=warchest`)).json.standings, []);
  assert.deepEqual((await get(`/api/standings?ladder=${LADDER}&game=goofspiel&players=3`)).json.standings, []);
  const x = await get(`/api/crosstable?ladder=${LADDER}&game=goofspiel&players=2`);
  assert.equal(x.json.crosstable.length, 6);
  assert.ok(x.json.crosstable.every(c => c.wins + c.draws + c.losses === 2));
});
await test('crosstable: pairs of the same bots', async () => {
  const r = await get('/api/crosstable?game=warchest');
  assert.equal(r.status, 200);
  assert.equal(r.json.crosstable.length, 6);
  const c = r.json.crosstable[0];
  assert.equal(c.wins + c.draws + c.losses, 2);
});
await test('games: the kinds and the tournaments', async () => {
  const r = await get('/api/games');
  // sorted by game then seats: two kinds of one game, then another game
  assert.deepEqual(r.json.kinds, [{ game: 'goofspiel', players: 2, newest: 15 },
    { game: 'goofspiel', players: 3, newest: 9 }, { game: 'warchest', players: 2, newest: 6 }]);
  assert.deepEqual(r.json.tournaments.map(t => [t.id, t.game, t.planned]),
    [[3, 'goofspiel', 6], [2, 'goofspiel', 3], [1, 'warchest', 6]]);
  assert.deepEqual(r.json.ladders.map(l => [l.id, l.name, l.game]), [[1, '<b>night</b> & day', 'goofspiel']]);
  assert.ok(!r.text.includes('<b>') && !r.text.includes('&'), 'ladder names are escaped in JSON');
});
await test('matches: pages through every match with the cursor, newest first', async () => {
  const seen = [];
  let next = '';
  for (let pages = 0; pages < 20; pages++) {
    const r = await get('/api/matches?limit=4' + next);
    assert.equal(r.status, 200);
    seen.push(...r.json.matches.map(m => m.id));
    if (r.json.next === null) break;
    next = '&before=' + r.json.next;
  }
  assert.deepEqual(seen, [15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
});
await test('matches: filters by bot, result, reason, tournament, game', async () => {
  const all = (await get('/api/matches?bot=greedy')).json.matches;
  assert.equal(all.length, 4);
  assert.ok(all.every(m => m.seats.some(s => s.bot === 'greedy')));
  const won = (await get('/api/matches?bot=greedy&result=win')).json.matches;
  assert.ok(won.every(m => m.seats.find(s => s.bot === 'greedy').score === 1));
  const lost = (await get('/api/matches?bot=greedy&result=loss')).json.matches;
  assert.equal(won.length + lost.length + (await get('/api/matches?bot=greedy&result=draw')).json.matches.length, 4);
  assert.equal((await get('/api/matches?reason=nothing-like-it')).json.matches.length, 0);
  assert.equal((await get('/api/matches?tournament=1&game=warchest&players=2')).json.matches.length, 6);
  assert.equal((await get('/api/matches?tournament=2')).json.matches.length, 3);
  assert.deepEqual((await get('/api/matches?game=goofspiel&players=3')).json.matches.map(m => m.id), [9, 8, 7]);
  assert.equal((await get('/api/matches?game=goofspiel&players=2')).json.matches.length, 6);
  assert.deepEqual((await get(`/api/matches?ladder=${LADDER}`)).json.matches.map(m => m.id), [15, 14, 13, 12, 11, 10]);
  assert.equal((await get(`/api/matches?ladder=${LADDER}&bot=random2`)).json.matches.length, 4);
  assert.equal((await get(`/api/matches?ladder=${LADDER}&bot=greedy`)).json.matches.length, 0);
  assert.equal((await get(`/api/matches?ladder=${LADDER}&game=warchest`)).json.matches.length, 0);
  assert.equal((await get('/api/matches?tournament=3')).json.matches.length, 0);   // the ladder's now
  assert.equal((await get('/api/matches?tournament=4')).json.matches.length, 0);
});
await test('match: the replay data, and a seat view without the other hand', async () => {
  const r = await get('/api/matches/1');
  assert.equal(r.status, 200);
  const m = r.json;
  assert.equal(m.states.length, m.decisions.length + 1);
  assert.ok(m.decisions.every(d => typeof d.ms === 'number' && typeof d.action === 'string'));
  // the record's own clock and per-decision CPU and wait (null where unmeasured)
  assert.match(m.clock, /^(cpu|wall) /);
  const number = x => x === null || typeof x === 'number' && x >= 0;
  assert.ok(m.decisions.every(d => number(d.cpu_ms) && number(d.wait_ms)));
  if (m.clock.startsWith('cpu '))   // the CPU clock is used only where CPU is measured
    assert.ok(m.decisions.every(d => d.cpu_ms !== null));
  assert.ok(m.states.every(s => s.seats.every(z => z.hand !== null && z.bag !== null)));
  const v = (await get('/api/matches/1?view=0')).json;
  assert.equal(v.view, 0);
  assert.ok(v.states.every(s => s.seats[1].hand === null && s.seats[1].bag === null &&
    s.seats[1].facedown === null && s.seats[0].hand !== null));
  // the other seat's face-down coins stay face down in the action list
  const hidden = v.decisions.filter((d, i) => d.seat === 1 && d.action !== m.decisions[i].action);
  assert.ok(hidden.every(d => d.action.includes('?')));
  assert.ok(!JSON.stringify(v.states).includes('"hand":{"') ||
    v.states.every(s => s.seats[1].hand === null));
});
await test('match: what a seat printed while deciding, beside each decision', async () => {
  // Match 1: the hostile-named bot is ismcts --verbose, a line per decision
  // before it answers ("ismcts: decision ID: ACTION (...)"); greedy prints nothing.
  const m = (await get('/api/matches/1')).json;
  const seat = m.seats.findIndex(x => x.bot === '<script>alert(1)</script>');
  assert.ok(seat >= 0);
  const own = m.decisions.map((d, i) => [d, i]).filter(([d]) => d.seat === seat);
  assert.ok(own.length > 10);
  for (const [d, i] of own)
    assert.match(d.log, new RegExp(`^ismcts: decision ${i + 1}: ${d.action} \\([^\n]*\\)\n$`),
      `decision ${i + 1}: ${JSON.stringify(d.log)}`);
  assert.ok(m.decisions.every(d => d.seat === seat || d.log === null));
  // the lines, put together, are the log kept (nothing after the last decision)
  assert.equal(own.map(([d]) => d.log).join(''), m.logs.find(l => l.seat === seat).text);
  // a seat's view has only its own lines
  const other = (await get(`/api/matches/1?view=${1 - seat}`)).json;
  assert.ok(other.decisions.every(d => d.log === null));
  const mine = (await get(`/api/matches/1?view=${seat}`)).json;
  assert.deepEqual(mine.decisions.map(d => d.log), m.decisions.map(d => d.log));
});
await test('match: a hostile log and detail come back as JSON strings', async () => {
  const r = await get('/api/matches/2');
  assert.equal(r.json.detail, '<img src=x onerror=alert(4)>');
  const log = r.json.logs.find(l => l.seat === 0);
  assert.equal(log.text, '<img src=x onerror=alert(2)>\n</pre><script>alert(3)</script>\ufffd\n');
  assert.ok(!r.text.includes('<img') && !r.text.includes('</script>'), 'markup is escaped in JSON');
});
await test('match: a second game, its own JSON, and a seat view without the others\' hands', async () => {
  const m = (await get('/api/matches/7')).json;           // Goofspiel, 3 seats, 5 cards
  assert.equal(m.game, 'goofspiel');
  assert.equal(m.states.length, m.decisions.length + 1);
  assert.equal(m.decisions.length, 15);
  const end = m.states.at(-1);
  assert.equal(end.round, 5);
  assert.equal(end.history.length, 5);
  assert.ok(end.seats.every(s => s.hand.length === 0));
  // the final points are the match's detail ("points a-b-c")
  assert.equal('points ' + end.seats.map(s => s.points).join('-'), m.detail);
  const v = (await get('/api/matches/7?view=1')).json;
  assert.ok(v.states.every(s => s.seats[0].hand === null && s.seats[2].hand === null &&
    Array.isArray(s.seats[1].hand)));
  // a bid made this round by another seat shows as made, without its card
  assert.ok(v.states.some(s => s.seats[0].has_bid && s.seats[0].bid === null));
  assert.ok(m.states.every((s, i) => s.seats.every((z, p) => z.hand_count === v.states[i].seats[p].hand_count)));
  // the others' bids: "bid ?" as made, whole from the step their round is
  // settled (every third: 3 seats); its own as made; the full view's as made
  assert.ok(m.decisions.every(d => /^bid \d+$/.test(d.action) && d.revealed === null));
  v.decisions.forEach((d, i) => {
    if (d.seat === 1) return assert.deepEqual([d.action, d.revealed], [m.decisions[i].action, null]);
    assert.equal(d.action, 'bid ?');
    assert.deepEqual(d.revealed, { step: 3 * Math.floor(i / 3) + 3, action: m.decisions[i].action });
  });
});
await test('bot: history, opponents, recent, forfeits', async () => {
  const r = await get('/api/bots/greedy');
  assert.equal(r.status, 200);
  assert.equal(r.json.history.length, 4);
  assert.deepEqual([r.json.history_total, r.json.history_step], [4, 1]);
  assert.equal(r.json.recent.matches.length, 4);
  assert.ok(Array.isArray(r.json.forfeits));
  assert.equal(r.json.opponents.length, 2);
  const x = await get('/api/bots/' + encodeURIComponent('<script>alert(1)</script>'));
  assert.equal(x.status, 200);
  assert.ok(!x.text.includes('<script>'), 'names are escaped in JSON');
});
await test('gates: the SPRT verdicts, newest first, of a ladder, of a bot', async () => {
  const r = await get('/api/gates');
  assert.equal(r.status, 200);
  assert.deepEqual(r.json.gates.map(g => [g.id, g.ladder, g.bot, g.opponent, g.outcome]),
    [[2, '<b>night</b> & day', '<script>alert(1)</script>', 'random', 'passed'],
     [1, '<b>night</b> & day', 'random3', 'random2', 'failed']]);
  const g = r.json.gates[1];
  assert.deepEqual([g.bot_id, g.opponent_id, g.elo0, g.elo1, g.alpha, g.beta, g.llr, g.lower, g.upper,
    g.wins, g.draws, g.losses, g.pairs, g.decided_ms],
    [5, 4, 0, 10, 0.05, 0.05, -3.01, -2.944, 2.944, 2, 0, 10, 6, 1700000000000]);
  assert.ok(!r.text.includes('<script>') && !r.text.includes('<b>'), 'names are escaped in JSON');
  const ids = async q => (await get('/api/gates?' + q)).json.gates.map(x => x.id);
  assert.deepEqual(await ids(`ladder=${LADDER}`), [2, 1]);
  assert.deepEqual(await ids('bot=random2'), [1]);              // the one it had to beat
  assert.deepEqual(await ids('bot=random3'), [1]);              // the new version
  assert.deepEqual(await ids(`bot=random&ladder=${LADDER}`), [2]);
  assert.deepEqual(await ids('bot=greedy'), []);
  await bad('/api/gates?ladder=nope', 404);
  await bad('/api/gates?bot=nobody', 404);
  await bad('/api/gates?bot=random&bot=random2', 400);
  await bad('/api/gates?player=random', 400);
});
await test('sprt: arena sprt A B on request, over their record', async () => {
  const r = await get('/api/sprt?a=greedy&b=random');
  assert.equal(r.status, 200);
  const s = r.json, bot = (await get('/api/bots/greedy')).json;
  const [, , w, d, l] = bot.opponents.find(o => o[0] === 'random');
  assert.deepEqual([s.wins, s.draws, s.losses], [w, d, l]);
  assert.equal(s.pairs, 1);                               // one seed pair: the tournament's 2 games
  assert.equal(s.penta.reduce((x, y) => x + y), 1);
  assert.deepEqual([s.elo0, s.elo1, s.alpha, s.beta], [0, 10, 0.05, 0.05]);
  assert.ok(s.lower < 0 && s.upper > 0 && s.verdict === 'continue', JSON.stringify(s));
  const t = (await get('/api/sprt?a=random&b=greedy&elo0=-5&elo1=5&alpha=0.1&beta=0.2')).json;
  assert.deepEqual([t.wins, t.losses, t.elo0, t.alpha, t.beta], [l, w, -5, 0.1, 0.2]);
  assert.ok(Math.abs(t.upper - Math.log(0.8 / 0.1)) < 1e-9, `upper ${t.upper}`);
  const x = (await get(`/api/sprt?a=random2&b=random3&ladder=${LADDER}`)).json;
  const y = (await get(`/api/sprt?a=random3&b=random2&ladder=${LADDER}`)).json;
  assert.equal(x.wins + x.draws + x.losses, 2);           // their two games in the ladder
  assert.deepEqual([y.wins, y.draws, y.losses], [x.losses, x.draws, x.wins]);
  await bad('/api/sprt?a=greedy', 400);
  await bad('/api/sprt?a=greedy&b=greedy', 400);
  await bad('/api/sprt?a=greedy&b=nobody', 404);
  await bad('/api/sprt?a=greedy&b=random&elo0=10&elo1=0', 400);
  await bad('/api/sprt?a=greedy&b=random&alpha=2', 400);
  await bad('/api/sprt?a=greedy&b=random&elo1=ten', 400);
  await bad('/api/sprt?a=greedy&b=random&ladder=nope', 404);
});
await test('live: rates, running tournaments, recent matches', async () => {
  const r = await get('/api/live');
  assert.equal(r.status, 200);
  assert.ok(r.json.per_minute >= 0 && Array.isArray(r.json.running));
  assert.equal(r.json.recent.matches.length, 15);
  assert.deepEqual(r.json.ladders.map(([name, game, recent]) => [name, game, recent]),
    [['<b>night</b> & day', 'goofspiel', 6]]);
  assert.equal(r.json.ladders[0][4], 6);   // its highest game index + 1
  // the arenas at work: one killed long ago, its hostile host name a string
  assert.deepEqual(r.json.arenas, [['<i>box</i>', 4242, 1, null, 3, 2, 'tcp://127.0.0.1:7000',
    1700000000000, 1700000060000]]);
  assert.ok(r.json.now_ms > 1700000060000 && !r.text.includes('<i>'));
});
await test('pages and assets: served with a strict CSP', async () => {
  for (const p of ['/', '/bot?name=greedy', '/matches', '/match?id=1', '/live', '/static/app.js',
    '/static/uPlot.min.js', '/static/games/warchest.js', '/static/games/goofspiel.js',
    '/static/style.css']) {
    const r = await get(p);
    assert.equal(r.status, 200, p);
    // each game's board script, from games/NAME/web/NAME.js
    if (p.startsWith('/static/games/'))
      assert.match(r.text, new RegExp(`^ArenaBoards\\.${p.slice(14, -3)} = `, 'm'), p);
    const csp = r.headers.get('content-security-policy');
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self'/);
    assert.doesNotMatch(csp, /unsafe/);
    assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
  }
});
await test('bad input: 4xx with a reason, never 5xx', async () => {
  await bad('/api/matches?limit=0', 400);
  await bad('/api/matches?limit=201', 400);
  await bad('/api/matches?limit=abc', 400);
  await bad('/api/matches?before=-1', 400);
  await bad('/api/matches?before=99999999999999999999999', 400);
  await bad('/api/matches?players=1', 400);
  await bad('/api/matches?game=chess', 400);
  await bad('/api/matches?ladder=nope', 404);
  await bad('/api/standings?ladder=nope', 404);
  await bad(`/api/standings?ladder=${LADDER}&tournament=1`, 400);
  await bad(`/api/crosstable?ladder=${LADDER}&ladder=x`, 400);
  await bad('/api/matches?result=win', 400);          // whose win?
  await bad('/api/matches?bot=greedy&result=maybe', 400);
  await bad('/api/matches?bot=nobody', 404);
  await bad('/api/matches?unknown=1', 400);
  await bad('/api/matches?limit=1&limit=2', 400);
  await bad('/api/matches?bot=%00', 400);
  await bad('/api/matches?bot=%ZZ%', 400);
  await bad('/api/matches?bot=' + 'x'.repeat(300), 400);
  await bad('/api/matches?' + 'a=1&'.repeat(600), 414);
  await bad('/api/matches/0', 400);
  await bad('/api/matches/abc', 400);
  await bad('/api/matches/1e3', 400);
  await bad('/api/matches/999999', 404);
  await bad('/api/matches/1?view=2', 400);
  await bad('/api/matches/1?view=-1', 400);
  await bad('/api/bots/nobody', 404);
  await bad('/api/bots/' + 'y'.repeat(500), 400);
  await bad('/api/standings?players=x', 400);
  await bad('/api/standings?tournament=0', 400);
  await bad('/api/crosstable?game=%3Cscript%3E', 400);
  await bad('/api/nothing', 404);
  await bad('/no/such/page', 404);
  await bad('/static/../../etc/passwd', 404);
  const post = await get('/api/standings', { method: 'POST', body: 'x' });
  assert.equal(post.status, 405);
  for (const m of ['PUT', 'DELETE', 'PATCH'])
    assert.equal((await get('/api/live', { method: m })).status, 405, m);
  // malformed and huge requests, below what fetch would send
  const huge = await raw('GET /api/matches?bot=' + 'z'.repeat(100000) + ' HTTP/1.1\r\nHost: x\r\n\r\n');
  assert.match(huge, /^HTTP\/1\.[01] 4\d\d/);
  const junk = await raw('\x00\x01garbage\r\n\r\n');
  assert.ok(junk === '' || /^HTTP\/1\.[01] 4\d\d/.test(junk), junk.slice(0, 80));
  const head = await get('/api/live', { method: 'HEAD' });
  assert.equal(head.status, 200);
  assert.equal(head.text, '');
  // still alive
  assert.equal((await get('/api/live')).status, 200);
});

if (failures) { console.log(`${failures} failed`); process.exit(1); }
console.log('all passed');
