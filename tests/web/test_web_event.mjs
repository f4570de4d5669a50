// test_web_event.mjs - a Swiss and a knockout tournament's own results on
// the web: /api/event and the tournament's page (its table, its bracket),
// each number checked against what this test computes itself from the
// tournament's matches (/api/matches), never against the arena's code.
//   node test_web_event.mjs BASE_URL SWISS_ID KNOCKOUT_ID GAMES [MODULES SHOTS]
// GAMES: games per pairing. With MODULES (web/node_modules), the pages in
// Debian's chromium too, screenshots into SHOTS.
import assert from 'node:assert/strict';
import path from 'node:path';
import { launchChromium } from './chromium.mjs';

const [base, swissId, koId, gamesArg, modules, shots] = process.argv.slice(2);
const GAMES = Number(gamesArg);
let failures = 0;
async function test(name, fn) {
  try { await fn(); console.log('ok   ' + name); }
  catch (e) { failures++; console.log('FAIL ' + name + '\n     ' + (e.stack || e)); }
}
async function json(p) {
  const res = await fetch(base + p);
  assert.equal(res.status, 200, p);
  return res.json();
}
// A tournament's matches, oldest first.
async function matchesOf(id) {
  const m = (await json(`/api/matches?tournament=${id}&limit=200`)).matches;
  return m.sort((a, b) => a.id - b.id);
}

// Swiss by hand: rounds are blocks of (bots/2) x GAMES matches (a round is
// planned only once the one before is stored, so ids keep them apart); the
// bot missing from a round had its bye (half its games' points); Buchholz
// sums, round by round, the final points of the bot met.
function swissByHand(bots, matches) {
  const perRound = Math.floor(bots.length / 2) * GAMES;
  assert.equal(matches.length % perRound, 0, 'whole rounds');
  const points = new Map(bots.map(b => [b, 0])), byes = new Map(bots.map(b => [b, 0]));
  const met = new Map(bots.map(b => [b, []]));
  for (let r = 0; r * perRound < matches.length; r++) {
    const round = matches.slice(r * perRound, (r + 1) * perRound), seen = new Map();
    for (const m of round) {
      const [a, b] = m.seats;
      points.set(a.bot, points.get(a.bot) + a.score);
      points.set(b.bot, points.get(b.bot) + b.score);
      seen.set(a.bot, b.bot);
      seen.set(b.bot, a.bot);
    }
    for (const bot of bots) {
      if (seen.has(bot)) met.get(bot).push(seen.get(bot));
      else { byes.set(bot, byes.get(bot) + 1); points.set(bot, points.get(bot) + GAMES / 2); }
    }
  }
  return bots.map(b => ({ bot: b, points: points.get(b), byes: byes.get(b),
    buchholz: met.get(b).reduce((s, o) => s + points.get(o), 0) }));
}

// A tie by hand: each side's points in the matches between the two.
function tieByHand(matches, hi, lo) {
  const between = matches.filter(m => m.seats.some(s => s.bot === hi) && m.seats.some(s => s.bot === lo));
  const pts = bot => between.reduce((s, m) => s + m.seats.find(x => x.bot === bot).score, 0);
  return { hi: pts(hi), lo: pts(lo), games: between.length };
}

const swiss = await json('/api/event?tournament=' + swissId);
const ko = await json('/api/event?tournament=' + koId);
const swissMatches = await matchesOf(swissId), koMatches = await matchesOf(koId);
const entrants = [...new Set(swissMatches.flatMap(m => m.seats.map(s => s.bot)))].sort();
const expectSwiss = swissByHand(entrants, swissMatches);

await test('swiss: points with byes, Buchholz, ranked by them', async () => {
  assert.equal(swiss.format, 'swiss');
  assert.equal(swiss.done, true);
  assert.equal(swiss.swiss.length, entrants.length);
  assert.deepEqual(swiss.swiss.map(r => r.rank), entrants.map((_, i) => i + 1));
  for (const row of swiss.swiss) {
    const want = expectSwiss.find(e => e.bot === row.bot);
    assert.ok(want, row.bot);
    assert.equal(row.points, want.points, `${row.bot} points`);
    assert.equal(row.buchholz, want.buchholz, `${row.bot} buchholz`);
    assert.equal(row.byes, want.byes, `${row.bot} byes`);
  }
  for (let i = 1; i < swiss.swiss.length; i++) {
    const a = swiss.swiss[i - 1], b = swiss.swiss[i];
    assert.ok(a.points > b.points || (a.points === b.points && a.buchholz >= b.buchholz), `rank ${i}`);
  }
  // every point of the games and of the byes, and not one more
  const total = swissMatches.length + expectSwiss.reduce((s, e) => s + e.byes, 0) * GAMES / 2;
  assert.equal(swiss.swiss.reduce((s, r) => s + r.points, 0), total);
  assert.deepEqual(swiss.swiss.map(r => r.seed).sort((a, b) => a - b), entrants.map((_, i) => i + 1));
});

await test('knockout: the bracket, each tie from its games, one winner', async () => {
  assert.equal(ko.format, 'knockout');
  assert.equal(ko.done, true);
  const n = entrants.length, slots = 2 ** Math.ceil(Math.log2(n));
  assert.equal(ko.rounds, Math.log2(slots));
  const byes = ko.bracket.filter(t => t.lo === null), ties = ko.bracket.filter(t => t.lo !== null);
  assert.equal(byes.length, slots - n);
  assert.equal(ties.length, n - 1);                  // each tie puts one bot out
  let played = 0;
  for (const t of ties) {
    const want = tieByHand(koMatches, t.hi.bot, t.lo.bot);
    assert.equal(t.hi.points, want.hi, `${t.hi.bot} v ${t.lo.bot}`);
    assert.equal(t.lo.points, want.lo, `${t.lo.bot} v ${t.hi.bot}`);
    assert.equal(t.games, want.games);
    assert.ok(t.hi.seed < t.lo.seed, 'the higher seed first');
    const through = want.hi >= want.lo ? t.hi.bot : t.lo.bot;   // level: the higher seed
    assert.equal(t.winner, through, `${t.hi.bot} v ${t.lo.bot}: who goes through`);
    played += want.games;
  }
  assert.equal(played, koMatches.length, 'every match belongs to a tie');
  const final = ko.bracket[ko.bracket.length - 1];
  assert.equal(final.round, ko.rounds);
  assert.equal(final.name, 'final');
  assert.equal(ko.winner, final.winner);
  // the winner lost no tie; every other bot lost exactly one
  for (const bot of entrants) {
    const lost = ties.filter(t => (t.hi.bot === bot || t.lo.bot === bot) && t.winner !== bot).length;
    assert.equal(lost, bot === ko.winner ? 0 : 1, bot);
  }
});

await test('event: other formats, bad and unknown tournaments', async () => {
  const games = await json('/api/games');
  const rr = games.tournaments.find(t => t.format !== 'swiss' && !t.format.startsWith('swiss') &&
    t.format !== 'knockout');
  if (rr) {
    const r = await json('/api/event?tournament=' + rr.id);
    assert.ok(!('swiss' in r) && !('bracket' in r), JSON.stringify(r));
  }
  for (const [q, status] of [['', 400], ['?tournament=x', 400], ['?tournament=0', 400],
    ['?tournament=999999', 404], ['?tournament=1&tournament=2', 400], ['?id=1', 400]]) {
    const res = await fetch(base + '/api/event' + q);
    assert.equal(res.status, status, q);
    assert.ok((await res.json()).error, q);
  }
});

if (modules) {
  const browser = await launchChromium(modules);
  const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
  const dialogs = [], errors = [];
  page.on('dialog', d => { dialogs.push(d.message()); d.dismiss(); });
  page.on('pageerror', e => errors.push(String(e)));
  const one = x => Number(x).toFixed(1);

  await test('page: a Swiss tournament shows its table', async () => {
    await page.goto(`${base}/?tournament=${swissId}`);
    await page.waitForSelector('table.swiss tbody tr');
    const rows = await page.$$eval('table.swiss tbody tr', trs => trs.map(tr =>
      [...tr.children].map(td => td.textContent)));
    assert.equal(rows.length, entrants.length);
    for (const [rank, bot, points, buchholz, byes] of rows) {
      const want = expectSwiss.find(e => e.bot === bot);
      assert.ok(want, `a row for '${bot}'`);
      assert.deepEqual([points, buchholz, byes], [one(want.points), one(want.buchholz), String(want.byes)], bot);
      assert.ok(Number(rank) >= 1);
    }
    await page.screenshot({ path: path.join(shots, 'event-swiss.png'), fullPage: true });
  });

  await test('page: a knockout shows its bracket and winner', async () => {
    await page.goto(`${base}/?tournament=${koId}`);
    await page.waitForSelector('.bracket .tie');
    const ties = await page.$$eval('.bracket .tie', ds => ds.map(d => ({ hi: d.dataset.hi, lo: d.dataset.lo,
      text: d.textContent })));
    assert.equal(ties.length, ko.bracket.length);
    for (const t of ties) {
      if (!t.lo) { assert.match(t.text, /bye$/); continue; }
      const want = tieByHand(koMatches, t.hi, t.lo);
      assert.ok(t.text.includes(`${one(want.hi)} – ${one(want.lo)}`), t.text);
    }
    const winner = await page.$eval('p.winner', p => p.textContent);
    assert.equal(winner, 'Winner: ' + ko.winner);
    await page.screenshot({ path: path.join(shots, 'event-knockout.png'), fullPage: true });
  });

  await test('page: hostile names shown as text, no script ran', async () => {
    assert.deepEqual(dialogs, []);
    assert.deepEqual(errors, []);
    assert.ok(entrants.some(b => b.includes('<')), 'the test has a hostile name');
    const shown = await page.$$eval('.bracket a', as => as.map(a => a.textContent));
    assert.ok(shown.some(s => s.includes('<')));
  });
  await browser.close();
}
if (failures) { console.log(`${failures} failed`); process.exit(1); }
console.log('PASS');
