// test_web_playing.mjs - a match in play on the web, while a real arena
// plays a tournament (test_web.sh): it is listed under /api/live `playing`
// with its id, bots and decisions so far; /api/matches/ID serves those
// decisions marked as playing, in every view as a finished match's (a
// seat's view shows the other seat's hidden actions in their public form
// only, and the states hide what the seat cannot see); the decisions grow
// as it goes; when it ends, the same id serves the stored match, finished.
// (test_web_views.sh checks a match in play's views byte for byte against
// the game's own.) With MODULES, the pages in Debian's chromium instead: the
// live page links the match in play to its replay, which follows it as it
// goes, then shows it stored.
//   node test_web_playing.mjs BASE_URL [MODULES SHOTS]
import assert from 'node:assert/strict';
import path from 'node:path';
import { launchChromium } from './chromium.mjs';

const [base, modules, shots] = process.argv.slice(2);
const BASE_ID = 2 ** 52;
const sleep = ms => new Promise(r => setTimeout(r, ms));
async function get(path) {
  const res = await fetch(base + path);
  const json = await res.json();
  assert.equal(res.status, 200, `${path}: ${JSON.stringify(json)}`);
  return json;
}
let failures = 0;
async function test(name, fn) {
  try { await fn(); console.log('ok   ' + name); }
  catch (e) { failures++; console.log('FAIL ' + name + '\n     ' + (e.stack || e)); }
}

let entry = null;
await test('a match in play is listed under playing, with its bots', async () => {
  for (let tries = 0; tries < 300 && !entry; tries++) {       // its first decisions: up to 30 s
    const l = await get('/api/live');
    entry = l.playing.find(p => p.decisions >= 2) || null;
    if (!entry) await sleep(100);
  }
  assert.ok(entry, 'no match in play with decisions');
  assert.ok(Number.isSafeInteger(entry.id) && entry.id >= BASE_ID, `id ${entry.id}`);
  assert.deepEqual([entry.game, entry.players, entry.tournament, entry.ladder], ['warchest', 2, 1, null]);
  assert.deepEqual(entry.seats.map(s => s.bot).sort(), ['slow1', 'slow2']);
  assert.deepEqual(entry.seats.map(s => s.seat), [0, 1]);
});

// Each view of the match in play as a finished match's would be.
function checkViews(full, views) {
  assert.equal(full.playing, true);
  assert.equal(full.view, -1);
  assert.equal(full.states.length, full.decisions.length + 1);
  assert.deepEqual([full.reason, full.finished_ms], ['', 0]);
  let hidden = 0;
  views.forEach((v, k) => {
    assert.equal(v.playing, true);
    assert.equal(v.view, k);
    assert.ok(v.decisions.length >= full.decisions.length, 'a later answer has as many decisions');
    full.decisions.forEach((d, i) => {
      const seen = v.decisions[i];
      assert.equal(seen.seat, d.seat);
      if (d.seat === k) assert.equal(seen.action, d.action, `seat ${k} sees its own decision ${i} whole`);
      else if (seen.action !== d.action) {
        hidden++;
        assert.match(seen.action, /\?/, `decision ${i} in seat ${k}'s view: ${seen.action}`);
        assert.equal(seen.log, null);
      }
    });
    // War Chest: the other seat's hand and bag are hidden (null), counts only
    for (const state of v.states.slice(0, full.states.length)) {
      const other = state.seats ? state.seats[1 - k] : null;
      if (other) assert.deepEqual([other.hand, other.bag], [null, null], `seat ${k}'s view`);
    }
  });
  return hidden;
}

if (modules) {
  const browser = await launchChromium(modules);
  const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
  const errors = [];
  page.on('pageerror', e => errors.push(String(e)));
  await test('page: the live page links the match in play to its replay', async () => {
    await page.goto(base + '/live');
    // the page draws itself anew every 2 s: a locator, found again at each try
    const link = page.locator(`#playing tr[data-id="${entry.id}"] a[href="/match?id=${entry.id}"]`);
    await link.waitFor({ timeout: 10000 });
    await page.screenshot({ path: path.join(shots, 'live-playing.png'), fullPage: true });
    await link.click();
    await page.waitForSelector('#actions tbody tr');
    assert.match(await page.textContent('h1'), /\(in play\)/);
  });
  await test('page: the replay follows the match as it goes, then shows it stored', async () => {
    const rows = () => page.$$eval('#actions tbody tr', trs => trs.length);
    // the newest step is in view while it plays (both read at once: the
    // page follows the match meanwhile)
    const [start, counter] = await page.evaluate(() => [document.querySelectorAll('#actions tbody tr').length,
      document.getElementById('counter').textContent]);
    assert.equal(counter, `${start} / ${start}`);
    await page.waitForFunction(n => document.querySelectorAll('#actions tbody tr').length > n, start,
      { timeout: 20000 });
    await page.waitForFunction(() => !/\(in play\)/.test(document.querySelector('h1').textContent),
      null, { timeout: 120000 });
    const id = Number(new URL(page.url()).searchParams.get('id'));
    assert.ok(id > 0 && id < BASE_ID, `the address names the stored match: ${page.url()}`);
    const stored = await get(`/api/matches/${id}`);
    assert.equal(await rows(), stored.decisions.length);
    assert.match(await page.textContent('.status-line'), new RegExp(stored.reason));
    await page.screenshot({ path: path.join(shots, 'match-followed.png'), fullPage: true });
    assert.deepEqual(errors, []);
  });
  await browser.close();
  if (failures) { console.log(`${failures} failed`); process.exit(1); }
  console.log('PASS');
  process.exit(0);
}

let first = null;
await test('its decisions so far, in every view, marked as playing', async () => {
  let hidden = 0;
  for (let tries = 0; tries < 60 && !hidden; tries++) {       // until a hidden action was taken
    first = await get(`/api/matches/${entry.id}`);
    if (!first.playing) break;
    const views = [await get(`/api/matches/${entry.id}?view=0`), await get(`/api/matches/${entry.id}?view=1`)];
    hidden = checkViews(first, views);
    if (!hidden) await sleep(500);
  }
  assert.ok(first.playing, 'it ended before it showed a hidden action: the test proves nothing');
  assert.ok(hidden > 0, 'no hidden action in play: the test proves nothing');
  assert.equal(first.id, entry.id);
  assert.deepEqual(first.seats.map(s => s.bot), entry.seats.map(s => s.bot));
});

await test('it goes on, then ends: the same id serves it stored, finished', async () => {
  let now = first, grew = false;
  for (let tries = 0; tries < 240 && now.playing; tries++) {   // a match: some 30 s at 300 ms a decision
    await sleep(500);
    now = await get(`/api/matches/${entry.id}`);
    if (now.playing) {
      assert.ok(now.decisions.length >= first.decisions.length);
      for (let i = 0; i < first.decisions.length; i++)
        assert.equal(now.decisions[i].action, first.decisions[i].action, `decision ${i} stays`);
      grew ||= now.decisions.length > first.decisions.length;
    }
  }
  assert.ok(grew, 'the decisions did not grow while it played');
  assert.equal(now.playing, false, 'it did not end');
  assert.ok(now.id < BASE_ID && now.finished_ms > 0 && now.reason !== '', JSON.stringify(now).slice(0, 300));
  const stored = await get(`/api/matches/${now.id}`);
  assert.deepEqual(stored, now, 'the stored match, as its own id serves it');
  for (let i = 0; i < first.decisions.length; i++)
    assert.equal(stored.decisions[i].action, first.decisions[i].action, `decision ${i} as it was played`);
  const l = await get('/api/live');
  assert.ok(!l.playing.some(p => p.id === entry.id), 'no longer listed as playing');
});

if (failures) { console.log(`${failures} failed`); process.exit(1); }
console.log('PASS');
